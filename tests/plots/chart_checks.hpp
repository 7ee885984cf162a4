#pragma once

// What the chart tests share: drawing a chart with gnuplot in a fresh folder, and reading
// positions back out of gnuplot's SVG through the axis mapping the script sets.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "roofcast/plots/gnuplot_chart.hpp"
#include "xml_tree.hpp"

namespace roofcast::testing {

struct RenderedSvg {
  std::filesystem::path folder;  // where it was drawn (removed once read)
  std::string svg;
  std::unique_ptr<XmlElement> root;  // parsed: throws if the SVG is not well-formed XML
};

// Renders `chart` (an .svg target) with gnuplot in a fresh temporary folder and reads it back.
RenderedSvg render_svg(const GnuplotChart& chart);

// The plot area in SVG pixels: the border rectangle gnuplot draws where the script's
// `set lmargin/rmargin/bmargin/tmargin at screen` put it (the first such set in `script`).
struct PlotArea {
  double left = 0, right = 0, top = 0, bottom = 0;
};
PlotArea plot_area(const XmlElement& svg, const std::string& script);

// An axis as the script sets it (`set xrange [low:high]`, log when `set logscale` names it).
struct Axis {
  double low = 0, high = 0;
  bool log = false;
};
Axis axis_from_script(const std::string& script, char axis);

// Where a data value lands in SVG pixels.
double x_pixel(double x, const Axis& axis, const PlotArea& area);
double y_pixel(double y, const Axis& axis, const PlotArea& area);

// The number gnuplot gives (in its SVG group ids, gnuplot_plot_N) to the clause of the
// script's first `plot` command whose title starts with `title_prefix`; 0 when none does.
int plot_number(const std::string& script, const std::string& title_prefix);

// The translate(x, y) of every point marker (<use>) of plot element `number`, inside the
// plot area (key samples excluded).
std::vector<std::pair<double, double>> markers_of(const XmlElement& svg, int number, const PlotArea& area);

// Every text drawn in the SVG (its <text> elements), one per line.
std::string svg_text(const XmlElement& svg);

}  // namespace roofcast::testing
