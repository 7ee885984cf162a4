#include "label_boxes.hpp"

namespace roofcast::gnuplot {

bool Box::overlaps(const Box& other) const {
  return left < other.right && other.left < right && top < other.bottom && other.top < bottom;
}

bool Box::inside(const Box& area) const {
  return left >= area.left && right <= area.right && top >= area.top && bottom <= area.bottom;
}

double text_width(std::string_view text, double points, bool monospace) {
  size_t characters = 0;
  for (const char c : text)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++characters;  // UTF-8 continuation bytes add none
  // Measured on pngcairo's PNGs: ~0.75 point per average Sans character, 0.9 per monospace one.
  return static_cast<double>(characters) * (monospace ? 0.9 : 0.75) * points;
}

double text_height(double points) { return 1.45 * points; }

std::optional<Box> LabelBoxes::place(const std::vector<Box>& candidates) {
  std::vector<std::vector<Box>> groups;
  for (const Box& candidate : candidates) groups.push_back({candidate});
  const auto chosen = place_together(groups);
  if (!chosen) return std::nullopt;
  return candidates[*chosen];
}

std::optional<size_t> LabelBoxes::place_together(const std::vector<std::vector<Box>>& candidates) {
  for (size_t i = 0; i < candidates.size(); ++i) {
    bool free = !candidates[i].empty();
    for (const Box& candidate : candidates[i]) {
      free = free && candidate.inside(area_);
      for (const Box& box : placed_) free = free && !candidate.overlaps(box);
    }
    if (!free) continue;
    placed_.insert(placed_.end(), candidates[i].begin(), candidates[i].end());
    return i;
  }
  return std::nullopt;
}

}  // namespace roofcast::gnuplot
