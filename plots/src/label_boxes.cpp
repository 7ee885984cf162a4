#include "label_boxes.hpp"

namespace roofcast::gnuplot {

bool Box::overlaps(const Box& other) const {
  return left < other.right && other.left < right && top < other.bottom && other.top < bottom;
}

bool Box::inside(const Box& area) const {
  return left >= area.left && right <= area.right && top >= area.top && bottom <= area.bottom;
}

namespace {

// Advance widths of DejaVu Sans (what fontconfig gives gnuplot for "Sans" on Debian), in em, of
// the characters ' ' (32) to '~' (126): read from DejaVuSans.ttf's hmtx table (2048 units per em).
constexpr double kSansWidths[95] = {
    0.318, 0.401, 0.460, 0.838, 0.636, 0.950, 0.780, 0.275, 0.390, 0.390, 0.500, 0.838, 0.318, 0.361, 0.318, 0.337,
    0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.636, 0.337, 0.337, 0.838, 0.838, 0.838, 0.531,
    1.000, 0.684, 0.686, 0.698, 0.770, 0.632, 0.575, 0.775, 0.752, 0.295, 0.295, 0.656, 0.557, 0.863, 0.748, 0.787,
    0.603, 0.787, 0.695, 0.635, 0.611, 0.732, 0.684, 0.989, 0.685, 0.611, 0.685, 0.390, 0.337, 0.390, 0.838, 0.500,
    0.500, 0.613, 0.635, 0.550, 0.635, 0.615, 0.352, 0.635, 0.634, 0.278, 0.278, 0.579, 0.278, 0.974, 0.634, 0.612,
    0.635, 0.635, 0.411, 0.521, 0.392, 0.634, 0.592, 0.818, 0.592, 0.592, 0.525, 0.636, 0.337, 0.636, 0.838};
constexpr double kMonospaceWidth = 0.602;  // every character of DejaVu Sans Mono
constexpr double kWidestSans = 1.0;        // a character beyond ASCII: as wide as the widest
// pngcairo draws a point as 4/3 pixel (96 dpi); the SVG terminal is given `fontscale 4/3` to match.
constexpr double kPixelsPerPoint = 4.0 / 3.0;

// Characters beyond ASCII the charts write: superscript digits and minus, times (tics' powers of ten).
double wide_character_width(char32_t c) {
  if (c == 0xB2 || c == 0xB3 || c == 0xB9 || (c >= 0x2070 && c <= 0x2079)) return 0.401;
  if (c == 0x207B) return 0.528;
  if (c == 0xD7) return 0.838;  // ×
  return kWidestSans;
}

}  // namespace

double text_width(std::string_view text, double points, bool monospace) {
  double ems = 0;
  for (size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    // One UTF-8 sequence: its code point from the lead byte and the continuation bytes.
    const size_t length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1;
    char32_t c = length == 1 ? byte : byte & (0x7F >> length);
    for (size_t k = 1; k < length && i + k < text.size(); ++k) c = (c << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    i += length;
    ems += monospace ? kMonospaceWidth : c >= 32 && c < 127 ? kSansWidths[c - 32] : wide_character_width(c);
  }
  return ems * points * kPixelsPerPoint;
}

// DejaVu's ascent + descent (0.928 + 0.236 em): a line of text, accents and descenders included.
double text_height(double points) { return 1.164 * points * kPixelsPerPoint; }

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
