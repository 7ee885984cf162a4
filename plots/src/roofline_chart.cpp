#include "roofcast/plots/roofline_chart.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <stdexcept>

#include <fmt/format.h>

#include "chart_style.hpp"
#include "gnuplot_text.hpp"
#include "kernel_labels.hpp"
#include "label_boxes.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/model/profile_prediction.hpp"
#include "roofcast/plots/chart_values.hpp"

namespace roofcast {

namespace {

using gnuplot::number;
using gnuplot::quoted;
using gnuplot::DataFile;

constexpr int kWidth = 1250, kHeight = 650;
constexpr double kBottom = 0.10, kTop = 0.90, kLeft = 0.08;
constexpr double kRightAlone = 0.96, kNarrowestRight = 0.45;
constexpr double kKeyBottom = 0.03;  // the plot's key, in the right margin beside a profile's kernels
constexpr size_t kMaxKeyEntries = 34;
constexpr int kCeilingFont = 11;
constexpr size_t kKeyNameWidth = 20;  // the kernel names of the numbered key, in characters

// "tensor_fp16_gflops" -> ("tensor fp16", 1, "GFLOP/s"); nullopt for keys that are not peaks.
struct PeakKey {
  std::string name;
  double scale = 1;
  std::string unit;
  RooflineCeiling::Kind kind;
};

std::optional<PeakKey> peak_key(const std::string& key) {
  static const std::vector<std::pair<std::string, PeakKey>> suffixes{
      {"_gflops", {"", 1, "GFLOP/s", RooflineCeiling::Kind::compute}},
      {"_tflops", {"", 1000, "GFLOP/s", RooflineCeiling::Kind::compute}},
      {"_giops", {"", 1, "GIOP/s", RooflineCeiling::Kind::compute}},
      {"_tops", {"", 1000, "GIOP/s", RooflineCeiling::Kind::compute}},
      {"_gbps", {"", 1, "GB/s", RooflineCeiling::Kind::bandwidth}},
      {"_tbps", {"", 1000, "GB/s", RooflineCeiling::Kind::bandwidth}},
  };
  for (const auto& [suffix, peak] : suffixes) {
    if (key.size() <= suffix.size() || !key.ends_with(suffix)) continue;
    PeakKey result = peak;
    result.name = key.substr(0, key.size() - suffix.size());
    std::replace(result.name.begin(), result.name.end(), '_', ' ');
    if (result.kind == RooflineCeiling::Kind::bandwidth) {
      // Variants of B_mem (read, write, copy, cudaMemcpy) are not further roofs.
      if (result.name.starts_with("dram") || result.name.starts_with("memcpy")) return std::nullopt;
      if (result.name.size() == 2 && (result.name[0] == 'l' || result.name[0] == 'L'))
        result.name = fmt::format("L{}", result.name[1]);  // "l2" -> "L2"
    }
    if (result.name == "half2") result.name = "fp16 (half2)";
    return result;
  }
  return std::nullopt;
}

struct AxisRange {
  double low = 0, high = 0;
  double decades() const { return std::log10(high / low); }
};

double decade_below(double value) { return std::pow(10.0, std::floor(std::log10(value))); }
double decade_above(double value) { return std::pow(10.0, std::ceil(std::log10(value))); }

struct Layout {
  AxisRange x, y;
  double right = kRightAlone;
  double slope_angle_degrees = 45;  // screen angle of a slope-1 line in log-log

  // The plot area and where values land on the canvas, in pixels from its top-left corner.
  gnuplot::Box area() const { return {kLeft * kWidth, right * kWidth, (1 - kTop) * kHeight, (1 - kBottom) * kHeight}; }
  double x_pixel(double value) const {
    const auto a = area();
    return a.left + (a.right - a.left) * std::log10(value / x.low) / x.decades();
  }
  double y_pixel(double value) const {
    const auto a = area();
    return a.bottom - (a.bottom - a.top) * std::log10(value / y.low) / y.decades();
  }
};

// `set label` text anchored at a pixel of the canvas (gnuplot's screen coordinates run upwards).
std::string screen_at(double x_pixel, double y_pixel) {
  return fmt::format("at screen {:.4f}, {:.4f}", x_pixel / kWidth, 1 - y_pixel / kHeight);
}

Layout layout_for(const std::vector<RooflineCeiling>& ceilings, const std::vector<RooflineKernelPoint>& kernels,
                  const std::vector<RooflinePoint>& sweep, size_t key_characters) {
  double top_compute = 0, low_compute = INFINITY, dram = 0, low_bandwidth = INFINITY;
  for (const auto& c : ceilings) {
    if (c.kind == RooflineCeiling::Kind::compute) {
      top_compute = std::max(top_compute, c.value);
      low_compute = std::min(low_compute, c.value);
    } else {
      low_bandwidth = std::min(low_bandwidth, c.value);
      if (c.name == "DRAM") dram = c.value;
    }
  }
  double x_low = low_compute / dram / 30, x_high = top_compute / low_bandwidth * 8;
  double y_low = low_compute / 4, y_high = top_compute * 1.8;
  for (const auto& k : kernels) {
    if (!k.drawable) continue;
    x_low = std::min(x_low, k.O_krn / 2);
    x_high = std::max(x_high, k.O_krn * 2);
    y_low = std::min(y_low, k.predicted_gops / 2);
    if (k.measured_gops && *k.measured_gops > 0) y_low = std::min(y_low, *k.measured_gops / 2);
  }
  for (const auto& p : sweep) {
    if (!chartable(p.ops_per_byte) || !chartable(p.gops)) continue;
    x_low = std::min(x_low, p.ops_per_byte / 1.5);
    x_high = std::max(x_high, p.ops_per_byte * 1.5);
    y_low = std::min(y_low, p.gops / 1.5);
  }
  y_low = std::min(y_low, dram * x_low * 2);
  Layout layout;
  layout.x = {decade_below(x_low), decade_above(x_high)};
  layout.y = {decade_below(y_low), decade_above(y_high)};
  // The numbered key's rows fit between the plot and the canvas' right edge.
  const double key_width = gnuplot::text_width(std::string(key_characters, 'x'), 9, true) + 0.015 * kWidth + 8;
  layout.right = key_characters == 0 ? kRightAlone : std::max(kNarrowestRight, 1 - key_width / kWidth);
  const double width = kWidth * (layout.right - kLeft) / layout.x.decades();
  const double height = kHeight * (kTop - kBottom) / layout.y.decades();
  layout.slope_angle_degrees = std::atan2(height, width) * 180 / std::numbers::pi;
  return layout;
}

// One label of a compute roof: its text's right end and its middle, in canvas pixels.
struct PlacedLabel {
  const RooflineCeiling* roof;
  double right, middle;
};

// Labels of the compute roofs (sorted highest first) where each covers no other label and no
// line. Roofs closer than a label's height form a group whose labels are stacked in their order:
// above the group at the right end, else below it, else left of where the group's roofs start
// (further left and up or down as far as needed). A lone roof's label may also go further left
// along its line. A label with no room left is named in a note under the title instead.
std::string compute_roof_labels(const std::vector<const RooflineCeiling*>& compute,
                                const std::vector<RooflineCeiling>& ceilings, double dram, double top_compute,
                                const Layout& layout) {
  const gnuplot::Box area = layout.area();
  const double height = gnuplot::text_height(kCeilingFont), gap = 3;
  gnuplot::LabelBoxes boxes(area);
  for (const auto* c : compute) {
    const double y = layout.y_pixel(c->value);
    boxes.block({std::max(area.left, layout.x_pixel(c->value / dram)), area.right, y - 1, y + 1});
  }
  for (const auto& c : ceilings) {  // each slope, as small boxes along it
    if (c.kind != RooflineCeiling::Kind::bandwidth) continue;
    const double x0 = layout.x_pixel(layout.x.low), y0 = layout.y_pixel(c.value * layout.x.low);
    const double x1 = layout.x_pixel(top_compute / c.value), y1 = layout.y_pixel(top_compute);
    const int steps = std::max(1, static_cast<int>(std::hypot(x1 - x0, y1 - y0) / 4));
    for (int i = 0; i <= steps; ++i) {
      const double x = x0 + (x1 - x0) * i / steps, y = y0 + (y1 - y0) * i / steps;
      boxes.block({x - 1.5, x + 1.5, y - 1.5, y + 1.5});
    }
  }

  std::vector<std::vector<const RooflineCeiling*>> groups;
  for (const auto* c : compute) {
    if (groups.empty() || layout.y_pixel(c->value) - layout.y_pixel(groups.back().back()->value) >= height + gap)
      groups.emplace_back();
    groups.back().push_back(c);
  }

  std::vector<PlacedLabel> placed;
  std::vector<std::string> unlabelled;
  const double right_end = area.right - 2 * gap;
  for (const auto& group : groups) {
    const size_t n = group.size();
    double widest = 0, start = area.right;
    for (const auto* c : group) {
      widest = std::max(widest, gnuplot::text_width(c->label(), kCeilingFont));
      start = std::max(area.left, std::min(start, layout.x_pixel(c->value / dram)));
    }
    const double top = layout.y_pixel(group.front()->value), bottom = layout.y_pixel(group.back()->value);
    // Candidates: the right end of the labels and the middle of the first (top) row.
    std::vector<std::pair<double, double>> anchors;
    std::vector<double> right_ends{right_end};
    if (n == 1)  // further left along a lone roof: left of each label already there
      for (const auto& p : placed) right_ends.push_back(p.right - gnuplot::text_width(p.roof->label(), kCeilingFont) - 3 * gap);
    std::sort(right_ends.begin(), right_ends.end(), std::greater<>());
    for (const double right : right_ends) {
      if (right - widest < start) continue;
      anchors.push_back({right, top - gap - height * (static_cast<double>(n) - 0.5)});  // above
      anchors.push_back({right, bottom + gap + height * 0.5});                          // below
    }
    // Left of where the roofs start, level with them or a little up or down, ever further left
    // (where the slopes leave room, in the empty corner above them).
    const double middle = (top + bottom) / 2 - height * (static_cast<double>(n) - 1) / 2;
    for (double right = start - 2 * gap; right - widest >= area.left; right -= 20)
      for (int shift = 0; shift <= 2 * static_cast<int>(n) + 4; ++shift)
        anchors.push_back({right, middle + (shift % 2 ? -1 : 1) * ((shift + 1) / 2) * height / 2});

    std::vector<std::vector<gnuplot::Box>> candidates;
    for (const auto& [right, first] : anchors) {
      std::vector<gnuplot::Box> rows;
      for (size_t k = 0; k < n; ++k) {
        const double y = first + height * static_cast<double>(k);
        rows.push_back({right - gnuplot::text_width(group[k]->label(), kCeilingFont), right, y - height / 2,
                        y + height / 2});
      }
      candidates.push_back(std::move(rows));
    }
    const auto chosen = boxes.place_together(candidates);
    if (!chosen) {
      for (const auto* c : group) unlabelled.push_back(c->label());
      continue;
    }
    for (size_t k = 0; k < n; ++k)
      placed.push_back({group[k], anchors[*chosen].first, anchors[*chosen].second + height * static_cast<double>(k)});
  }

  std::string labels;
  for (const auto& p : placed)
    labels += fmt::format("set label {} {} right textcolor rgb '{}' font ',{}'\n", quoted(p.roof->label()),
                          screen_at(p.right, p.middle), chart_style::color_of(p.roof->name), kCeilingFont);
  // The note: one line between the title and the plot, cut to the canvas (the data file lists every roof).
  if (!unlabelled.empty()) {
    std::string note = fmt::format("No room to label: {}", fmt::join(unlabelled, "; "));
    const auto characters = static_cast<size_t>(kWidth * 0.95 / gnuplot::text_width("x", 9));
    labels += fmt::format("set label {} {} center font ',9'\n", quoted(gnuplot::shortened(note, characters)),
                          screen_at(kWidth / 2.0, (1 - kTop) * kHeight - gnuplot::text_height(9) / 2 - 1));
  }
  return labels;
}

// Ceilings: the segments of each roof, their labels, and the plot clauses that draw them.
void write_ceilings(DataFile& data, std::string& script, std::vector<std::string>& clauses,
                    const std::vector<RooflineCeiling>& ceilings, const Layout& layout) {
  double dram = 0, top_compute = 0;
  for (const auto& c : ceilings) {
    if (c.kind == RooflineCeiling::Kind::bandwidth && c.name == "DRAM") dram = c.value;
    if (c.kind == RooflineCeiling::Kind::compute) top_compute = std::max(top_compute, c.value);
  }
  std::vector<const RooflineCeiling*> compute;
  for (const auto& c : ceilings)
    if (c.kind == RooflineCeiling::Kind::compute) compute.push_back(&c);
  std::sort(compute.begin(), compute.end(), [](auto* a, auto* b) { return a->value > b->value; });

  std::string compute_rows, dram_rows, cache_rows, labels;
  for (const auto* c : compute)
    // A compute roof starts where the DRAM slope reaches it (its ridge point).
    compute_rows += fmt::format("{} {} {} {} {} {}\n", number(c->value / dram), number(c->value), number(layout.x.high),
                                number(c->value), chart_style::rgb_value(chart_style::color_of(c->name)),
                                gnuplot::data_column(c->label()));
  std::vector<const RooflineCeiling*> slopes;
  for (const auto& c : ceilings)
    if (c.kind == RooflineCeiling::Kind::bandwidth) slopes.push_back(&c);
  std::sort(slopes.begin(), slopes.end(), [](auto* a, auto* b) { return a->value < b->value; });
  const double angle = layout.slope_angle_degrees * std::numbers::pi / 180;
  const double plot_width = layout.area().right - layout.area().left;
  double previous_value = 0, previous_end = -INFINITY;  // the last slope label: its roof, its right end (pixels)
  for (const auto* slope : slopes) {
    const auto& c = *slope;
    // A slope runs from the left edge up to the highest compute roof.
    (c.name == "DRAM" ? dram_rows : cache_rows) +=
        fmt::format("{} {} {} {} {}\n", number(layout.x.low), number(c.value * layout.x.low),
                    number(top_compute / c.value), number(top_compute), gnuplot::data_column(c.label()));
    // The label lies along the slope, near its lower end but inside the plot; after the label of
    // a slope too close below it to hold both side by side.
    double x = layout.x.low * std::pow(10.0, 0.05 * layout.x.decades());
    const double y_floor = layout.y.low * std::pow(10.0, 0.06 * layout.y.decades());
    if (c.value * x < y_floor) x = y_floor / c.value;
    const double apart = previous_value > 0 ? (layout.y_pixel(previous_value) - layout.y_pixel(c.value)) * std::cos(angle)
                                            : INFINITY;
    if (apart < 1.6 * gnuplot::text_height(kCeilingFont) && layout.x_pixel(x) < previous_end + 10)
      x = layout.x.low * std::pow(10.0, (previous_end + 10 - layout.area().left) / plot_width * layout.x.decades());
    previous_value = c.value;
    previous_end = layout.x_pixel(x) + gnuplot::text_width(c.label(), kCeilingFont) * std::cos(angle);
    labels += fmt::format("set label {} at {}, {} left rotate by {:.1f} offset -0.6,0.9 textcolor rgb '{}' font ',11'\n",
                          quoted(c.label()), number(x), number(c.value * x), layout.slope_angle_degrees,
                          c.name == "DRAM" ? "#000000" : "#666666");
  }
  labels += compute_roof_labels(compute, ceilings, dram, top_compute, layout);
  script += "# Ceiling labels: value and unit of each roof.\n" + labels + "\n";
  const int compute_block = data.add_block("compute roofs: x_from y x_to y rgb label", compute_rows);
  clauses.push_back(fmt::format("data index {} using 1:2:($3-$1):($4-$2):5 with vectors nohead lw 2.5 lc rgb variable "
                                "notitle",
                                compute_block));
  const int dram_block = data.add_block("DRAM slope: x_from y_from x_to y_to label", dram_rows);
  clauses.push_back(fmt::format(
      "data index {} using 1:2:($3-$1):($4-$2) with vectors nohead lw 2.5 lc rgb '#000000' notitle", dram_block));
  if (!cache_rows.empty()) {
    const int cache_block = data.add_block("cache bandwidth slopes: x_from y_from x_to y_to label", cache_rows);
    clauses.push_back(fmt::format("data index {} using 1:2:($3-$1):($4-$2) with vectors nohead lw 1.5 dashtype 2 "
                                  "lc rgb '#666666' notitle",
                                  cache_block));
  }
}

// The plot's own key (one row per entry, in a box), in canvas pixels.
double key_height(size_t rows) { return static_cast<double>(rows) * 1.1 * gnuplot::text_height(10) + 12; }

// A row of the numbered key: `label` is the kernel's name, shortened to a string no other kernel
// of the key shares; a "*" before the number marks a kernel off the chart's range.
std::string kernel_key_text(const RooflineKernelPoint& k, const std::string& label, bool with_measured) {
  const std::string share = k.time_share < 0.005 ? "<1%" : fmt::format("{:.0f}%", k.time_share * 100);
  const std::string number = fmt::format("{}{}", k.drawable ? "" : "*", k.number);
  std::string text = fmt::format("{:>3} {:<{}} {:<4} {:<7} {:>9}", number, label, kKeyNameWidth, to_string(k.type),
                                 to_string(k.bound), gnuplot::milliseconds(k.predicted_ms));
  if (with_measured) text += fmt::format(" {:>9}", k.measured_ms ? gnuplot::milliseconds(*k.measured_ms) : "-");
  return text + fmt::format(" {:>4}", share);
}

std::string kernel_key_header(bool with_measured) {
  std::string text = fmt::format("{:>3} {:<{}} {:<4} {:<7} {:>9}", "#", "kernel", kKeyNameWidth, "type", "bound",
                                 "pred. ms");
  if (with_measured) text += fmt::format(" {:>9}", "meas. ms");
  return text + fmt::format(" {:>4}", "time");
}

// The `max_kernels` points with the most predicted time, heaviest first and numbered so; the
// others are counted in `left_out`.
std::vector<RooflineKernelPoint> heaviest_points(std::vector<RooflineKernelPoint> points, size_t max_kernels,
                                                 size_t& left_out) {
  left_out = 0;
  if (points.size() <= max_kernels) return points;
  left_out = points.size() - max_kernels;
  std::stable_sort(points.begin(), points.end(),
                   [](const auto& a, const auto& b) { return a.predicted_ms > b.predicted_ms; });
  points.resize(max_kernels);
  for (size_t i = 0; i < points.size(); ++i) points[i].number = static_cast<int>(i) + 1;
  return points;
}

void write_kernels(DataFile& data, std::string& script, std::vector<std::string>& clauses,
                   const std::vector<RooflineKernelPoint>& kernels, size_t left_out, const Layout& layout,
                   size_t key_rows, const std::string& model) {
  std::string rows;
  bool any_measured = false;
  for (const auto& k : kernels) {
    if (!k.drawable) continue;
    const double size = 0.8 + 2.4 * std::sqrt(k.time_share);
    rows += fmt::format("{} {} {} {:.3f} {} {} {}\n", k.number, number(k.O_krn), number(k.predicted_gops), size,
                        chart_style::rgb_value(chart_style::color_of(k.type)),
                        k.measured_gops ? number(*k.measured_gops) : "?", gnuplot::data_column(k.name));
    any_measured = any_measured || k.measured_gops.has_value();
  }

  // The numbered key, in the right margin, coloured by kernel type, above the plot's own key.
  const bool with_measured =
      std::any_of(kernels.begin(), kernels.end(), [](const auto& k) { return k.measured_ms.has_value(); });
  const double key_left = layout.right + 0.015, row = gnuplot::text_height(9) / kHeight;
  const double list_bottom = kKeyBottom + key_height(key_rows) / kHeight + row;
  const auto rows_available = static_cast<size_t>(std::max(0.0, (kTop - list_bottom) / row));
  const size_t shown = std::min({kernels.size(), kMaxKeyEntries, rows_available > 2 ? rows_available - 2 : 0});
  std::vector<std::string> names;
  for (size_t i = 0; i < shown; ++i) names.push_back(kernels[i].name);
  const std::vector<std::string> labels = gnuplot::distinct_short_names(names, kKeyNameWidth);
  const double step = std::min(0.032, (kTop - list_bottom) / static_cast<double>(shown + 2));
  script += "# Numbered key of the kernels (right margin): number, name, type, bound, predicted time, share.\n";
  script += fmt::format("set label {} at screen {:.3f}, {:.3f} left font ',10'\n",
                        quoted(any_measured
                                   ? fmt::format("Kernels ({} model): filled = predicted, hollow = measured", model)
                                   : fmt::format("Kernels as the {} model predicts them (size = share of time)", model)),
                        key_left, kTop + 0.03);
  script += fmt::format("set label {} at screen {:.3f}, {:.3f} left font 'Monospace,9'\n",
                        quoted(kernel_key_header(with_measured)), key_left, kTop - step * 0.5);
  for (size_t i = 0; i < shown; ++i) {
    const auto& k = kernels[i];
    script += fmt::format("set label {} at screen {:.3f}, {:.3f} left font 'Monospace,9' textcolor rgb '{}'\n",
                          quoted(kernel_key_text(k, labels[i], with_measured)), key_left,
                          kTop - step * (static_cast<double>(i) + 1.5), chart_style::color_of(k.type));
  }
  const bool any_off_chart = std::any_of(kernels.begin(), kernels.end(), [](const auto& k) { return !k.drawable; });
  std::string more;
  if (kernels.size() > shown || left_out > 0)
    more = left_out == 0 ? fmt::format("... and {} more kernels (all are in the data file)", kernels.size() - shown)
                         : fmt::format("... {} more in the data file; {} lighter kernels not drawn",
                                       kernels.size() - shown, left_out);
  if (any_off_chart) more += std::string(more.empty() ? "" : "; ") + "* = off the chart, not drawn";
  if (!more.empty())
    script += fmt::format("set label {} at screen {:.3f}, {:.3f} left font ',9'\n", quoted(more), key_left,
                          kTop - step * (static_cast<double>(shown) + 1.5));
  script += "\n";
  if (rows.empty()) return;

  const int block = data.add_block("kernels: number O_krn predicted_gops pointsize rgb measured_gops name", rows);
  if (any_measured)
    clauses.push_back(fmt::format("data index {} using 2:3:(0):($6-$3) with vectors nohead dashtype 2 lc rgb '#888888' "
                                  "notitle",
                                  block));
  clauses.push_back(fmt::format("data index {} using 2:3:4:5 with points pt 7 ps variable lc rgb variable notitle", block));
  if (any_measured)
    clauses.push_back(fmt::format(
        "data index {} using 2:6:4:5 with points pt 6 ps variable lw 1.5 lc rgb variable notitle", block));
  // Numbers beside the points, alternately above-right and below-left so that neighbours overlap less.
  clauses.push_back(fmt::format("data index {} using 2:3:(int($1) % 2 ? sprintf('%d', $1) : '') with labels offset "
                                "char 1.1,0.7 font ',9' notitle",
                                block));
  clauses.push_back(fmt::format("data index {} using 2:3:(int($1) % 2 ? '' : sprintf('%d', $1)) with labels offset "
                                "char -1.1,-0.7 font ',9' notitle",
                                block));
  // The key: one entry per kernel type present.
  for (const KernelType type : {KernelType::fp64, KernelType::fp32, KernelType::int32}) {
    if (std::none_of(kernels.begin(), kernels.end(), [&](const auto& k) { return k.type == type && k.drawable; }))
      continue;
    clauses.push_back(fmt::format("keyentry with points pt 7 ps 1.3 lc rgb '{}' title {}", chart_style::color_of(type),
                                  quoted(fmt::format("{} kernel, predicted", to_string(type)))));
  }
  if (any_measured)
    clauses.push_back("keyentry with points pt 6 ps 1.3 lw 1.5 lc rgb '#444444' title 'measured (same kernel)'");
}

}  // namespace

std::string RooflineCeiling::label() const { return fmt::format("{} {} {}", name, gnuplot::readable(value), unit); }

std::vector<RooflineCeiling> roofline_ceilings(const DeviceProfile& device) {
  using Kind = RooflineCeiling::Kind;
  const auto& t = device.throughput;
  std::vector<RooflineCeiling> ceilings{
      {Kind::compute, "fp64", t.fp64_gflops, "GFLOP/s"},
      {Kind::compute, "fp32", t.fp32_gflops, "GFLOP/s"},
      {Kind::compute, "int32 MAD", t.int32_mad_giops, "GIOP/s"},
      {Kind::bandwidth, "DRAM", t.dram_gbps, "GB/s"},
  };
  for (const auto& [key, value] : device.extra_throughput) {
    const auto peak = peak_key(key);
    if (!peak || !chartable(value * peak->scale)) continue;
    ceilings.push_back({peak->kind, peak->name, value * peak->scale, peak->unit});
  }
  return ceilings;
}

namespace {

// Kernel `number`'s point, from its prediction.
RooflineKernelPoint roofline_point_of(const KernelPrediction& p, int number) {
  RooflineKernelPoint k;
  k.number = number;
  k.name = p.kernel;
  k.type = p.parameters.type;
  k.bound = p.prediction.bound;
  // The throughput the model's time implies (the thesis model's T_predicted, as it computes it).
  const ThesisPrediction* thesis = p.prediction.thesis();
  k.O_krn = thesis ? thesis->O_krn : p.parameters.O_krn();
  k.predicted_gops = thesis ? thesis->T_predicted
                            : p.predicted_ms() > 0 ? p.parameters.W_comp / (p.predicted_ms() * 1e6) : 0;
  k.predicted_ms = p.predicted_ms();
  k.measured_ms = p.measured_ms;
  if (p.measured_ms && *p.measured_ms > 0) {
    const double measured_gops = p.parameters.W_comp / (*p.measured_ms * 1e6);
    if (chartable(measured_gops)) k.measured_gops = measured_gops;
  }
  k.drawable = chartable(k.O_krn) && chartable(k.predicted_gops);
  return k;
}

void set_time_shares(std::vector<RooflineKernelPoint>& points, double total_ms) {
  for (auto& k : points) k.time_share = total_ms > 0 ? k.predicted_ms / total_ms : 0;
}

}  // namespace

std::vector<RooflineKernelPoint> roofline_kernel_points(const DeviceProfile& device, const KernelProfile& profile,
                                                        const Predictor& predictor) {
  std::vector<RooflineKernelPoint> points;
  points.reserve(profile.kernels.size());
  const std::vector<DeviceTotal> totals = predict_profile(predictor, profile, {device}, nullptr, [&](KernelPrediction&& p) {
    require_finite_times(p);
    points.push_back(roofline_point_of(p, static_cast<int>(points.size()) + 1));
  });
  set_time_shares(points, totals.at(0).predicted_ms);
  return points;
}

std::vector<RooflineKernelPoint> roofline_kernel_points(const ProfilePrediction& prediction, size_t device_index) {
  const size_t device_count = prediction.totals.size();
  if (device_index >= device_count || prediction.kernels.size() % device_count != 0)
    throw std::invalid_argument("roofline_kernel_points: no such device in the prediction");
  std::vector<RooflineKernelPoint> points;
  points.reserve(prediction.kernels.size() / device_count);
  for (size_t i = device_index; i < prediction.kernels.size(); i += device_count) {
    require_finite_times(prediction.kernels[i]);
    points.push_back(roofline_point_of(prediction.kernels[i], static_cast<int>(points.size()) + 1));
  }
  set_time_shares(points, prediction.totals[device_index].predicted_ms);
  return points;
}

GnuplotChart roofline_chart(const DeviceProfile& device, const KernelProfile* profile, const std::string& profile_label,
                            const ChartTarget& target, const Predictor& predictor, size_t max_kernels) {
  std::optional<std::vector<RooflineKernelPoint>> points;
  if (profile) points = roofline_kernel_points(device, *profile, predictor);
  return roofline_chart(device, std::move(points), profile_label, target, predictor.name(), max_kernels);
}

GnuplotChart roofline_chart(const DeviceProfile& device, std::optional<std::vector<RooflineKernelPoint>> points,
                            const std::string& profile_label, const ChartTarget& target, const std::string& model,
                            size_t max_kernels) {
  const bool profile = points.has_value();
  const std::vector<RooflineCeiling> ceilings = roofline_ceilings(device);
  for (const auto& c : ceilings)
    if (!chartable(c.value))
      throw InputError(fmt::format("roofline of {}: the {} peak {} {} is outside what the chart can draw ({:g} to {:g})",
                                   device.name, c.name, c.value, c.unit, kChartMin, kChartMax));
  std::vector<RooflineKernelPoint> kernels;
  size_t left_out = 0;
  if (points) kernels = heaviest_points(std::move(*points), max_kernels, left_out);
  const bool with_measured =
      std::any_of(kernels.begin(), kernels.end(), [](const auto& k) { return k.measured_ms.has_value(); });
  const Layout layout = layout_for(ceilings, kernels, device.roofline_sweep,
                                   profile ? kernel_key_header(with_measured).size() : 0);

  GnuplotChart chart;
  chart.chart_file_name = target.chart_file_name;
  const std::string stem = target.chart_file_name.substr(0, target.chart_file_name.rfind('.'));
  chart.data_file_name = stem + ".dat";
  chart.script_file_name = stem + ".gp";

  DataFile data(fmt::format("Roofline of {}: the data of {}. Blocks are separated by two blank lines; "
                            "\"?\" = unknown.",
                            device.name, chart.script_file_name));
  const std::string title =
      profile ? fmt::format("Roofline of {}: kernels of {}", gnuplot::shortened(device.name, 30),
                            gnuplot::shortened(profile_label, 30))
              : fmt::format("Roofline of {}", device.name);
  std::string script = gnuplot::preamble(title, target, kWidth, kHeight);
  script += fmt::format(
      "data = {}\n"
      "set title {} font ',13'\n"
      "set logscale xy 10\n"
      "set xrange [{}:{}]\n"
      "set yrange [{}:{}]\n"
      "set xlabel 'Operational intensity (operations per DRAM byte)'\n"
      "set ylabel 'Performance (GFLOP/s; GIOP/s for integer)'\n"
      "set format x '%g'\n"
      "set format y '{}'\n"
      "set grid xtics ytics mxtics mytics lc rgb '#e4e4e4' lw 1, lc rgb '#f4f4f4' lw 1\n"
      "set lmargin at screen {}\nset rmargin at screen {}\nset bmargin at screen {}\nset tmargin at screen {}\n"

      "set datafile missing '?'\n\n",
      quoted(chart.data_file_name), quoted(title), number(layout.x.low), number(layout.x.high), number(layout.y.low),
      number(layout.y.high),
      layout.y.low >= 1 ? "%.0f" : "%g",  // %g would print 1e+06
      kLeft, layout.right, kBottom, kTop);

  std::vector<std::string> clauses;
  write_ceilings(data, script, clauses, ceilings, layout);

  // Measured mixbench curves, one block per precision.
  std::map<std::string, std::vector<const RooflinePoint*>> sweeps;
  for (const auto& p : device.roofline_sweep)
    if (chartable(p.ops_per_byte) && chartable(p.gops)) sweeps[p.precision].push_back(&p);
  for (auto& [precision, points] : sweeps) {
    std::sort(points.begin(), points.end(), [](auto* a, auto* b) { return a->ops_per_byte < b->ops_per_byte; });
    std::string rows;
    for (const auto* p : points)
      rows += fmt::format("{} {} {}\n", number(p->ops_per_byte), number(p->gops), number(p->iterations));
    const int block = data.add_block(fmt::format("measured {} sweep: ops_per_byte gops iterations", precision), rows);
    clauses.push_back(fmt::format("data index {} using 1:2 with linespoints pt 1 ps 0.7 lw 1.5 dashtype 3 lc rgb '{}' "
                                  "title {}",
                                  block, chart_style::color_of(precision),
                                  quoted(fmt::format("measured {} sweep (mixbench)", precision))));
  }

  // The plot's key: beside a profile's kernels, under their numbered key in the right margin;
  // alone, in the plot's bottom right, where no roof runs.
  size_t key_rows = sweeps.size();
  for (const KernelType type : {KernelType::fp64, KernelType::fp32, KernelType::int32})
    key_rows += std::any_of(kernels.begin(), kernels.end(), [&](const auto& k) { return k.type == type && k.drawable; });
  key_rows += std::any_of(kernels.begin(), kernels.end(), [](const auto& k) { return k.drawable && k.measured_gops; });
  script += profile ? fmt::format("set key at screen {:.3f}, {:.3f} left bottom Left reverse box opaque samplen 2 "
                                  "spacing 1.1 font ',10'\n",
                                  layout.right + 0.015, kKeyBottom)
                    : "set key bottom right box opaque samplen 2 spacing 1.1 font ',10'\n";
  if (profile) write_kernels(data, script, clauses, kernels, left_out, layout, key_rows, model);
  script += "# Roofs, then measured sweeps, then kernels.\n" + gnuplot::plot_command(clauses);
  chart.data = data.text();
  chart.script = std::move(script);
  return chart;
}

}  // namespace roofcast
