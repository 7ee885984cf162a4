#include "roofcast/plots/gnuplot_chart.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace roofcast {

std::optional<ChartFormat> chart_format_from_extension(std::string_view extension) {
  std::string lower(extension);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  if (lower == ".svg") return ChartFormat::svg;
  if (lower == ".png") return ChartFormat::png;
  if (lower == ".pdf") return ChartFormat::pdf;
  return std::nullopt;
}

std::optional<ChartTarget> chart_target_for(std::string_view chart_file_name) {
  const auto dot = chart_file_name.rfind('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const auto format = chart_format_from_extension(chart_file_name.substr(dot));
  if (!format) return std::nullopt;
  return ChartTarget{std::string(chart_file_name), *format};
}

std::string file_name_part(std::string_view text) {
  std::string result;
  for (const unsigned char c : text) {
    if (std::isalnum(c)) result += static_cast<char>(std::tolower(c));
    else if (!result.empty() && result.back() != '-') result += '-';
  }
  while (!result.empty() && result.back() == '-') result.pop_back();
  return result.empty() ? "chart" : result;
}

}  // namespace roofcast
