#pragma once

// Where the roofline chart's parts go on its canvas, in pixels from the top-left corner: the
// axes' ranges, the plot, the column of compute roofs' labels right of the plot (each beside the
// end of its roof) and, with a profile, the kernels' key right of that.

#include <string>
#include <vector>

#include "label_boxes.hpp"
#include "roofcast/plots/roofline_chart.hpp"

namespace roofcast::roofline {

inline constexpr double kRoofFont = 10;    // labels of the roofs and slopes
inline constexpr double kNumberFont = 9;   // kernel numbers beside their points
inline constexpr double kKeyFont = 9;      // the kernels' key (monospace)
inline constexpr double kLegendFont = 10;  // the plot's own key
// gnuplot draws point type 7 of size 1 with a radius of 3.75 pixels in these terminals.
inline constexpr double kMarkerRadius = 3.75;

struct AxisRange {
  double low = 0, high = 0;
  double decades() const;
};

struct Layout {
  AxisRange x, y;
  double width = 1250, height = 650;  // the canvas
  gnuplot::Box area;                  // the plot
  double roof_labels_left = 0;        // where the roofs' labels start
  double key_left = 0;                // where the kernels' key starts (with a profile)

  double x_pixel(double value) const;
  double y_pixel(double value) const;
  double x_value(double pixel) const;
  double y_value(double pixel) const;
  double slope_angle() const;  // of a slope-1 line on the canvas, radians counter-clockwise
  // gnuplot's "at screen X, Y" of a pixel (screen coordinates run from the bottom left, 0..1).
  std::string at_screen(double x_pixel, double y_pixel) const;
};

// The layout for these roofs, kernels and sweep points, with `roof_label_width` pixels for the
// widest roof label and `key_width` for the kernels' key (0 without a profile).
Layout layout_for(const std::vector<RooflineCeiling>& ceilings, const std::vector<RooflineKernelPoint>& kernels,
                  const std::vector<RooflinePoint>& sweep, double roof_label_width, double key_width);

// `set xtics`/`set ytics` lists labelling the decades of a log axis, all in one style: "0.01" to
// "1000" when the axis stays within them, else "10⁻³" ... "10⁷" (no exponent form such as 1e+07).
std::string decade_tics(const AxisRange& axis);

}  // namespace roofcast::roofline
