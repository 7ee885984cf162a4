#include "roofcast/plots/gnuplot_chart.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>

#include <fmt/format.h>

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
  if (result.size() <= kMaxFileNamePart) return result.empty() ? "chart" : result;
  // A C++ template's name runs to hundreds of characters, past a file name's 255 bytes: its
  // start, and a hash of the whole name (FNV-1a, the same on every machine) to tell such names apart.
  uint64_t hash = 14695981039346656037u;
  for (const unsigned char c : text) hash = (hash ^ c) * 1099511628211u;
  result.resize(kMaxFileNamePart - 17);
  while (!result.empty() && result.back() == '-') result.pop_back();
  return fmt::format("{}-{:016x}", result, hash);
}

}  // namespace roofcast
