#include "roofcast/plots/quadrant_chart.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

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
                                    {"T'", p.T_op_adjusted},
                                    {"B'", p.bandwidth_adjusted},
                                    {"where the arrow meets the kernel's line", p.landing_x},
                                    {"where the arrow meets the kernel's line", p.landing_y},
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
  const double O_krn = parameters.O_krn();
  const bool on_axes = std::isfinite(O_krn) && O_krn > 0;
  std::vector<QuadrantDevicePoint> points;
  for (const auto& device : devices) {
    const ThesisPrediction p = predict_thesis(parameters, device.throughput);
    QuadrantDevicePoint point;
    point.device = device.name;
    point.bandwidth = device.throughput.dram_gbps;
    point.T_op = p.T_op;
    const ModelPrediction model = predictor.predict(kernel, device);
    point.bound = model.bound;
    point.predicted_ms = model.predicted_ms;
    point.bandwidth_adjusted = point.bandwidth;
    point.T_op_adjusted = p.T_op_adjusted;
    if (const PipesPrediction* pipes = model.pipes()) {
      // The rates the pipes model's largest compute and memory costs leave the kernel.
      if (pipes->compute_ms > 0) point.T_op_adjusted = parameters.W_comp / (pipes->compute_ms * 1e6);
      if (pipes->memory_ms > 0) point.bandwidth_adjusted = parameters.W_traf / (pipes->memory_ms * 1e6);
    }
    // Memory bound: a drop to O_krn x B'. Compute bound: a move to T', using only the bandwidth it needs.
    if (point.bound == Bound::memory) {
      point.landing_x = point.bandwidth_adjusted;
      point.landing_y = on_axes ? O_krn * point.bandwidth_adjusted : point.T_op_adjusted;
    } else {
      point.landing_x = on_axes ? point.T_op_adjusted / O_krn : 0;
      point.landing_y = point.T_op_adjusted;
    }
    if (model.thesis()) {
      point.line_x = point.landing_x, point.line_y = point.landing_y;
    } else {
      // The throughput the model's time implies, and the bandwidth that throughput uses.
      point.line_y = model.predicted_ms > 0 ? parameters.W_comp / (model.predicted_ms * 1e6) : 0;
      point.line_x = on_axes ? point.line_y / O_krn : 0;
    }
    points.push_back(std::move(point));
  }
  return points;
}

std::string quadrant_caption(const std::string& model) {
  const bool thesis = model == "thesis";
  return fmt::format(
      "Each device at its measured (B_mem, T_op); hollow: {}; arrow: to the kernel's line, a vertical drop when the "
      "hollow point lies above the line (memory bound), a horizontal move when below (compute bound).{} The "
      "diamond's height is the throughput the {} model predicts.",
      thesis ? "(B_mem, T'_op), after the E_mix x E_instr adjustment"
             : "(B', T'), the kernel's DRAM bytes over its memory time and its operations over its compute time",
      thesis ? "" : " A dotted arrow along the line: the latency and launch time the model adds.", model);
}

namespace {

// A marker on the canvas: its centre in pixels, and which device and kind it is.
struct PlacedMarker {
  double x, y, radius;
  size_t device;
};

// Point sizes that keep markers drawn on top of each other visible: a marker that later ones
// (drawn over it) cover within a few pixels is drawn larger, a ring around them.
std::vector<double> sizes_showing_overlaps(const std::vector<std::pair<double, double>>& pixels, double size) {
  std::vector<double> sizes(pixels.size(), size);
  for (size_t i = 0; i < pixels.size(); ++i) {
    int later = 0;
    for (size_t j = i + 1; j < pixels.size(); ++j)
      later += std::hypot(pixels[i].first - pixels[j].first, pixels[i].second - pixels[j].second) < 4 * size;
    sizes[i] = size * (1 + 0.45 * later);
  }
  return sizes;
}

double distance_to_box(double x, double y, const gnuplot::Box& box) {
  const double dx = std::max({box.left - x, 0.0, x - box.right}), dy = std::max({box.top - y, 0.0, y - box.bottom});
  return std::hypot(dx, dy);
}

}  // namespace

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
  const bool thesis = predictor.name() == "thesis";

  // Axis ranges around every point drawn (points a log axis cannot show lie outside them).
  double x_low = INFINITY, x_high = 0, y_low = INFINITY, y_high = 0;
  for (const auto& p : points) {
    for (double x : {p.bandwidth, p.bandwidth_adjusted, p.landing_x, p.line_x})
      if (chartable(x)) x_low = std::min(x_low, x), x_high = std::max(x_high, x);
    for (double y : {p.T_op, p.T_op_adjusted, p.landing_y, p.line_y})
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

  // The key's device rows, and the plot's right edge that leaves them room on the canvas.
  std::vector<std::string> device_names;
  for (const auto& p : points) device_names.push_back(p.device);
  const std::vector<std::string> short_devices = gnuplot::distinct_short_names(device_names, 32, false);
  std::vector<std::string> entries;
  double widest_entry = gnuplot::text_width(fmt::format("T_op -> T' -> predicted ({}), bound, time", unit), 10);
  for (size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    entries.push_back(fmt::format("{}: {} -> {} -> {}, {}, {} ms", short_devices[i], readable(p.T_op),
                                  readable(p.T_op_adjusted), readable(p.line_y), to_string(p.bound),
                                  gnuplot::milliseconds(p.predicted_ms)));
    widest_entry = std::max(widest_entry, gnuplot::text_width(entries.back(), 10));
  }
  const double right = std::clamp(1 - (widest_entry + 60) / kWidth - 0.02, 0.45, kRight);
  const gnuplot::Box area{kLeft * kWidth, right * kWidth, (1 - kTop) * kHeight, (1 - kBottom) * kHeight};
  const auto fraction = [log](double value, double low, double high) {
    return log ? std::log10(value / low) / std::log10(high / low) : (value - low) / (high - low);
  };
  const auto x_pixel = [&](double x) { return area.left + (area.right - area.left) * fraction(x, x_low, x_high); };
  const auto y_pixel = [&](double y) { return area.bottom - (area.bottom - area.top) * fraction(y, y_low, y_high); };
  const auto shown = [&](double x, double y) { return chartable(x) && chartable(y) && x >= x_low && y >= y_low; };

  // The kernel's line and the two regions it splits the plot into.
  const std::vector<Point> box{{x_low, y_low}, {x_high, y_low}, {x_high, y_high}, {x_low, y_high}};
  std::vector<std::string> clauses;
  gnuplot::LabelBoxes room(area);
  const auto block_line = [&](double x0, double y0, double x1, double y1) {
    const int steps = std::max(1, static_cast<int>(std::hypot(x1 - x0, y1 - y0) / 3));
    for (int i = 0; i <= steps; ++i) {
      const double x = x0 + (x1 - x0) * i / steps, y = y0 + (y1 - y0) * i / steps;
      room.block({x - 2, x + 2, y - 2, y + 2});
    }
  };
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
    if (!log || from > 0) block_line(x_pixel(from), y_pixel(O_krn * from), x_pixel(to), y_pixel(O_krn * to));
  }

  // Markers' sizes: those drawn over others (later devices) leave the others a ring.
  std::vector<std::pair<double, double>> dots, hollows, diamonds;
  for (const auto& p : points) {
    dots.emplace_back(shown(p.bandwidth, p.T_op) ? x_pixel(p.bandwidth) : -1e9, shown(p.bandwidth, p.T_op) ? y_pixel(p.T_op) : -1e9);
    const bool hollow_shown = shown(p.bandwidth_adjusted, p.T_op_adjusted);
    hollows.emplace_back(hollow_shown ? x_pixel(p.bandwidth_adjusted) : -1e9, hollow_shown ? y_pixel(p.T_op_adjusted) : -1e9);
    diamonds.emplace_back(shown(p.line_x, p.line_y) ? x_pixel(p.line_x) : -1e9, shown(p.line_x, p.line_y) ? y_pixel(p.line_y) : -1e9);
  }
  const std::vector<double> dot_sizes = sizes_showing_overlaps(dots, 1.8), hollow_sizes = sizes_showing_overlaps(hollows, 1.6),
                            diamond_sizes = sizes_showing_overlaps(diamonds, 1.7);

  std::string device_rows;
  std::vector<PlacedMarker> markers;
  for (size_t i = 0; i < points.size(); ++i) {
    const auto& p = points[i];
    device_rows += fmt::format("{} {} {} {} {} {} {} {} {} {} {} {:.2f} {:.2f} {:.2f} {}\n", number(p.bandwidth),
                               number(p.T_op), number(p.bandwidth_adjusted), number(p.T_op_adjusted),
                               number(p.landing_x), number(p.landing_y), number(p.line_x), number(p.line_y),
                               number(p.predicted_ms), to_string(p.bound),
                               chart_style::rgb_value(chart_style::palette(i)), dot_sizes[i], hollow_sizes[i],
                               diamond_sizes[i], gnuplot::data_column(p.device));
    // What the device's labels must not cover: its markers and lines.
    for (const auto& [at, size] : {std::pair{dots[i], dot_sizes[i]}, {hollows[i], hollow_sizes[i]}, {diamonds[i], diamond_sizes[i] * 1.42}})
      if (at.first > -1e8) markers.push_back({at.first, at.second, 3.75 * size + 1, i});
    if (dots[i].first > -1e8 && hollows[i].first > -1e8) block_line(dots[i].first, dots[i].second, hollows[i].first, hollows[i].second);
    if (hollows[i].first > -1e8 && shown(p.landing_x, p.landing_y))
      block_line(hollows[i].first, hollows[i].second, x_pixel(p.landing_x), y_pixel(p.landing_y));
  }
  for (const auto& m : markers) room.block({m.x - m.radius, m.x + m.radius, m.y - m.radius, m.y + m.radius});
  const int device_block = data.add_block(
      "devices: B_mem T_op B' T' landing_x landing_y predicted_x predicted_y predicted_ms bound rgb dot_size "
      "hollow_size diamond_size name",
      device_rows);

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
  // The regions' names, in corners the kernel's line leaves to them (the line runs from the
  // bottom left to the top right).
  const double region_font = 11, region_height = gnuplot::text_height(region_font);
  const auto place_corner = [&](const std::string& text, bool top_left) -> std::optional<gnuplot::Box> {
    const double width = gnuplot::text_width(text, region_font);
    std::vector<gnuplot::Box> candidates;
    for (double shift = 0; shift < 200; shift += region_height)
      candidates.push_back(top_left ? gnuplot::Box{area.left + 8, area.left + 8 + width, area.top + 6 + shift,
                                                   area.top + 6 + shift + region_height}
                                    : gnuplot::Box{area.right - 8 - width, area.right - 8,
                                                   area.bottom - 6 - region_height - shift, area.bottom - 6 - shift});
    return room.place(candidates);
  };
  const auto region_label = [&](const std::string& text, bool top_left, std::string_view color) {
    const auto box = place_corner(text, top_left);
    if (!box) return std::string();
    return fmt::format("set label {} at screen {:.4f}, {:.4f} left front textcolor rgb '{}' font ',{}'\n", quoted(text),
                       box->left / kWidth, 1 - (box->top + box->bottom) / 2 / kHeight, color, region_font);
  };
  if (has_line) {
    script += region_label("memory bound (above the line)", true, "#a0522d");
    script += region_label("compute bound (below the line)", false, "#1f5f8b");
  } else if (!std::isfinite(O_krn)) {
    script += region_label("The kernel moves no DRAM bytes: compute bound on every device", true, "#000000");
  } else {
    script += region_label("The kernel's line lies beyond the axes (O_krn near 0 or near the double range): not drawn",
                           true, "#000000");
  }
  script += "\n";

  const std::string d = fmt::format("data index {}", device_block);
  // T_op -> (B', T') (dashed), then the drop or move to the kernel's line (arrow), then along the
  // line to the prediction (dotted arrow, where the model adds latency or launch time), then the points.
  clauses.push_back(d + " using 1:2:($3-$1):($4-$2):11 with vectors nohead dashtype 2 lw 1.3 lc rgb variable notitle");
  clauses.push_back(d + " using 3:4:($5-$3):($6-$4):11 with vectors head size screen 0.010,25 filled lw 2 lc rgb "
                        "variable notitle");
  if (!thesis)
    clauses.push_back(d + " using 5:6:($7-$5):($8-$6):11 with vectors head size screen 0.008,25 filled lw 1.5 "
                          "dashtype 3 lc rgb variable notitle");
  clauses.push_back(d + fmt::format(" using 3:4:13:11 with points pt 6 ps variable lw 1.5 lc rgb variable title {}",
                                    quoted(thesis ? "T'_op = E_mix x E_instr x T_op"
                                                  : "(B', T') = (DRAM bytes, ops) / (memory, compute) time")));
  clauses.push_back(d + " using 7:8:14:11 with points pt 13 ps variable lc rgb variable title 'predicted: on the kernel''s line'");
  clauses.push_back("keyentry with lines lw 0 lc rgb '#ffffff' title ' '");
  clauses.push_back(fmt::format("keyentry with lines lw 0 lc rgb '#ffffff' title {}",
                                quoted(fmt::format("T_op -> T' -> predicted ({}), bound, time", unit))));
  // Each device is its own plot element: its key entry and its SVG <title> carry its name.
  for (size_t i = 0; i < points.size(); ++i) {
    clauses.push_back(fmt::format("{} every ::{}::{} using 1:2:12 with points pt 7 ps variable lc rgb '{}' title {}", d,
                                  i, i, chart_style::palette(i), quoted(entries[i])));
  }
  // Each device's name beside its T_op point, nearer to it than to any other device's marker,
  // covering no marker, line or other name; a name with no room is left to the key.
  for (size_t i = 0; i < points.size(); ++i) {
    if (dots[i].first < -1e8) continue;
    const auto [x, y] = dots[i];
    const double radius = 3.75 * dot_sizes[i] + 2;
    const double width = gnuplot::text_width(short_devices[i], 10), height = gnuplot::text_height(10);
    std::vector<gnuplot::Box> candidates;
    for (const double dy : {0.0, -0.6, 0.6, -1.2, 1.2, -2.0, 2.0})
      for (const double side : {1.0, -1.0}) {
        const double left = side > 0 ? x + radius : x - radius - width;
        const gnuplot::Box box{left, left + width, y + dy * height - height / 2, y + dy * height + height / 2};
        const double own = distance_to_box(x, y, box);
        const bool nearest = std::none_of(markers.begin(), markers.end(), [&](const PlacedMarker& m) {
          return m.device != i && distance_to_box(m.x, m.y, box) <= own + 2;
        });
        if (nearest) candidates.push_back(box);
      }
    const auto box = room.place(candidates);
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
