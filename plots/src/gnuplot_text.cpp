#include "gnuplot_text.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "roofcast/formats/printable_text.hpp"

namespace roofcast::gnuplot {

namespace {

// The last line of defence: a chart checks its values before it formats them.
double finite(double value) {
  if (!std::isfinite(value)) throw std::domain_error(fmt::format("a chart value is not finite ({})", value));
  return value;
}

}  // namespace

std::string quoted(std::string_view text) {
  std::string result = "'";
  for (const char c : printable(text)) result += c == '\'' ? std::string("''") : std::string(1, c);
  return result + "'";
}

std::string data_column(std::string_view text) {
  std::string result = "\"";
  for (const char c : printable(text)) {
    if (c == '"') result += '\'';
    else if (c == '\\') result += "\\\\";
    else result += c;
  }
  return result + "\"";
}

std::string comment(std::string_view text) {
  std::string line = printable(text);
  if (line.ends_with('\\')) line.replace(line.size() - 1, 1, "\\x5c");
  return "# " + line + "\n";
}

std::string number(double value) { return fmt::format("{:.6g}", finite(value)); }

std::string readable(double value) {
  if (std::abs(finite(value)) >= 1000) return fmt::format("{:.0f}", value);
  return fmt::format("{:.4g}", value);
}

std::string milliseconds(double ms) {
  finite(ms);
  if (ms >= 100) return fmt::format("{:.1f}", ms);
  if (ms >= 10) return fmt::format("{:.2f}", ms);
  if (ms >= 0.01) return fmt::format("{:.3f}", ms);
  if (ms >= 0.0001) return fmt::format("{:.4f}", ms);
  return "<0.0001";
}

std::string log_tics(double low, double high) {
  if (!(finite(low) > 0 && low <= finite(high)))
    throw std::domain_error(fmt::format("log axis from {} to {}", low, high));
  std::vector<double> ticks;
  // Over many decades, 1-2-5 labels run into each other: label the decades only, and over
  // more than 12 decades only every n-th, so that a tick list never grows beyond ~12 entries.
  const int first = static_cast<int>(std::floor(std::log10(low))), last = static_cast<int>(std::ceil(std::log10(high)));
  const bool wide = std::log10(high / low) > 4;
  const int decade_step = std::max(1, (last - first + 11) / 12);
  for (const auto& steps : {wide ? std::vector<double>{1} : std::vector<double>{1, 2, 5},
                            std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9}}) {
    ticks.clear();
    for (int exponent = first; exponent <= last; exponent += decade_step)
      for (const double step : steps) {
        const double tick = step * std::pow(10.0, exponent);
        if (tick >= low * 0.999 && tick <= high * 1.001) ticks.push_back(tick);
      }
    if (ticks.size() >= 4) break;
  }
  std::string list;
  for (const double t : ticks) list += fmt::format("{}{} {}", list.empty() ? "" : ", ", quoted(tic_label(t)), number(t));
  return "(" + list + ")";
}

std::string power_of_ten(int exponent) {
  static const char* const digits[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  std::string text = exponent < 0 ? "10⁻" : "10";
  for (const char c : std::to_string(std::abs(exponent))) text += digits[c - '0'];
  return text;
}

std::string tic_label(double value) {
  if (value >= 1e-4 && value < 1e6) return fmt::format("{:g}", value);
  const int exponent = static_cast<int>(std::floor(std::log10(value) + 1e-9));
  const double mantissa = value / std::pow(10.0, exponent);
  if (std::abs(mantissa - 1) < 1e-6) return power_of_ten(exponent);
  return fmt::format("{:g}×{}", mantissa, power_of_ten(exponent));
}

std::string preamble(std::string_view description, const ChartTarget& target, int width, int height) {
  // One look in every format: text takes the same share of the canvas in the PNG (pngcairo
  // draws a point as 4/3 pixel), the SVG (a point is a pixel there: fontscale 4/3) and the PDF
  // (sized in inches of 72 points, 1/100 of the pixels). The charts place their labels from it.
  std::string terminal;
  switch (target.format) {
    case ChartFormat::svg:
      terminal = fmt::format("set terminal svg size {},{} dynamic noenhanced font 'Sans,10' fontscale 1.3333 "
                             "background rgb 'white'",
                             width, height);
      break;
    case ChartFormat::png:
      terminal = fmt::format("set terminal pngcairo size {},{} noenhanced font 'Sans,10' background rgb 'white'",
                             width, height);
      break;
    case ChartFormat::pdf:
      terminal = fmt::format("set terminal pdfcairo size {:.2f}in,{:.2f}in noenhanced font 'Sans,10' fontscale 0.96",
                             width / 100.0, height / 100.0);
      break;
  }
  const std::string script_file_name = target.chart_file_name.substr(0, target.chart_file_name.rfind('.')) + ".gp";
  return comment(description) + "# Written by roofcast. Restyle it by editing this script, then rerun it from its folder:\n" +
         comment(fmt::format("  gnuplot '{}'      (or: gnuplot -e \"output_file='other.svg'\" ...)", script_file_name)) +
         fmt::format("{}\n"
                     "if (!exists('output_file')) output_file = {}\n"
                     "set output output_file\n"
                     "set encoding utf8\n\n",
                     terminal, quoted(target.chart_file_name));
}

int DataFile::add_block(std::string_view comment, std::string_view rows) {
  text_ += gnuplot::comment(fmt::format("[{}] {}", blocks_, comment));
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
  // Cut between characters, never inside a UTF-8 sequence.
  size_t cut = max_length - 3;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "...";
}

}  // namespace roofcast::gnuplot
