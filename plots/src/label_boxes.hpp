#pragma once

#include <optional>
#include <string_view>
#include <vector>

namespace roofcast::gnuplot {

// A rectangle on the canvas, in pixels from its top-left corner (y grows downwards).
struct Box {
  double left = 0, right = 0, top = 0, bottom = 0;
  bool overlaps(const Box& other) const;
  bool inside(const Box& area) const;
};

// How much room a one-line label takes in a `points`-sized font, in pixels, as gnuplot's PNG and
// SVG terminals draw it (DejaVu Sans, or DejaVu Sans Mono when `monospace`, at 4/3 pixel a point).
double text_width(std::string_view text, double points, bool monospace = false);
double text_height(double points);

// Places labels one by one where they overlap no label placed before them.
class LabelBoxes {
 public:
  explicit LabelBoxes(Box area) : area_(area) {}
  // The first of `candidates` inside the area that overlaps no placed box, now placed too;
  // nullopt when every candidate is taken (the label is then better left out).
  std::optional<Box> place(const std::vector<Box>& candidates);
  // The same for labels of several lines placed together: the index of the first candidate
  // whose boxes are all free (now placed), nullopt when none is.
  std::optional<size_t> place_together(const std::vector<std::vector<Box>>& candidates);
  // Room taken by something else than a label (a line of the chart): nothing is placed over it.
  void block(const Box& box) { placed_.push_back(box); }
  const std::vector<Box>& placed() const { return placed_; }

 private:
  Box area_;
  std::vector<Box> placed_;
};

}  // namespace roofcast::gnuplot
