#include "text_boxes.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <regex>

#include <fmt/format.h>

#include "label_boxes.hpp"

namespace roofcast::testing {

namespace {

constexpr double kPixelsPerPoint = 4.0 / 3.0;  // text_width() is in points of the PNG terminal
// DejaVu's glyphs reach 0.76 em above the baseline (ascenders, capitals, digits) and 0.24 em below.
constexpr double kAscent = 0.76, kDescent = 0.24;
// Boxes this close still count as apart: anti-aliasing, not overlap.
constexpr double kTolerance = 0.5;

std::string trimmed(const std::string& text, size_t& leading) {
  leading = text.find_first_not_of(" \t\n");
  if (leading == std::string::npos) return "";
  return text.substr(leading, text.find_last_not_of(" \t\n") + 1 - leading);
}

// The corners of a polygon as the axes to project on (separating axis theorem).
std::vector<Corner> normals(const std::vector<Corner>& polygon) {
  std::vector<Corner> result;
  for (size_t i = 0; i < polygon.size(); ++i) {
    const Corner a = polygon[i], b = polygon[(i + 1) % polygon.size()];
    if (a.x == b.x && a.y == b.y) continue;
    result.push_back({b.y - a.y, a.x - b.x});
  }
  return result;
}

// Whether two convex polygons overlap by more than the tolerance.
bool polygons_overlap(const std::vector<Corner>& a, const std::vector<Corner>& b) {
  std::vector<Corner> axes = normals(a);
  const std::vector<Corner> more = normals(b);
  axes.insert(axes.end(), more.begin(), more.end());
  for (const Corner axis : axes) {
    const double length = std::hypot(axis.x, axis.y);
    auto project = [&](const std::vector<Corner>& polygon) {
      double low = INFINITY, high = -INFINITY;
      for (const Corner c : polygon) {
        const double p = (c.x * axis.x + c.y * axis.y) / length;
        low = std::min(low, p), high = std::max(high, p);
      }
      return std::pair{low, high};
    };
    const auto [a_low, a_high] = project(a);
    const auto [b_low, b_high] = project(b);
    if (a_high - kTolerance <= b_low || b_high - kTolerance <= a_low) return false;
  }
  return true;
}

std::vector<Corner> polygon_of(const DrawnText& t) { return {t.corners.begin(), t.corners.end()}; }

// The plot elements' groups (gnuplot_plot_N, gnuplot_plot_Na in a multiplot).
std::vector<const XmlElement*> plot_groups(const XmlElement& svg) {
  std::vector<const XmlElement*> groups;
  for (const XmlElement* group : svg.descendants("g"))
    if (group->attribute("id").starts_with("gnuplot_plot_")) groups.push_back(group);
  return groups;
}

}  // namespace

double DrawnText::left() const {
  return std::min({corners[0].x, corners[1].x, corners[2].x, corners[3].x});
}
double DrawnText::right() const {
  return std::max({corners[0].x, corners[1].x, corners[2].x, corners[3].x});
}
double DrawnText::top() const { return std::min({corners[0].y, corners[1].y, corners[2].y, corners[3].y}); }
double DrawnText::bottom() const {
  return std::max({corners[0].y, corners[1].y, corners[2].y, corners[3].y});
}

std::vector<DrawnText> drawn_texts(const XmlElement& svg) {
  std::vector<DrawnText> texts;
  const std::regex translate(R"(translate\(([-0-9.]+),([-0-9.]+)\))"), rotate(R"(rotate\(([-0-9.]+)\))");
  for (const XmlElement* group : svg.descendants("g")) {
    std::smatch match;
    const std::string transform = group->attribute("transform");
    if (group->attribute("font-size").empty() || !std::regex_search(transform, match, translate)) continue;
    const double x = std::stod(match[1]), y = std::stod(match[2]);
    const double angle = std::regex_search(transform, match, rotate) ? std::stod(match[1]) : 0;
    std::string all;  // what the group's <text> draws (not the whitespace between the elements)
    for (const XmlElement* element : group->descendants("text")) all += element->all_text();
    size_t leading = 0;
    const std::string text = trimmed(all, leading);
    if (text.empty()) continue;
    const double size = std::stod(group->attribute("font-size"));
    const bool monospace = group->attribute("font-family") == "Monospace";
    const double points = size / kPixelsPerPoint;
    const double full = gnuplot::text_width(all, points, monospace);
    const double before = gnuplot::text_width(all.substr(0, leading), points, monospace);
    const double width = gnuplot::text_width(text, points, monospace);
    const std::string anchor = group->attribute("text-anchor");
    const double start = (anchor == "end" ? -full : anchor == "middle" ? -full / 2 : 0) + before;
    // The box in the text's own frame (x along the baseline), then turned and moved.
    const double radians = angle * std::numbers::pi / 180, c = std::cos(radians), s = std::sin(radians);
    DrawnText drawn{text, {}};
    const Corner local[4] = {{start, -kAscent * size},
                             {start + width, -kAscent * size},
                             {start + width, kDescent * size},
                             {start, kDescent * size}};
    for (int i = 0; i < 4; ++i)
      drawn.corners[i] = {x + local[i].x * c - local[i].y * s, y + local[i].x * s + local[i].y * c};
    texts.push_back(std::move(drawn));
  }
  return texts;
}

std::vector<Segment> plotted_lines(const XmlElement& svg) {
  std::vector<Segment> segments;
  for (const XmlElement* group : plot_groups(svg))
    for (const XmlElement* path : group->descendants("path")) {
      const std::string d = path->attribute("d");
      // Runs of "M x,y L x,y L x,y ..." (a Z closes back to the run's start).
      Corner start{}, last{};
      bool have = false;
      const std::regex command(R"(([MLZ])\s*([-0-9.]+)?[ ,]*([-0-9.]+)?)");
      for (auto it = std::sregex_iterator(d.begin(), d.end(), command); it != std::sregex_iterator(); ++it) {
        const char op = (*it)[1].str()[0];
        if (op == 'Z') {
          if (have) segments.push_back({last, start});
          continue;
        }
        if (!(*it)[2].matched || !(*it)[3].matched) continue;
        const Corner point{std::stod((*it)[2]), std::stod((*it)[3])};
        if (op == 'L' && have) segments.push_back({last, point});
        if (op == 'M') start = point;
        last = point;
        have = true;
      }
    }
  return segments;
}

std::vector<Marker> plotted_markers(const XmlElement& svg) {
  std::vector<Marker> markers;
  const std::regex placed(R"(translate\(([-0-9.]+),([-0-9.]+)\)\s*scale\(([-0-9.]+)\))");
  for (const XmlElement* group : plot_groups(svg))
    for (const XmlElement* use : group->descendants("use")) {
      std::smatch match;
      const std::string transform = use->attribute("transform");
      if (!std::regex_search(transform, match, placed)) continue;
      markers.push_back({{std::stod(match[1]), std::stod(match[2])}, std::stod(match[3]), use->attribute("color")});
    }
  return markers;
}

bool overlaps(const DrawnText& a, const DrawnText& b) { return polygons_overlap(polygon_of(a), polygon_of(b)); }

bool crosses(const DrawnText& text, const Segment& segment) {
  return polygons_overlap(polygon_of(text), {segment.from, segment.to});
}

bool covers(const DrawnText& text, const Marker& marker) {
  // The marker as the square around its circle, turned with the text (a text's box is a rectangle).
  const double r = marker.radius;
  const Corner c = marker.centre;
  return polygons_overlap(polygon_of(text), {{c.x - r, c.y - r}, {c.x + r, c.y - r}, {c.x + r, c.y + r}, {c.x - r, c.y + r}});
}

std::vector<std::string> overlapping_texts(const std::vector<DrawnText>& texts) {
  std::vector<std::string> pairs;
  for (size_t i = 0; i < texts.size(); ++i)
    for (size_t j = i + 1; j < texts.size(); ++j)
      if (overlaps(texts[i], texts[j])) pairs.push_back(fmt::format("\"{}\" covers \"{}\"", texts[i].text, texts[j].text));
  return pairs;
}

}  // namespace roofcast::testing
