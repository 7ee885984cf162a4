#include "roofcast/plots/roofline_chart.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

#include <fmt/format.h>

#include "chart_style.hpp"
#include "gnuplot_text.hpp"
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
constexpr double kRightWithKey = 0.62, kRightAlone = 0.96;
constexpr size_t kMaxKeyEntries = 34;

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
};

Layout layout_for(const std::vector<RooflineCeiling>& ceilings, const std::vector<RooflineKernelPoint>& kernels,
                  const std::vector<RooflinePoint>& sweep, bool with_key) {
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
  layout.right = with_key ? kRightWithKey : kRightAlone;
  const double width = kWidth * (layout.right - kLeft) / layout.x.decades();
  const double height = kHeight * (kTop - kBottom) / layout.y.decades();
  layout.slope_angle_degrees = std::atan2(height, width) * 180 / std::numbers::pi;
  return layout;
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
  for (size_t i = 0; i < compute.size(); ++i) {
    const auto& c = *compute[i];
    // A compute roof starts where the DRAM slope reaches it (its ridge point).
    compute_rows += fmt::format("{} {} {} {} {} {}\n", number(c.value / dram), number(c.value), number(layout.x.high),
                                number(c.value), chart_style::rgb_value(chart_style::color_of(c.name)),
                                gnuplot::data_column(c.label()));
    // A label goes above its line, or below it when the next ceiling up is too close.
    const bool crowded_above = i > 0 && compute[i - 1]->value / c.value < 1.6;
    labels += fmt::format("set label {} at {}, {} right offset -0.5,{} textcolor rgb '{}' font ',11'\n",
                          quoted(c.label()), number(layout.x.high), number(c.value), crowded_above ? "-0.9" : "0.7",
                          chart_style::color_of(c.name));
  }
  for (const auto& c : ceilings) {
    if (c.kind != RooflineCeiling::Kind::bandwidth) continue;
    // A slope runs from the left edge up to the highest compute roof.
    (c.name == "DRAM" ? dram_rows : cache_rows) +=
        fmt::format("{} {} {} {} {}\n", number(layout.x.low), number(c.value * layout.x.low),
                    number(top_compute / c.value), number(top_compute), gnuplot::data_column(c.label()));
    // The label lies along the slope, near its lower end but inside the plot.
    double x = layout.x.low * std::pow(10.0, 0.05 * layout.x.decades());
    const double y_floor = layout.y.low * std::pow(10.0, 0.06 * layout.y.decades());
    if (c.value * x < y_floor) x = y_floor / c.value;
    labels += fmt::format("set label {} at {}, {} left rotate by {:.1f} offset -0.6,0.9 textcolor rgb '{}' font ',11'\n",
                          quoted(c.label()), number(x), number(c.value * x), layout.slope_angle_degrees,
                          c.name == "DRAM" ? "#000000" : "#666666");
  }
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

std::string kernel_key_text(const RooflineKernelPoint& k) {
  const std::string share = k.time_share < 0.005 ? "<1" : fmt::format("{:.0f}", k.time_share * 100);
  std::string text = fmt::format("{:>2} {:<16} {:<4} {:<7} {:>8} ms {:>3} %", k.number, gnuplot::shortened(k.name, 16),
                                 to_string(k.type), to_string(k.bound), gnuplot::milliseconds(k.predicted_ms), share);
  if (k.measured_ms) text += fmt::format(" (measured {})", gnuplot::milliseconds(*k.measured_ms));
  if (!k.drawable) text += " (not drawn)";
  return text;
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
                   const std::string& model) {
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

  // The numbered key, in the right margin, coloured by kernel type.
  const double key_left = layout.right + 0.015;
  const size_t shown = std::min(kernels.size(), kMaxKeyEntries);
  const double step = std::min(0.032, (kTop - kBottom + 0.05) / static_cast<double>(shown + 1));
  script += "# Numbered key of the kernels (right margin): number, name, type, bound, predicted time, share.\n";
  script += fmt::format("set label {} at screen {:.3f}, {:.3f} left font ',10'\n",
                        quoted(any_measured
                                   ? fmt::format("Kernels ({} model): filled = predicted, hollow = measured", model)
                                   : fmt::format("Kernels as the {} model predicts them (size = share of time)", model)),
                        key_left, kTop + 0.03);
  for (size_t i = 0; i < shown; ++i) {
    const auto& k = kernels[i];
    script += fmt::format("set label {} at screen {:.3f}, {:.3f} left font 'Monospace,9' textcolor rgb '{}'\n",
                          quoted(kernel_key_text(k)), key_left, kTop - step * (static_cast<double>(i) + 0.5),
                          chart_style::color_of(k.type));
  }
  if (kernels.size() > shown || left_out > 0)
    script += fmt::format(
        "set label {} at screen {:.3f}, {:.3f} left font ',9'\n",
        quoted(left_out == 0
                   ? fmt::format("... and {} more kernels (all are in the data file)", kernels.size() - shown)
                   : fmt::format("... {} more in the data file; {} lighter kernels not drawn", kernels.size() - shown,
                                 left_out)),
        key_left, kTop - step * (static_cast<double>(shown) + 0.5));
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

std::vector<RooflineKernelPoint> roofline_kernel_points(const DeviceProfile& device, const KernelProfile& profile,
                                                        const Predictor& predictor) {
  std::vector<RooflineKernelPoint> points;
  points.reserve(profile.kernels.size());
  const std::vector<DeviceTotal> totals = predict_profile(predictor, profile, {device}, nullptr, [&](KernelPrediction&& p) {
    require_finite_times(p);
    RooflineKernelPoint k;
    k.number = static_cast<int>(points.size()) + 1;
    k.name = std::move(p.kernel);
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
    points.push_back(std::move(k));
  });
  const double total_ms = totals.at(0).predicted_ms;
  for (auto& k : points) k.time_share = total_ms > 0 ? k.predicted_ms / total_ms : 0;
  return points;
}

GnuplotChart roofline_chart(const DeviceProfile& device, const KernelProfile* profile, const std::string& profile_label,
                            const ChartTarget& target, const Predictor& predictor, size_t max_kernels) {
  const std::vector<RooflineCeiling> ceilings = roofline_ceilings(device);
  for (const auto& c : ceilings)
    if (!chartable(c.value))
      throw InputError(fmt::format("roofline of {}: the {} peak {} {} is outside what the chart can draw ({:g} to {:g})",
                                   device.name, c.name, c.value, c.unit, kChartMin, kChartMax));
  std::vector<RooflineKernelPoint> kernels;
  size_t left_out = 0;
  if (profile) kernels = heaviest_points(roofline_kernel_points(device, *profile, predictor), max_kernels, left_out);
  const Layout layout = layout_for(ceilings, kernels, device.roofline_sweep, profile != nullptr);

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
      "set key top left box opaque samplen 2 spacing 1.1 font ',10'\n"
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

  if (profile) write_kernels(data, script, clauses, kernels, left_out, layout, predictor.name());
  script += "# Roofs, then measured sweeps, then kernels.\n" + gnuplot::plot_command(clauses);
  chart.data = data.text();
  chart.script = std::move(script);
  return chart;
}

}  // namespace roofcast
