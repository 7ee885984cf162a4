#include "roofcast/plots/ranking_chart.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "chart_style.hpp"
#include "gnuplot_text.hpp"
#include "label_boxes.hpp"
#include "roofcast/formats/input_error.hpp"

namespace roofcast {

GnuplotChart ranking_chart(const std::vector<DeviceRank>& ranks, const std::string& profile_label,
                           const ChartTarget& target) {
  GnuplotChart chart;
  chart.chart_file_name = target.chart_file_name;
  const std::string stem = std::filesystem::path(target.chart_file_name).stem().string();
  chart.data_file_name = stem + ".dat";
  chart.script_file_name = stem + ".gp";

  // Bars from the top: row y = n - 1 - rank. Columns: y, device, kernel end, gap end, copy end.
  std::string rows;
  double longest = 0;
  const size_t n = ranks.size();
  for (size_t i = 0; i < n; ++i) {
    const DeviceRank& r = ranks[i];
    const double kernels_end = r.kernels_ms, gaps_end = kernels_end + r.launch_gaps_ms, total = gaps_end + r.transfers_ms;
    if (!std::isfinite(total) || r.kernels_ms < 0 || r.launch_gaps_ms < 0 || r.transfers_ms < 0)
      throw InputError(fmt::format("ranking chart: {}: the predicted time is not a finite number >= 0 (kernels {} ms, "
                                   "launch gaps {} ms, copies {} ms)",
                                   r.device, r.kernels_ms, r.launch_gaps_ms, r.transfers_ms));
    longest = std::max(longest, total);
    rows += fmt::format("{} {} {} {} {} {} {}\n", n - 1 - i, gnuplot::data_column(r.device), gnuplot::number(kernels_end),
                        gnuplot::number(gaps_end), gnuplot::number(total),
                        gnuplot::data_column(fmt::format("{} ms", gnuplot::milliseconds(total))), r.derived ? 1 : 0);
  }
  gnuplot::DataFile data(fmt::format("Devices ranked by predicted application time: the data of {}.",
                                     chart.script_file_name));
  const int block = data.add_block("y device kernels_end_ms gaps_end_ms total_ms total_label derived", rows);
  const bool any_derived = std::any_of(ranks.begin(), ranks.end(), [](const DeviceRank& r) { return r.derived; });
  chart.data = data.text();

  const int height = 140 + 44 * static_cast<int>(n), width = 900;
  // Room for the longest device name left of the bars (gnuplot's own estimate of text widths runs short).
  double widest_name = 0;
  for (const DeviceRank& r : ranks) widest_name = std::max(widest_name, gnuplot::text_width(r.device, 10));
  std::string script = gnuplot::preamble(fmt::format("Devices ranked by predicted time of {}", profile_label), target,
                                         width, height);
  script += fmt::format(
      "set title {}\n"
      "set lmargin at screen {:.4f}\n"
      "set xlabel 'Predicted application time (ms)'\n"
      "set yrange [-0.7:{}]\n"
      "set xrange [0:{}]\n"
      "set ytics scale 0\n"
      "set key outside top center horizontal samplen 2\n"
      "set style fill solid 0.9 border rgb 'white'\n"
      "set grid xtics lc rgb '#e4e4e4'\n"
      "bar = 0.32\n",
      gnuplot::quoted(fmt::format("Predicted application time of {}: kernels, launch gaps, copies", profile_label)),
      (widest_name + 24) / width, gnuplot::number(n - 0.3), gnuplot::number(longest * 1.22));
  const std::string source = gnuplot::quoted(chart.data_file_name);
  // A device profile derived from a spec sheet (not measured) gets a hatched kernels bar.
  std::vector<std::string> elements = {
      fmt::format("{} index {} using (0):1:(0):($7 > 0 ? NaN : $3):($1-bar):($1+bar):ytic(2) with boxxyerror lc rgb '{}' "
                  "title 'kernels{}'",
                  source, block, chart_style::fp32, any_derived ? " (measured device)" : "")};
  if (any_derived)
    elements.push_back(fmt::format("{} index {} using (0):1:(0):($7 > 0 ? $3 : NaN):($1-bar):($1+bar):ytic(2) with "
                                   "boxxyerror fs pattern 4 border lc rgb '{}' lc rgb '{}' title 'kernels (derived "
                                   "from a spec sheet, not measured)'",
                                   source, block, chart_style::fp32, chart_style::fp32));
  elements.push_back(fmt::format("{} index {} using 3:1:3:4:($1-bar):($1+bar) with boxxyerror lc rgb '{}' title "
                                 "'launch gaps'",
                                 source, block, chart_style::tensor));
  elements.push_back(fmt::format("{} index {} using 4:1:4:5:($1-bar):($1+bar) with boxxyerror lc rgb '{}' title 'copies'",
                                 source, block, chart_style::fp64));
  elements.push_back(fmt::format("{} index {} using 5:1:6 with labels left offset 0.6,0 notitle", source, block));
  script += gnuplot::plot_command(elements);
  chart.script = script;
  return chart;
}

}  // namespace roofcast
