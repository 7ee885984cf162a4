#include "roofcast/plots/quadrant_chart.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "chart_style.hpp"
#include "gnuplot_text.hpp"
#include "kernel_labels.hpp"
#include "label_boxes.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/plots/chart_values.hpp"

namespace roofcast {

namespace {

using gnuplot::DataFile;
using gnuplot::number;
using gnuplot::quoted;
using gnuplot::readable;

constexpr int kWidth = 1200, kHeight = 650;
constexpr double kLeft = 0.08, kRight = 0.62, kBottom = 0.10, kTop = 0.90;

struct Point {
  double x, y;
};

// The part of the box (corners in order) on one side of the line y = slope x
// (Sutherland-Hodgman against one half-plane; the box edges are axis-parallel).
std::vector<Point> clip_box(const std::vector<Point>& box, double slope, bool above) {
  auto side = [&](Point p) {
    const double f = p.y - slope * p.x;
    const double tolerance = 1e-12 * std::max(std::abs(p.y), std::abs(slope * p.x));
    return above ? f >= -tolerance : f <= tolerance;
  };
  std::vector<Point> clipped;
  for (size_t i = 0; i < box.size(); ++i) {
    const Point a = box[i], b = box[(i + 1) % box.size()];
    if (side(a)) clipped.push_back(a);
    if (side(a) != side(b)) clipped.push_back(a.x == b.x ? Point{a.x, slope * a.x} : Point{a.y / slope, a.y});
  }
  return clipped;
}

std::string rows_of(const std::vector<Point>& points) {
  std::string rows;
  for (const auto& p : points) rows += fmt::format("{} {}\n", number(p.x), number(p.y));
  return rows;
}

// Every value of a device's point is written to the data file: it must be finite.
void require_finite(const QuadrantDevicePoint& p, const std::string& kernel) {
  for (const auto& [what, value] : {std::pair<const char*, double>{"B_mem", p.bandwidth},
                                    {"T_op", p.T_op},
                                    {"T'_op", p.T_op_adjusted},
                                    {"the point on the kernel's line", p.line_x},
                                    {"the point on the kernel's line", p.line_y},
                                    {"the predicted time", p.predicted_ms}})
    if (!std::isfinite(value) || value < 0)
      throw InputError(fmt::format("quadrant chart: kernel {} on {}: {} is not a finite number >= 0 ({}): a counter "
                                   "or throughput is near the limit of double precision",
                                   kernel, p.device, what, value));
}

}  // namespace

std::vector<QuadrantDevicePoint> quadrant_points(const KernelRecord& kernel, const std::vector<DeviceProfile>& devices,
                                                 const Predictor& predictor) {
  const KernelParameters parameters = kernel_parameters_of(kernel);
  std::vector<QuadrantDevicePoint> points;
  for (const auto& device : devices) {
    const ThesisPrediction p = predict_thesis(parameters, device.throughput);
    QuadrantDevicePoint point;
    point.device = device.name;
    point.bandwidth = device.throughput.dram_gbps;
    point.T_op = p.T_op;
    point.T_op_adjusted = p.T_op_adjusted;
    const ModelPrediction model = predictor.predict(kernel, device);
    point.bound = model.bound;
    point.predicted_ms = model.predicted_ms;
    if (model.thesis()) {
      point.line_y = p.T_predicted;
      // Memory bound: all the bandwidth, at O_krn x B_mem. Compute bound: T'_op, using only the bandwidth it needs.
      point.line_x = p.bound == Bound::memory                ? point.bandwidth
                     : std::isfinite(p.O_krn) && p.O_krn > 0 ? p.T_op_adjusted / p.O_krn
                                                             : 0;
    } else {
      // Another model's time: the throughput it implies, and the bandwidth that throughput uses.
      point.line_y = model.predicted_ms > 0 ? parameters.W_comp / (model.predicted_ms * 1e6) : 0;
      point.line_x = std::isfinite(p.O_krn) && p.O_krn > 0 ? point.line_y / p.O_krn : 0;
    }
    points.push_back(std::move(point));
  }
  return points;
}

GnuplotChart quadrant_chart(const KernelRecord& kernel, const std::vector<DeviceProfile>& devices,
                            const ChartTarget& target, const Predictor& predictor, QuadrantScale scale) {
  const KernelParameters parameters = kernel_parameters_of(kernel);
  const double O_krn = parameters.O_krn();
  // A line far beyond the axes' reach (O_krn near 0 or the double range) is not drawn.
  const bool has_line = chartable(O_krn);
  const std::vector<QuadrantDevicePoint> points = quadrant_points(kernel, devices, predictor);
  for (const auto& p : points) require_finite(p, kernel.name);
  const std::string unit = parameters.type == KernelType::int32 ? "GIOP/s" : "GFLOP/s";
  const std::string type(to_string(parameters.type));
  const bool log = scale == QuadrantScale::log;

  // Axis ranges around every point drawn (points a log axis cannot show lie outside them).
  double x_low = INFINITY, x_high = 0, y_low = INFINITY, y_high = 0;
  for (const auto& p : points) {
    for (double x : {p.bandwidth, p.line_x})
      if (chartable(x)) x_low = std::min(x_low, x), x_high = std::max(x_high, x);
    for (double y : {p.T_op, p.T_op_adjusted, p.line_y})
      if (chartable(y)) y_low = std::min(y_low, y), y_high = std::max(y_high, y);
  }
  if (points.empty() || x_high <= 0 || y_high <= 0) x_low = 1, x_high = 10, y_low = 1, y_high = 10;
  if (log) {
    x_low /= 1.4, x_high *= 1.4, y_low /= 1.6, y_high *= 1.6;
  } else {
    x_low = 0, y_low = 0, x_high *= 1.12, y_high *= 1.12;
  }

  GnuplotChart chart;
  chart.chart_file_name = target.chart_file_name;
  const std::string stem = target.chart_file_name.substr(0, target.chart_file_name.rfind('.'));
  chart.data_file_name = stem + ".dat";
  chart.script_file_name = stem + ".gp";
  std::string intensity = "no DRAM traffic";
  if (has_line) intensity = fmt::format("O_krn = {} ops/byte", readable(O_krn));
  else if (std::isfinite(O_krn)) intensity = fmt::format("O_krn = {:.3g} ops/byte, beyond the axes", O_krn);
  DataFile data(fmt::format("Quadrant-split chart of kernel {} ({}, {}): the data of {}.", kernel.name, type, intensity,
                            chart.script_file_name));

  // The kernel's line and the two regions it splits the plot into.
  const std::vector<Point> box{{x_low, y_low}, {x_high, y_low}, {x_high, y_high}, {x_low, y_high}};
  std::vector<std::string> clauses;
  if (has_line) {
    const double from = std::max(x_low, y_low / O_krn), to = std::min(x_high, y_high / O_krn);
    const int memory_block =
        data.add_block("memory-bound region (above the kernel's line): x y", rows_of(clip_box(box, O_krn, true)));
    const int compute_block =
        data.add_block("compute-bound region (below the kernel's line): x y", rows_of(clip_box(box, O_krn, false)));
    const int line_block = data.add_block("the kernel's line y = O_krn x: x y",
                                          rows_of({{from, O_krn * from}, {to, O_krn * to}}));
    clauses.push_back(fmt::format("data index {} using 1:2 with filledcurves closed lc rgb '{}' title 'memory-bound region'",
                                  memory_block, chart_style::memory_region));
    clauses.push_back(fmt::format(
        "data index {} using 1:2 with filledcurves closed lc rgb '{}' title 'compute-bound region'", compute_block,
        chart_style::compute_region));
    clauses.push_back(fmt::format("data index {} using 1:2 with lines lw 2.5 lc rgb '#000000' title {}", line_block,
                                  quoted(fmt::format("kernel: y = {} x (O_krn)", readable(O_krn)))));
  }

  // The key's device rows, and the plot's right edge that leaves them room on the canvas.
  std::vector<std::string> device_names;
  for (const auto& p : points) device_names.push_back(p.device);
  const std::vector<std::string> short_devices = gnuplot::distinct_short_names(device_names, 32, false);
  std::vector<std::string> entries;
  double widest_entry = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    entries.push_back(fmt::format("{}: {} -> {} -> {}, {}, {} ms", short_devices[i], readable(p.T_op),
                                  readable(p.T_op_adjusted), readable(p.line_y), to_string(p.bound),
                                  gnuplot::milliseconds(p.predicted_ms)));
    widest_entry = std::max(widest_entry, gnuplot::text_width(entries.back(), 10));
  }
  const double right = std::clamp(1 - (widest_entry + 90) / kWidth - 0.02, 0.45, kRight);

  std::string device_rows;
  for (size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    device_rows += fmt::format("{} {} {} {} {} {} {} {} {}\n", number(p.bandwidth), number(p.T_op),
                               number(p.T_op_adjusted), number(p.line_x), number(p.line_y), number(p.predicted_ms),
                               to_string(p.bound), chart_style::rgb_value(chart_style::palette(i)),
                               gnuplot::data_column(p.device));
  }
  const int device_block = data.add_block(
      "devices: B_mem T_op T_op_adjusted line_x line_y predicted_ms bound rgb name", device_rows);

  // The title, centred on the canvas, stays on it: the kernel's name is shortened to fit.
  const std::string title_rest = fmt::format(" ({}, {})", type, intensity);
  const double title_room = (kWidth - 20) / gnuplot::text_width("x", 14);
  const auto name_width = static_cast<size_t>(std::max(12.0, title_room - 25 - static_cast<double>(title_rest.size())));
  const std::string title = fmt::format("Quadrant split of kernel {}{}",
                                        gnuplot::distinct_short_names({kernel.name}, name_width).front(), title_rest);
  std::string script = gnuplot::preamble(title, target, kWidth, kHeight);
  script += fmt::format(
      "data = {}\n"
      "set label {} at screen 0.5, 0.95 center font ',14'\n"
      "{}"
      "set xrange [{}:{}]\n"
      "set yrange [{}:{}]\n"
      "set xlabel 'Memory bandwidth B_mem (GB/s)'\n"
      "set ylabel {}\n"
      "set grid lc rgb '#e4e4e4'\n"
      "set lmargin at screen {}\nset rmargin at screen {}\nset bmargin at screen {}\nset tmargin at screen {}\n"
      "set key at screen {}, {} left top Left reverse box opaque samplen 1.2 spacing 1.3 font ',10'\n"
      "set style fill solid 1.0 noborder\n\n",
      quoted(chart.data_file_name), quoted(title),
      log ? fmt::format("set logscale xy 10\nset xtics {}\nset ytics {}\n", gnuplot::log_tics(x_low, x_high),
                        gnuplot::log_tics(y_low, y_high))
          : "",
      number(x_low), number(x_high), number(y_low), number(y_high),
      quoted(fmt::format("Compute throughput T_op ({} {})", type, unit)), kLeft, right, kBottom, kTop, right + 0.02,
      kTop);
  if (has_line) {
    script += "set label 'memory bound (above the line)' at graph 0.02, 0.96 left front textcolor rgb '#a0522d' "
              "font ',11'\n";
    script += "set label 'compute bound (below the line)' at graph 0.98, 0.04 right front textcolor rgb '#1f5f8b' "
              "font ',11'\n";
  } else if (!std::isfinite(O_krn)) {
    script += "set label 'The kernel moves no DRAM bytes: compute bound on every device (predicted: T''_op)' at graph "
              "0.02, 0.96 left front font ',11'\n";
  } else {
    script += "set label 'The kernel''s line lies beyond the axes (O_krn near 0 or near the double range): not drawn' "
              "at graph 0.02, 0.96 left front font ',11'\n";
  }
  script += "\n";

  const std::string d = fmt::format("data index {}", device_block);
  // T_op -> T'_op (dashed), T'_op -> the kernel's line (solid arrow), then the three points.
  clauses.push_back(d + " using 1:2:(0):($3-$2):8 with vectors nohead dashtype 2 lw 1.3 lc rgb variable notitle");
  clauses.push_back(d + " using 1:3:($4-$1):($5-$3):8 with vectors head size screen 0.010,25 filled lw 2 lc rgb "
                        "variable notitle");
  clauses.push_back(d + " using 1:3:8 with points pt 6 ps 1.6 lw 1.5 lc rgb variable title 'T''_op = E_mix x E_instr x T_op'");
  clauses.push_back(d + " using 4:5:8 with points pt 13 ps 2 lc rgb variable title 'predicted: on the kernel''s line'");
  clauses.push_back("keyentry with lines lw 0 lc rgb '#ffffff' title ' '");
  clauses.push_back(
      fmt::format("keyentry with lines lw 0 lc rgb '#ffffff' title {}", quoted(fmt::format("T_op -> T'_op -> predicted ({})", unit))));
  // Each device is its own plot element: its key entry and its SVG <title> carry its name.
  for (size_t i = 0; i < points.size(); ++i) {
    clauses.push_back(fmt::format("{} every ::{}::{} using 1:2 with points pt 7 ps 1.8 lc rgb '{}' title {}", d, i, i,
                                  chart_style::palette(i), quoted(entries[i])));
  }
  // Each device's name beside its T_op point, where it covers no other name: right of the point,
  // else left of it, a little up or down; a name with no room is left to the key.
  const gnuplot::Box area{kLeft * kWidth, right * kWidth, (1 - kTop) * kHeight, (1 - kBottom) * kHeight};
  const auto fraction = [log](double value, double low, double high) {
    return log ? std::log10(value / low) / std::log10(high / low) : (value - low) / (high - low);
  };
  gnuplot::LabelBoxes names(area);
  for (size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    if (!chartable(p.bandwidth) || !chartable(p.T_op)) continue;
    const double x = area.left + (area.right - area.left) * fraction(p.bandwidth, x_low, x_high);
    const double y = area.bottom - (area.bottom - area.top) * fraction(p.T_op, y_low, y_high);
    names.block({x - 6, x + 6, y - 6, y + 6});
  }
  for (size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    if (!chartable(p.bandwidth) || !chartable(p.T_op)) continue;
    const double x = area.left + (area.right - area.left) * fraction(p.bandwidth, x_low, x_high);
    const double y = area.bottom - (area.bottom - area.top) * fraction(p.T_op, y_low, y_high);
    const double width = gnuplot::text_width(short_devices[i], 10), height = gnuplot::text_height(10);
    std::vector<gnuplot::Box> candidates;
    for (const double dy : {-0.6, 0.6, -1.6, 1.6, -2.6, 2.6}) {
      candidates.push_back({x + 9, x + 9 + width, y + dy * height - height / 2, y + dy * height + height / 2});
      candidates.push_back({x - 9 - width, x - 9, y + dy * height - height / 2, y + dy * height + height / 2});
    }
    const auto box = names.place(candidates);
    if (!box) continue;
    script += fmt::format("set label {} at screen {:.4f}, {:.4f} left front font ',10'\n", quoted(short_devices[i]),
                          box->left / kWidth, 1 - (box->top + box->bottom) / 2 / kHeight);
  }
  script += "set tics front\n";
  script += gnuplot::plot_command(clauses);
  chart.data = data.text();
  chart.script = std::move(script);
  return chart;
}

}  // namespace roofcast
