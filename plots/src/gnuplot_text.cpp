#include "gnuplot_text.hpp"

#include <cmath>

#include <fmt/format.h>

namespace roofcast::gnuplot {

std::string quoted(std::string_view text) {
  std::string result = "'";
  for (const char c : text) {
    if (c == '\'') result += "''";
    else if (c == '\n' || c == '\r') result += ' ';
    else result += c;
  }
  return result + "'";
}

std::string data_column(std::string_view text) {
  std::string result = "\"";
  for (const char c : text) {
    if (c == '"') result += '\'';
    else if (c == '\n' || c == '\r' || c == '\t') result += ' ';
    else result += c;
  }
  return result + "\"";
}

std::string number(double value) { return fmt::format("{:.6g}", value); }

std::string readable(double value) {
  if (std::abs(value) >= 1000) return fmt::format("{:.0f}", value);
  return fmt::format("{:.4g}", value);
}

std::string milliseconds(double ms) {
  if (ms >= 100) return fmt::format("{:.1f}", ms);
  if (ms >= 10) return fmt::format("{:.2f}", ms);
  if (ms >= 0.01) return fmt::format("{:.3f}", ms);
  if (ms >= 0.0001) return fmt::format("{:.4f}", ms);
  return "<0.0001";
}

std::string log_tics(double low, double high) {
  std::vector<double> ticks;
  // Over many decades, 1-2-5 labels run into each other: label the decades only.
  const bool wide = std::log10(high / low) > 4;
  for (const auto& steps : {wide ? std::vector<double>{1} : std::vector<double>{1, 2, 5},
                            std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9}}) {
    ticks.clear();
    for (double decade = std::pow(10.0, std::floor(std::log10(low))); decade <= high; decade *= 10)
      for (const double step : steps)
        if (step * decade >= low * 0.999 && step * decade <= high * 1.001) ticks.push_back(step * decade);
    if (ticks.size() >= 4) break;
  }
  std::string list;
  for (const double t : ticks) list += fmt::format("{}'{:g}' {}", list.empty() ? "" : ", ", t, number(t));
  return "(" + list + ")";
}

std::string preamble(std::string_view description, const ChartTarget& target, int width, int height) {
  std::string terminal;
  switch (target.format) {
    case ChartFormat::svg:
      terminal = fmt::format("set terminal svg size {},{} dynamic noenhanced font 'Sans,12' background rgb 'white'",
                             width, height);
      break;
    case ChartFormat::png:
      terminal = fmt::format("set terminal pngcairo size {},{} noenhanced font 'Sans,10' background rgb 'white'",
                             width, height);
      break;
    case ChartFormat::pdf:
      terminal = fmt::format("set terminal pdfcairo size {:.2f}in,{:.2f}in noenhanced font 'Sans,8'",
                             width / 100.0, height / 100.0);
      break;
  }
  return fmt::format(
      "# {}\n"
      "# Written by roofcast. Restyle it by editing this script, then rerun it from its folder:\n"
      "#   gnuplot {}      (or: gnuplot -e \"output_file='other.svg'\" ...)\n"
      "{}\n"
      "if (!exists('output_file')) output_file = {}\n"
      "set output output_file\n"
      "set encoding utf8\n\n",
      description, fmt::format("'{}'", target.chart_file_name), terminal, quoted(target.chart_file_name));
}

int DataFile::add_block(std::string_view comment, std::string_view rows) {
  text_ += fmt::format("# [{}] {}\n", blocks_, comment);
  text_ += rows;
  text_ += "\n\n";
  return blocks_++;
}

std::string plot_command(const std::vector<std::string>& clauses) {
  std::string command = "plot ";
  for (size_t i = 0; i < clauses.size(); ++i) command += (i ? ", \\\n     " : "") + clauses[i];
  return command + "\n";
}

std::string shortened(std::string_view text, size_t max_length) {
  if (text.size() <= max_length || max_length < 4) return std::string(text);
  return std::string(text.substr(0, max_length - 3)) + "...";
}

}  // namespace roofcast::gnuplot
