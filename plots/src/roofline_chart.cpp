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
#include "roofline_labels.hpp"
#include "roofline_layout.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/model/kernel_work.hpp"
#include "roofcast/model/profile_prediction.hpp"
#include "roofcast/plots/chart_values.hpp"

namespace roofcast {

namespace {

using gnuplot::number;
using gnuplot::quoted;
using gnuplot::DataFile;

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

// The kernels' key: a row per kernel (monospace), then the plot's own key under it.
constexpr size_t kMaxKeyEntries = 34;
constexpr size_t kMinKeyNameWidth = 6, kMaxKeyNameWidth = 34;  // the names' column, in characters
constexpr double kKeyBottom = 0.03;  // the plot's own key, from the canvas' bottom

// Ceilings: the segments of each roof and the plot clauses that draw them; the lines' room in the plot.
void write_ceilings(DataFile& data, std::vector<std::string>& clauses, const std::vector<RooflineCeiling>& ceilings,
                    roofline::PlotRoom& room) {
  const roofline::Layout& layout = room.layout();
  double dram = 0, top_compute = 0;
  for (const auto& c : ceilings) {
    if (c.kind == RooflineCeiling::Kind::bandwidth && c.name == "DRAM") dram = c.value;
    if (c.kind == RooflineCeiling::Kind::compute) top_compute = std::max(top_compute, c.value);
  }
  std::string compute_rows, dram_rows, cache_rows;
  for (const auto& c : ceilings) {
    if (c.kind == RooflineCeiling::Kind::compute) {
      // A compute roof starts where the DRAM slope reaches it (its ridge point).
      compute_rows += fmt::format("{} {} {} {} {} {}\n", number(c.value / dram), number(c.value), number(layout.x.high),
                                  number(c.value), chart_style::rgb_value(chart_style::color_of(c.name)),
                                  gnuplot::data_column(c.label()));
      const double y = layout.y_pixel(c.value);
      room.block_line(std::max(layout.area.left, layout.x_pixel(c.value / dram)), y, layout.area.right, y);
      continue;
    }
    // A slope runs from the left edge up to the highest compute roof.
    (c.name == "DRAM" ? dram_rows : cache_rows) +=
        fmt::format("{} {} {} {} {}\n", number(layout.x.low), number(c.value * layout.x.low),
                    number(top_compute / c.value), number(top_compute), gnuplot::data_column(c.label()));
    room.block_line(layout.x_pixel(layout.x.low), layout.y_pixel(c.value * layout.x.low),
                    layout.x_pixel(top_compute / c.value), layout.y_pixel(top_compute));
  }
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
double legend_height(size_t rows) { return static_cast<double>(rows) * 1.1 * gnuplot::text_height(roofline::kLegendFont) + 12; }

// What the key calls a kernel's type: "copy" for one that only moves data (data_movement_only).
std::string_view type_text(const RooflineKernelPoint& k) { return k.data_movement_only ? "copy" : to_string(k.type); }
std::string_view type_color(const RooflineKernelPoint& k) {
  return k.data_movement_only ? chart_style::copy : chart_style::color_of(k.type);
}

// A row of the numbered key: `label` is the kernel's name, shortened to a string no other kernel
// of the key shares; a "*" before the number marks a kernel off the chart's range.
std::string kernel_key_text(const RooflineKernelPoint& k, const std::string& label, size_t name_width,
                            bool with_measured) {
  const std::string share = k.time_share < 0.005 ? "<1%" : fmt::format("{:.0f}%", k.time_share * 100);
  const std::string number = fmt::format("{}{}", k.drawable ? "" : "*", k.number);
  std::string text = fmt::format("{:>3} {:<{}} {:<4} {:<7} {:>9}", number, label, name_width, type_text(k),
                                 to_string(k.bound), gnuplot::milliseconds(k.predicted_ms));
  if (with_measured) text += fmt::format(" {:>9}", k.measured_ms ? gnuplot::milliseconds(*k.measured_ms) : "-");
  return text + fmt::format(" {:>4}", share);
}

std::string kernel_key_header(size_t name_width, bool with_measured) {
  std::string text = fmt::format("{:>3} {:<{}} {:<4} {:<7} {:>9}", "#", "kernel", name_width, "type", "bound",
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

// The kernels' key: which kernels it lists, their names as it shows them, and its width in pixels.
struct KernelKey {
  size_t shown = 0;
  std::vector<std::string> labels;
  size_t name_width = kMinKeyNameWidth;
  bool with_measured = false;
  double width = 0;
};

KernelKey kernel_key_for(const std::vector<RooflineKernelPoint>& kernels, const std::string& model) {
  KernelKey key;
  key.shown = std::min(kernels.size(), kMaxKeyEntries);
  std::vector<std::string> names;
  for (size_t i = 0; i < key.shown; ++i) names.push_back(kernels[i].name);
  key.labels = gnuplot::distinct_short_names(names, kMaxKeyNameWidth);
  for (const auto& label : key.labels) key.name_width = std::max(key.name_width, label.size());
  key.with_measured = std::any_of(kernels.begin(), kernels.end(), [](const auto& k) { return k.measured_ms.has_value(); });
  const std::string header = kernel_key_header(key.name_width, key.with_measured);
  const std::string title = fmt::format("Kernels as the {} model predicts them (size = share of time)", model);
  key.width = std::max(gnuplot::text_width(header, roofline::kKeyFont, true),
                       gnuplot::text_width(title, roofline::kLegendFont));
  return key;
}

void write_kernels(DataFile& data, std::string& script, std::vector<std::string>& clauses,
                   const std::vector<RooflineKernelPoint>& kernels, const KernelKey& key, size_t left_out,
                   roofline::PlotRoom& room, size_t legend_rows, const std::string& model) {
  const roofline::Layout& layout = room.layout();
  std::string rows;
  bool any_measured = false;
  for (const auto& k : kernels) {
    if (!k.drawable) continue;
    rows += fmt::format("{} {} {} {:.3f} {} {} {}\n", k.number, number(k.O_krn), number(k.predicted_gops),
                        roofline::marker_size(k), chart_style::rgb_value(type_color(k)),
                        k.measured_gops ? number(*k.measured_gops) : "?", gnuplot::data_column(k.name));
    any_measured = any_measured || k.measured_gops.has_value();
  }
  const roofline::KernelNumbers numbers = roofline::kernel_numbers(kernels, room);

  // The numbered key, right of the roofs' labels, coloured by kernel type, above the plot's own key.
  const double top = layout.area.top, row_height = gnuplot::text_height(roofline::kKeyFont);
  const double list_bottom = layout.height * (1 - kKeyBottom) - legend_height(legend_rows) - row_height;
  const auto rows_available = static_cast<size_t>(std::max(0.0, (list_bottom - top) / row_height));
  const size_t shown = std::min(key.shown, rows_available > 2 ? rows_available - 2 : 0);
  const double step = std::min(20.0, (list_bottom - top) / static_cast<double>(shown + 2));
  const auto at = [&](double y) { return layout.at_screen(layout.key_left, y); };
  script += "# Numbered key of the kernels (right margin): number, name, type, bound, predicted time, share.\n";
  script += fmt::format("set label {} {} left font ',{}'\n",
                        quoted(any_measured
                                   ? fmt::format("Kernels ({} model): filled = predicted, hollow = measured", model)
                                   : fmt::format("Kernels as the {} model predicts them (size = share of time)", model)),
                        at(top - 1.6 * row_height), roofline::kLegendFont);
  script += fmt::format("set label {} {} left font 'Monospace,{}'\n", quoted(kernel_key_header(key.name_width, key.with_measured)),
                        at(top), roofline::kKeyFont);
  for (size_t i = 0; i < shown; ++i) {
    const auto& k = kernels[i];
    script += fmt::format("set label {} {} left font 'Monospace,{}' textcolor rgb '{}'\n",
                          quoted(kernel_key_text(k, key.labels[i], key.name_width, key.with_measured)),
                          at(top + step * static_cast<double>(i + 1)), roofline::kKeyFont, type_color(k));
  }
  std::vector<std::string> notes;
  if (kernels.size() > shown)
    notes.push_back(fmt::format("{} more in the data file", kernels.size() - shown));
  if (left_out > 0) notes.push_back(fmt::format("{} lighter kernels not drawn", left_out));
  if (std::any_of(kernels.begin(), kernels.end(), [](const auto& k) { return !k.drawable; }))
    notes.push_back("* = off the chart, not drawn");
  if (!numbers.left_out.empty()) notes.push_back(fmt::format("no room for number {} beside its point",
                                                             fmt::join(numbers.left_out, ", ")));
  for (size_t i = 0; i < notes.size(); ++i)
    script += fmt::format("set label {} {} left font ',{}'\n", quoted((i == 0 ? "... " : "    ") + notes[i]),
                          at(top + step * static_cast<double>(shown + 1 + i)), roofline::kNumberFont);
  script += "\n# Each kernel's number beside its point.\n" + numbers.script + "\n";
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
  if (!numbers.leader_rows.empty()) {
    const int leaders = data.add_block("lines from kernel numbers to their points: x_from y_from x_to y_to",
                                       numbers.leader_rows);
    clauses.push_back(fmt::format("data index {} using 1:2:($3-$1):($4-$2) with vectors nohead lw 0.8 lc rgb '#888888' "
                                  "notitle",
                                  leaders));
  }
  // The key: one entry per kernel type present.
  for (const KernelType type : {KernelType::fp64, KernelType::fp32, KernelType::int32}) {
    if (std::none_of(kernels.begin(), kernels.end(),
                     [&](const auto& k) { return k.type == type && k.drawable && !k.data_movement_only; }))
      continue;
    clauses.push_back(fmt::format("keyentry with points pt 7 ps 1.3 lc rgb '{}' title {}", chart_style::color_of(type),
                                  quoted(fmt::format("{} kernel, predicted", to_string(type)))));
  }
  if (std::any_of(kernels.begin(), kernels.end(), [](const auto& k) { return k.drawable && k.data_movement_only; }))
    clauses.push_back(fmt::format("keyentry with points pt 7 ps 1.3 lc rgb '{}' title 'copy (no floating point, "
                                  "stores what it loads), predicted'",
                                  chart_style::copy));
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

// A kernel that copies: no floating point and no atomics, stores between a quarter and four times
// the bytes it loads (data in and out), and under 4 integer operations per DRAM byte (its
// addressing: integer algorithms such as hashes and sorts do 20-60). Known only from a profile
// that counts L2 traffic by direction.
bool copies_data(const KernelRecord& kernel, const KernelParameters& parameters) {
  if (parameters.type != KernelType::int32 || !(parameters.O_krn() < 4)) return false;
  const KernelWork work = kernel_work_of(kernel);
  const double loaded = work.l2_to_sm_bytes, stored = work.l2_store_bytes;
  return work.global_atomic_instructions == 0 && work.shared_atomic_instructions == 0 && loaded > 0 &&
         stored >= loaded / 4 && stored <= loaded * 4;
}

// Kernel `number`'s point, from its prediction.
RooflineKernelPoint roofline_point_of(const KernelPrediction& p, const KernelRecord& kernel, int number) {
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
  k.data_movement_only = copies_data(kernel, p.parameters);
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
    points.push_back(roofline_point_of(p, profile.kernels.at(points.size()), static_cast<int>(points.size()) + 1));
  });
  set_time_shares(points, totals.at(0).predicted_ms);
  return points;
}

std::vector<RooflineKernelPoint> roofline_kernel_points(const ProfilePrediction& prediction, const KernelProfile& profile,
                                                        size_t device_index) {
  const size_t device_count = prediction.totals.size();
  if (device_index >= device_count || prediction.kernels.size() != profile.kernels.size() * device_count)
    throw std::invalid_argument("roofline_kernel_points: no such device in the prediction");
  std::vector<RooflineKernelPoint> points;
  points.reserve(prediction.kernels.size() / device_count);
  for (size_t i = device_index; i < prediction.kernels.size(); i += device_count) {
    require_finite_times(prediction.kernels[i]);
    points.push_back(roofline_point_of(prediction.kernels[i], profile.kernels[i / device_count],
                                       static_cast<int>(points.size()) + 1));
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
  const KernelKey key = profile ? kernel_key_for(kernels, model) : KernelKey{};
  double roof_label_width = 0;
  for (const auto& c : ceilings)
    if (c.kind == RooflineCeiling::Kind::compute)
      roof_label_width = std::max(roof_label_width, gnuplot::text_width(c.label(), roofline::kRoofFont));
  const roofline::Layout layout = roofline::layout_for(ceilings, kernels, device.roofline_sweep, roof_label_width,
                                                       profile ? key.width : 0);
  roofline::PlotRoom room(layout);

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
  const auto width = static_cast<int>(layout.width), height = static_cast<int>(layout.height);
  std::string script = gnuplot::preamble(title, target, width, height);
  script += fmt::format(
      "data = {}\n"
      "set title {} font ',13'\n"
      "set logscale xy 10\n"
      "set xrange [{}:{}]\n"
      "set yrange [{}:{}]\n"
      "set xtics {}\nset ytics {}\nset mxtics 10\nset mytics 10\n"
      "set xlabel 'Operational intensity (operations per DRAM byte)'\n"
      "set ylabel 'Performance (GFLOP/s; GIOP/s for integer)'\n"
      "set grid xtics ytics mxtics mytics lc rgb '#e4e4e4' lw 1, lc rgb '#f4f4f4' lw 1\n"
      "set lmargin at screen {:.4f}\nset rmargin at screen {:.4f}\nset bmargin at screen {:.4f}\n"
      "set tmargin at screen {:.4f}\n"
      "set datafile missing '?'\n\n",
      quoted(chart.data_file_name), quoted(title), number(layout.x.low), number(layout.x.high), number(layout.y.low),
      number(layout.y.high), roofline::decade_tics(layout.x), roofline::decade_tics(layout.y),
      layout.area.left / layout.width, layout.area.right / layout.width, 1 - layout.area.bottom / layout.height,
      1 - layout.area.top / layout.height);

  std::vector<std::string> clauses;
  write_ceilings(data, clauses, ceilings, room);

  // Measured mixbench curves, one block per precision.
  std::map<std::string, std::vector<const RooflinePoint*>> sweeps;
  for (const auto& p : device.roofline_sweep)
    if (chartable(p.ops_per_byte) && chartable(p.gops)) sweeps[p.precision].push_back(&p);
  for (auto& [precision, sweep] : sweeps) {
    std::sort(sweep.begin(), sweep.end(), [](auto* a, auto* b) { return a->ops_per_byte < b->ops_per_byte; });
    std::string rows;
    for (const auto* p : sweep) {
      rows += fmt::format("{} {} {}\n", number(p->ops_per_byte), number(p->gops), number(p->iterations));
      room.block_point(layout.x_pixel(p->ops_per_byte), layout.y_pixel(p->gops), 3);
    }
    for (size_t i = 1; i < sweep.size(); ++i)
      room.block_line(layout.x_pixel(sweep[i - 1]->ops_per_byte), layout.y_pixel(sweep[i - 1]->gops),
                      layout.x_pixel(sweep[i]->ops_per_byte), layout.y_pixel(sweep[i]->gops));
    const int block = data.add_block(fmt::format("measured {} sweep: ops_per_byte gops iterations", precision), rows);
    clauses.push_back(fmt::format("data index {} using 1:2 with linespoints pt 1 ps 0.7 lw 1.5 dashtype 3 lc rgb '{}' "
                                  "title {}",
                                  block, chart_style::color_of(precision),
                                  quoted(fmt::format("measured {} sweep (mixbench)", precision))));
  }

  roofline::block_kernel_points(kernels, room);
  std::vector<std::string> unlabelled;
  script += "# Roofs' labels, beside their ends; slopes' labels along them.\n" +
            roofline::roof_label_column(ceilings, layout) + roofline::slope_labels(ceilings, room, unlabelled);
  // A label with no room is named in a note under the title (the data file lists every roof).
  if (!unlabelled.empty()) {
    const std::string note = fmt::format("No room to label: {}", fmt::join(unlabelled, "; "));
    const auto characters = static_cast<size_t>((layout.area.right - layout.area.left) / gnuplot::text_width("x", 9));
    script += fmt::format("set label {} {} left font ',9'\n", quoted(gnuplot::shortened(note, characters)),
                          layout.at_screen(layout.area.left, layout.area.top - gnuplot::text_height(9) / 2 - 2));
  }
  script += "\n";

  // The plot's key: beside a profile's kernels, under their numbered key in the right margin;
  // alone, in the plot's bottom right, where no roof runs.
  size_t legend_rows = sweeps.size();
  for (const KernelType type : {KernelType::fp64, KernelType::fp32, KernelType::int32})
    legend_rows += std::any_of(kernels.begin(), kernels.end(),
                               [&](const auto& k) { return k.type == type && k.drawable && !k.data_movement_only; });
  legend_rows += std::any_of(kernels.begin(), kernels.end(), [](const auto& k) { return k.drawable && k.data_movement_only; });
  legend_rows += std::any_of(kernels.begin(), kernels.end(), [](const auto& k) { return k.drawable && k.measured_gops; });
  script += profile ? fmt::format("set key {} left bottom Left reverse box opaque samplen 2 spacing 1.1 font ',{}'\n",
                                  layout.at_screen(layout.key_left, layout.height * (1 - kKeyBottom)), roofline::kLegendFont)
                    : fmt::format("set key bottom right box opaque samplen 2 spacing 1.1 font ',{}'\n", roofline::kLegendFont);
  if (profile) write_kernels(data, script, clauses, kernels, key, left_out, room, legend_rows, model);
  script += "# Roofs, then measured sweeps, then kernels.\n" + gnuplot::plot_command(clauses);
  chart.data = data.text();
  chart.script = std::move(script);
  return chart;
}

}  // namespace roofcast
