#include "roofline_labels.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <fmt/format.h>

#include "chart_style.hpp"
#include "gnuplot_text.hpp"

namespace roofcast::roofline {

namespace {

using gnuplot::Box;
using gnuplot::quoted;

constexpr double kGap = 3;  // between a label and what it labels

double top_compute_of(const std::vector<RooflineCeiling>& ceilings) {
  double top = 0;
  for (const auto& c : ceilings)
    if (c.kind == RooflineCeiling::Kind::compute) top = std::max(top, c.value);
  return top;
}

// Positions for labels wanted at `wanted` (sorted, top to bottom) that keep `spacing` apart and
// stay within [low, high], as near their wish as they can (clusters of labels that would
// overlap move together, centred on their wishes).
std::vector<double> spread(const std::vector<double>& wanted, double spacing, double low, double high) {
  struct Cluster {
    size_t first, count;
    double top;
  };
  std::vector<Cluster> clusters;
  for (size_t i = 0; i < wanted.size(); ++i) {
    clusters.push_back({i, 1, wanted[i]});
    while (clusters.size() > 1) {
      Cluster& last = clusters.back();
      Cluster& before = clusters[clusters.size() - 2];
      if (before.top + static_cast<double>(before.count) * spacing <= last.top) break;
      // Merged: the top that centres the labels on their wishes.
      const size_t first = before.first, count = before.count + last.count;
      double sum = 0;
      for (size_t k = 0; k < count; ++k) sum += wanted[first + k] - static_cast<double>(k) * spacing;
      clusters.pop_back();
      clusters.back() = {first, count, sum / static_cast<double>(count)};
    }
  }
  std::vector<double> positions(wanted.size());
  for (const auto& c : clusters)
    for (size_t k = 0; k < c.count; ++k) positions[c.first + k] = c.top + static_cast<double>(k) * spacing;
  // Within the bounds: pushed down from the top, then up from the bottom.
  for (size_t i = 0; i < positions.size(); ++i)
    positions[i] = std::max(positions[i], i == 0 ? low : positions[i - 1] + spacing);
  for (size_t i = positions.size(); i-- > 0;)
    positions[i] = std::min(positions[i], i + 1 == positions.size() ? high : positions[i + 1] - spacing);
  return positions;
}

}  // namespace

void PlotRoom::block_line(double x0, double y0, double x1, double y1, double half_width) {
  const int steps = std::max(1, static_cast<int>(std::hypot(x1 - x0, y1 - y0) / half_width));
  for (int i = 0; i <= steps; ++i) {
    const double x = x0 + (x1 - x0) * i / steps, y = y0 + (y1 - y0) * i / steps;
    lines_.block({x - half_width, x + half_width, y - half_width, y + half_width});
  }
}

bool PlotRoom::free(const std::vector<Box>& boxes, bool thin) const {
  const auto covers = [](const gnuplot::LabelBoxes& taken, const Box& box) {
    return std::any_of(taken.placed().begin(), taken.placed().end(), [&](const Box& t) { return box.overlaps(t); });
  };
  return std::all_of(boxes.begin(), boxes.end(), [&](const Box& box) {
    return box.inside(layout_.area) && !covers(labels_, box) && (thin || (!covers(lines_, box) && !covers(points_, box)));
  });
}

std::vector<Box> turned_text_boxes(double x, double y, double angle, double width, double height) {
  // Squares whose corners stay within the text's band: side height / (|cos| + |sin|).
  const double side = height / (std::abs(std::cos(angle)) + std::abs(std::sin(angle)));
  const double dx = std::cos(angle), dy = -std::sin(angle);
  std::vector<Box> boxes;
  for (double along = side / 2;; along += side / 2) {
    const double at = std::min(along, width - side / 2);
    const double cx = x + dx * at, cy = y + dy * at;
    boxes.push_back({cx - side / 2, cx + side / 2, cy - side / 2, cy + side / 2});
    if (at >= width - side / 2) break;
  }
  return boxes;
}

std::string roof_label_column(const std::vector<RooflineCeiling>& ceilings, const Layout& layout) {
  std::vector<const RooflineCeiling*> roofs;
  for (const auto& c : ceilings)
    if (c.kind == RooflineCeiling::Kind::compute) roofs.push_back(&c);
  std::stable_sort(roofs.begin(), roofs.end(), [](auto* a, auto* b) { return a->value > b->value; });
  std::vector<double> wanted;
  for (const auto* roof : roofs) wanted.push_back(layout.y_pixel(roof->value));
  const double row = gnuplot::text_height(kRoofFont);
  const std::vector<double> at = spread(wanted, row, layout.area.top, layout.area.bottom - row / 2);
  std::string script;
  for (size_t i = 0; i < roofs.size(); ++i) {
    const std::string_view color = chart_style::color_of(roofs[i]->name);
    script += fmt::format("set label {} {} left textcolor rgb '{}' font ',{}'\n", quoted(roofs[i]->label()),
                          layout.at_screen(layout.roof_labels_left, at[i]), color, kRoofFont);
    // The roof, continued to its label.
    script += fmt::format("set arrow from screen {:.4f}, {:.4f} to screen {:.4f}, {:.4f} nohead lw 1.5 lc rgb '{}'\n",
                          layout.area.right / layout.width, 1 - wanted[i] / layout.height,
                          (layout.roof_labels_left - kGap) / layout.width, 1 - at[i] / layout.height, color);
  }
  return script;
}

std::string slope_labels(const std::vector<RooflineCeiling>& ceilings, PlotRoom& room,
                         std::vector<std::string>& unlabelled) {
  const Layout& layout = room.layout();
  const double angle = layout.slope_angle(), height = gnuplot::text_height(kRoofFont);
  // Normal to the slopes, pointing up-left on the canvas (y grows downwards).
  const double nx = -std::sin(angle), ny = -std::cos(angle);
  std::vector<const RooflineCeiling*> slopes;
  for (const auto& c : ceilings)
    if (c.kind == RooflineCeiling::Kind::bandwidth) slopes.push_back(&c);
  std::stable_sort(slopes.begin(), slopes.end(), [](auto* a, auto* b) { return a->name != "DRAM" && b->name == "DRAM"; });
  const double top_compute = top_compute_of(ceilings);
  std::string script;
  for (const auto* slope : slopes) {
    const double width = gnuplot::text_width(slope->label(), kRoofFont);
    // The slope's visible part, from the plot's left or bottom edge to the highest roof.
    const double x_start = std::max(layout.x.low, layout.y.low / slope->value);
    const double x0 = layout.x_pixel(x_start), y0 = layout.y_pixel(slope->value * x_start);
    const double x1 = layout.x_pixel(top_compute / slope->value), y1 = layout.y_pixel(top_compute);
    const double length = std::hypot(x1 - x0, y1 - y0);
    bool placed = false;
    // Along the slope, from its low end: above it, else below it, else further below (no other
    // slope runs below DRAM, the slowest; the caches' run above it).
    std::vector<double> offsets{height / 2 + kGap, -(height / 2 + kGap)};
    for (const double more : {6.0, 12.0, 18.0, 24.0}) offsets.push_back(-(height / 2 + kGap + more));
    for (const double distance : offsets)
      for (double along = 12; !placed && along + width < length; along += 10) {
        const double x = x0 + (x1 - x0) * along / length + nx * distance;
        const double y = y0 + (y1 - y0) * along / length + ny * distance;
        const auto boxes = turned_text_boxes(x, y, angle, width, height);
        if (!room.free(boxes)) continue;
        room.take(boxes);
        script += fmt::format("set label {} {} left rotate by {:.2f} textcolor rgb '{}' font ',{}'\n",
                              quoted(slope->label()), layout.at_screen(x, y), angle * 180 / std::numbers::pi,
                              slope->name == "DRAM" ? "#000000" : "#666666", kRoofFont);
        placed = true;
        break;
      }
    if (!placed) unlabelled.push_back(slope->label());
  }
  return script;
}

double marker_size(const RooflineKernelPoint& kernel) { return 0.8 + 2.4 * std::sqrt(kernel.time_share); }

void block_kernel_points(const std::vector<RooflineKernelPoint>& kernels, PlotRoom& room) {
  const Layout& layout = room.layout();
  for (const auto& k : kernels) {
    if (!k.drawable) continue;
    const double radius = kMarkerRadius * marker_size(k) + 1;
    const double x = layout.x_pixel(k.O_krn), y = layout.y_pixel(k.predicted_gops);
    room.block_point(x, y, radius);
    if (k.measured_gops) {
      const double y_measured = layout.y_pixel(*k.measured_gops);
      room.block_point(x, y_measured, radius);
      room.block_line(x, y, x, y_measured, 1);
    }
  }
}

KernelNumbers kernel_numbers(const std::vector<RooflineKernelPoint>& kernels, PlotRoom& room) {
  const Layout& layout = room.layout();
  const double height = gnuplot::text_height(kNumberFont);
  KernelNumbers result;
  std::vector<const RooflineKernelPoint*> order;
  for (const auto& k : kernels)
    if (k.drawable) order.push_back(&k);
  std::stable_sort(order.begin(), order.end(), [](auto* a, auto* b) { return a->time_share > b->time_share; });
  for (const auto* k : order) {
    const std::string text = std::to_string(k->number);
    const double width = gnuplot::text_width(text, kNumberFont);
    const double x = layout.x_pixel(k->O_krn), y = layout.y_pixel(k->predicted_gops);
    const double radius = kMarkerRadius * marker_size(*k) + 1;
    // Candidates: beside the point (the eight compass points, up-right first), then on rings ever
    // further out, joined to the point by a thin line.
    struct Candidate {
      double x, y, angle;
      bool leader;
    };
    std::vector<Candidate> candidates;
    for (const auto& [dx, dy] : {std::pair{1, -1}, {1, 0}, {1, 1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}, {0, 1}})
      candidates.push_back({x + dx * (radius + width / 2 + 1), y + dy * (radius + height / 2), 0, false});
    for (const double distance : {12.0, 24.0, 38.0, 54.0, 72.0, 95.0, 120.0, 150.0, 185.0})
      for (int d = 0; d < 24; ++d) {
        const double a = 2 * std::numbers::pi * d / 24 + std::numbers::pi / 4;
        const double out = radius * std::numbers::sqrt2 + distance + std::max(width, height) / 2;
        candidates.push_back({x + std::cos(a) * out, y - std::sin(a) * out, a, true});
      }
    bool placed = false;
    for (const Candidate& c : candidates) {
      std::vector<Box> taken{{c.x - width / 2, c.x + width / 2, c.y - height / 2, c.y + height / 2}};
      double from_x = 0, from_y = 0, to_x = 0, to_y = 0;
      if (c.leader) {  // from just outside the point's box to just outside the number's
        const double cos_a = std::cos(c.angle), sin_a = std::sin(c.angle);
        const double start = radius * std::numbers::sqrt2 + 1.5;
        const double end = std::min(width / 2 / std::max(std::abs(cos_a), 1e-9), height / 2 / std::max(std::abs(sin_a), 1e-9)) + 1.5;
        from_x = x + cos_a * start, from_y = y - sin_a * start;
        to_x = c.x - cos_a * end, to_y = c.y + sin_a * end;
        const int steps = std::max(1, static_cast<int>(std::hypot(to_x - from_x, to_y - from_y) / 1.5));
        for (int i = 0; i <= steps; ++i) {
          const double px = from_x + (to_x - from_x) * i / steps, py = from_y + (to_y - from_y) * i / steps;
          taken.push_back({px - 0.75, px + 0.75, py - 0.75, py + 0.75});
        }
      }
      // The number covers nothing; its leader may cross a line or a point, never a label.
      if (!room.free({taken.front()}) || !room.free({taken.begin() + 1, taken.end()}, true)) continue;
      room.take(taken);
      if (c.leader)
        result.leader_rows += fmt::format("{} {} {} {}\n", gnuplot::number(layout.x_value(from_x)),
                                          gnuplot::number(layout.y_value(from_y)), gnuplot::number(layout.x_value(to_x)),
                                          gnuplot::number(layout.y_value(to_y)));
      result.script += fmt::format("set label {} {} center front font ',{}'\n", quoted(text), layout.at_screen(c.x, c.y),
                                   kNumberFont);
      placed = true;
      break;
    }
    if (!placed) result.left_out.push_back(k->number);
  }
  std::sort(result.left_out.begin(), result.left_out.end());
  return result;
}

}  // namespace roofcast::roofline
