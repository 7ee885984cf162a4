#include "roofcast/plots/accuracy_chart.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "chart_style.hpp"
#include "gnuplot_text.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/plots/chart_values.hpp"

namespace roofcast {

namespace {

using gnuplot::DataFile;
using gnuplot::number;
using gnuplot::quoted;

constexpr int kWidth = 1200, kHeight = 820;

// "1 device", "6 devices".
std::string counted(size_t count, std::string_view noun) {
  return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double share_within(const std::vector<double>& apes, double limit) {
  if (apes.empty()) return 0;
  return 100.0 * static_cast<double>(std::count_if(apes.begin(), apes.end(), [&](double e) { return e <= limit; })) /
         static_cast<double>(apes.size());
}

// Rows "ape cumulative_percent" of a step-shaped empirical distribution starting at (0, 0).
std::string distribution_rows(std::vector<double> apes) {
  std::sort(apes.begin(), apes.end());
  std::string rows = "0 0\n";
  for (size_t i = 0; i < apes.size(); ++i)
    rows += fmt::format("{} {}\n", number(apes[i]), number(100.0 * static_cast<double>(i + 1) / apes.size()));
  return rows;
}

// Both panels are log-scaled in time: every time must be one a log axis can show.
void require_chartable_times(const std::vector<AccuracyEntry>& entries) {
  for (const auto& e : entries)
    for (const auto& [what, value] : {std::pair<const char*, std::optional<double>>{"predicted_ms", e.predicted_ms},
                                      {"measured_ms", e.measured_ms},
                                      {"corrected_ms", e.corrected_ms}})
      if (value && !chartable(*value))
        throw InputError(fmt::format("accuracy chart: kernel {} on {}: {} {} is outside what the chart can draw "
                                     "(from {:g} to {:g} ms)",
                                     e.kernel, e.device, what, *value, kChartMin, kChartMax));
}

}  // namespace

GnuplotChart accuracy_chart(const std::vector<AccuracyEntry>& entries, const std::string& source_note,
                            const ChartTarget& target, const std::string& model) {
  require_chartable_times(entries);
  GnuplotChart chart;
  chart.chart_file_name = target.chart_file_name;
  const std::string stem = target.chart_file_name.substr(0, target.chart_file_name.rfind('.'));
  chart.data_file_name = stem + ".dat";
  chart.script_file_name = stem + ".gp";
  DataFile data(fmt::format("Prediction accuracy: the data of {} ({}).", chart.script_file_name, source_note));

  std::vector<std::string> devices;  // in order of first appearance
  std::map<std::string, std::vector<const AccuracyEntry*>> by_device;
  std::set<std::string> kernels;
  std::vector<std::string> first_kernels;  // the first few, in order of appearance, for the title
  double low = INFINITY, high = 0, worst = 0;
  bool any_corrected = false;
  std::vector<double> all_apes;
  for (const auto& e : entries) {
    if (!by_device.contains(e.device)) devices.push_back(e.device);
    by_device[e.device].push_back(&e);
    if (kernels.insert(e.kernel).second && first_kernels.size() < 5) first_kernels.push_back(e.kernel);
    for (double t : {e.predicted_ms, e.measured_ms}) {
      low = std::min(low, t);
      high = std::max(high, t);
    }
    if (e.corrected_ms) {
      any_corrected = true;
      low = std::min(low, *e.corrected_ms);
      high = std::max(high, *e.corrected_ms);
    }
    worst = std::max(worst, e.absolute_percentage_error());
    all_apes.push_back(e.absolute_percentage_error());
  }
  if (entries.empty()) low = high = 1;
  // A square log-log box with some room around the points.
  const double range_low = std::pow(10.0, std::floor(std::log10(low / 1.5) * 4) / 4);
  const double range_high = std::pow(10.0, std::ceil(std::log10(high * 1.5) * 4) / 4);

  // The +-25 % band and y = x, sampled along the x range.
  std::string band_rows;
  for (int i = 0; i <= 40; ++i) {
    const double x = range_low * std::pow(range_high / range_low, i / 40.0);
    band_rows += fmt::format("{} {} {}\n", number(x), number(0.75 * x), number(1.25 * x));
  }
  const int band_block = data.add_block("band: measured_ms 0.75x 1.25x", band_rows);

  std::vector<std::string> scatter{
      fmt::format("data index {} using 1:2:3 with filledcurves lc rgb '#e8e8e8' title 'within 25 %'", band_block),
      fmt::format("data index {} using 1:1 with lines lw 1.5 lc rgb '#444444' title 'predicted = measured'", band_block)};
  std::vector<std::string> distribution;
  const std::string title_note = kernels.size() <= 4 ? fmt::format(" of {}", fmt::join(first_kernels, ", ")) : "";
  for (size_t i = 0; i < devices.size(); ++i) {
    const auto& rows_of = by_device[devices[i]];
    std::string rows;
    std::vector<double> apes;
    for (const auto* e : rows_of) {
      rows += fmt::format("{} {} {} {} {:.4g} {}\n", number(e->measured_ms), number(e->predicted_ms),
                          e->corrected_ms ? number(*e->corrected_ms) : "?", e->bound.empty() ? "?" : e->bound,
                          e->absolute_percentage_error(), gnuplot::data_column(e->kernel));
      apes.push_back(e->absolute_percentage_error());
    }
    const std::string color(chart_style::palette(i));
    const int block = data.add_block(
        fmt::format("device {}: measured_ms predicted_ms corrected_ms bound ape_percent kernel", devices[i]), rows);
    scatter.push_back(fmt::format("data index {} using 1:2 with points pt 7 ps 1.6 lc rgb '{}' title {}", block, color,
                                  quoted(devices[i])));
    if (any_corrected)
      scatter.push_back(fmt::format("data index {} using 1:3 with points pt 6 ps 1.6 lw 1.5 lc rgb '{}' notitle", block,
                                    color));
    const int cdf_block = data.add_block(fmt::format("device {} error distribution: ape_percent share_percent",
                                                     devices[i]),
                                         distribution_rows(apes));
    distribution.push_back(fmt::format(
        "data index {} using 1:2 with steps lw 2 lc rgb '{}' title {}", cdf_block, color,
        quoted(fmt::format("{}: {:.1f} % | {:.0f} %", devices[i], median(apes), share_within(apes, 25)))));
  }
  if (any_corrected)
    scatter.push_back(fmt::format("keyentry with points pt 6 ps 1.6 lc rgb '#444444' title '{}'",
                                  model == "thesis" ? "corrected by E_util (hollow)"
                                                    : "calibrated on the reference device (hollow)"));
  const int all_block = data.add_block("all devices error distribution: ape_percent share_percent",
                                       distribution_rows(all_apes));
  distribution.push_back(fmt::format(
      "data index {} using 1:2 with steps lw 3.5 lc rgb '#000000' title {}", all_block,
      quoted(fmt::format("all {}: {:.1f} % | {:.0f} %", counted(entries.size(), "prediction"), median(all_apes), share_within(all_apes, 25)))));

  const std::string title = fmt::format("Prediction accuracy ({} model){}", model, title_note);
  std::string script = gnuplot::preamble(title, target, kWidth, kHeight);
  const double ape_max = std::max(50.0, std::ceil(worst * 1.1 / 10) * 10);
  script += fmt::format(
      "data = {}\n"
      "set datafile missing '?'\n"
      "set multiplot title {} font ',14'\n"
      "set label 1 {} at screen 0.5, 0.925 center font ',10' textcolor rgb '#555555'\n\n"
      "# Left: predicted vs measured time, log-log.\n"
      "set lmargin at screen 0.07\nset rmargin at screen 0.47\nset bmargin at screen 0.36\nset tmargin at screen 0.89\n"
      "set logscale xy 10\n"
      "set xrange [{}:{}]\nset yrange [{}:{}]\n"
      "set xtics {}\nset ytics {}\n"
      "set format x '%g'\nset format y '%g'\n"
      "set xlabel 'Measured time (ms)'\nset ylabel 'Predicted time (ms)'\n"
      "set grid xtics ytics mxtics mytics lc rgb '#e4e4e4' lw 1, lc rgb '#f4f4f4' lw 1\n"
      // Keys below the panels, where no data can be.
      "set key at screen 0.27, screen 0.27 center top box font ',10' spacing 1.1 samplen 1.5\n",
      quoted(chart.data_file_name), quoted(title),
      quoted(fmt::format("{} on {}. Measured times: {}", counted(entries.size(), "prediction"),
                         counted(devices.size(), "device"), source_note)),
      number(range_low), number(range_high), number(range_low), number(range_high),
      gnuplot::log_tics(range_low, range_high), gnuplot::log_tics(range_low, range_high));
  script += gnuplot::plot_command(scatter);
  script += fmt::format(
      "\n# Right: cumulative distribution of the absolute percentage error.\n"
      "unset label 1\n"
      "set lmargin at screen 0.56\nset rmargin at screen 0.97\nset bmargin at screen 0.36\nset tmargin at screen 0.89\n"
      "unset logscale\nset xtics auto\nset ytics auto\n"
      "set xrange [0:{}]\nset yrange [0:105]\n"
      "set format x '%g'\nset format y '%g'\n"
      "set xlabel 'Absolute percentage error |predicted - measured| / measured (%)'\n"
      "set ylabel 'Predictions with at most this error (%)'\n"
      "set arrow 1 from 25, 0 to 25, 105 nohead dashtype 2 lc rgb '#888888'\n"
      "set label 2 '25 %' at 25, 102 left offset 0.5,0 font ',9' textcolor rgb '#666666'\n"
      "set key at screen 0.765, screen 0.27 center top box font ',10' spacing 1.1 samplen 1.5 "
      "title 'median APE | within 25 %'\n",
      number(ape_max));
  script += gnuplot::plot_command(distribution);
  script += "unset multiplot\n";
  chart.data = data.text();
  chart.script = std::move(script);
  return chart;
}

}  // namespace roofcast
