#include "roofline_layout.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "gnuplot_text.hpp"
#include "roofcast/plots/chart_values.hpp"

namespace roofcast::roofline {

namespace {

constexpr double kLeftMargin = 100;        // room for the y axis' label and tics
constexpr double kTopFraction = 0.10, kBottomFraction = 0.10;
constexpr double kPlotWidthWithKey = 620;  // the plot's width beside a kernels' key
constexpr double kCanvasWidthAlone = 1250;
constexpr double kLeader = 16;  // from a roof's end to its label

double decade_below(double value) { return std::pow(10.0, std::floor(std::log10(value))); }
double decade_above(double value) { return std::pow(10.0, std::ceil(std::log10(value))); }

}  // namespace

double AxisRange::decades() const { return std::log10(high / low); }

double Layout::x_pixel(double value) const {
  return area.left + (area.right - area.left) * std::log10(value / x.low) / x.decades();
}
double Layout::y_pixel(double value) const {
  return area.bottom - (area.bottom - area.top) * std::log10(value / y.low) / y.decades();
}
double Layout::x_value(double pixel) const {
  return x.low * std::pow(10.0, (pixel - area.left) / (area.right - area.left) * x.decades());
}
double Layout::y_value(double pixel) const {
  return y.low * std::pow(10.0, (area.bottom - pixel) / (area.bottom - area.top) * y.decades());
}
double Layout::slope_angle() const {
  return std::atan2((area.bottom - area.top) / y.decades(), (area.right - area.left) / x.decades());
}
std::string Layout::at_screen(double x_pixel, double y_pixel) const {
  return fmt::format("at screen {:.4f}, {:.4f}", x_pixel / width, 1 - y_pixel / height);
}

Layout layout_for(const std::vector<RooflineCeiling>& ceilings, const std::vector<RooflineKernelPoint>& kernels,
                  const std::vector<RooflinePoint>& sweep, double roof_label_width, double key_width) {
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
  // Left to right: the y axis, the plot, the roofs' labels, the kernels' key.
  const double labels = kLeader + roof_label_width + 12;
  layout.width = key_width > 0 ? std::ceil(kLeftMargin + kPlotWidthWithKey + labels + key_width + 8)
                               : kCanvasWidthAlone;
  layout.area = {kLeftMargin,
                 key_width > 0 ? kLeftMargin + kPlotWidthWithKey : kCanvasWidthAlone - labels,
                 kTopFraction * layout.height, (1 - kBottomFraction) * layout.height};
  layout.roof_labels_left = layout.area.right + kLeader;
  layout.key_left = layout.area.right + labels;
  return layout;
}

std::string decade_tics(const AxisRange& axis) {
  const int first = static_cast<int>(std::lround(std::log10(axis.low)));
  const int last = static_cast<int>(std::lround(std::log10(axis.high)));
  const bool plain = first >= -2 && last <= 3;
  std::string list;
  for (int exponent = first; exponent <= last; ++exponent) {
    const double value = std::pow(10.0, exponent);
    const std::string label = plain ? fmt::format("{:g}", value) : gnuplot::power_of_ten(exponent);
    // gnuplot drops a log axis' tic at exactly its lower end: that one is placed a hair inside.
    const std::string position =
        exponent == first ? fmt::format("{:.10g}", value * (1 + 1e-9)) : gnuplot::number(value);
    list += fmt::format("{}{} {}", list.empty() ? "" : ", ", gnuplot::quoted(label), position);
  }
  return "(" + list + ")";
}

}  // namespace roofcast::roofline
