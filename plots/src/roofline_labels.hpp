#pragma once

// The roofline chart's labels, each placed where it covers no other label, line or point: the
// compute roofs' labels beside the ends of their roofs, the slopes' labels along their slopes,
// and each kernel's number beside its point.

#include <string>
#include <vector>

#include "label_boxes.hpp"
#include "roofline_layout.hpp"

namespace roofcast::roofline {

// What the plot holds (lines, points, labels placed), for the labels that come next.
class PlotRoom {
 public:
  explicit PlotRoom(const Layout& layout)
      : layout_(layout), lines_(layout.area), points_(layout.area), labels_(layout.area) {}
  // A line from pixel (x0, y0) to (x1, y1), as small boxes along it.
  void block_line(double x0, double y0, double x1, double y1, double half_width = 1.5);
  void block_point(double x, double y, double radius) { points_.block({x - radius, x + radius, y - radius, y + radius}); }
  // Whether `boxes` all lie inside the plot, over no label placed so far and, unless `thin` (a
  // leader line, which may cross lines and points), over no line or point.
  bool free(const std::vector<gnuplot::Box>& boxes, bool thin = false) const;
  void take(const std::vector<gnuplot::Box>& boxes) {
    for (const auto& box : boxes) labels_.block(box);
  }
  const Layout& layout() const { return layout_; }

 private:
  const Layout& layout_;
  gnuplot::LabelBoxes lines_, points_, labels_;
};

// The boxes a text turned by `angle` (radians, counter-clockwise) covers, its middle line
// starting at pixel (x, y): squares of the text's height along it.
std::vector<gnuplot::Box> turned_text_boxes(double x, double y, double angle, double width, double height);

// `set label` and `set arrow` lines for the compute roofs' labels, in a column right of the plot:
// each at its roof's height, or as near as the labels above and below it leave room, joined to
// its roof's end by a short line in the roof's colour.
std::string roof_label_column(const std::vector<RooflineCeiling>& ceilings, const Layout& layout);

// `set label` lines for the bandwidth slopes' labels, along each slope near its low end, above it
// or else below; the labels that find no room are added to `unlabelled`.
std::string slope_labels(const std::vector<RooflineCeiling>& ceilings, PlotRoom& room,
                         std::vector<std::string>& unlabelled);

// The drawn kernels' points (and the lines to their measured points), before any label is placed.
void block_kernel_points(const std::vector<RooflineKernelPoint>& kernels, PlotRoom& room);

// Each drawn kernel's number beside its point, in order (heaviest first): next to the point where
// there is room, else further out with a thin line to it. `script` holds the `set label` lines,
// `leader_rows` the lines' data rows (x_from y_from x_to y_to), `left_out` the numbers that
// found no room.
struct KernelNumbers {
  std::string script, leader_rows;
  std::vector<int> left_out;
};
KernelNumbers kernel_numbers(const std::vector<RooflineKernelPoint>& kernels, PlotRoom& room);

// A kernel's marker size (gnuplot's point size) for its share of the time.
double marker_size(const RooflineKernelPoint& kernel);

}  // namespace roofcast::roofline
