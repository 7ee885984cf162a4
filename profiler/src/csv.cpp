#include "roofcast/profiler/csv_records.hpp"

#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/formats/utf8.hpp"

namespace roofcast::profiler {

std::vector<std::string> split_csv_line(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

std::optional<double> parse_csv_number(std::string_view cell) {
  std::string digits;
  for (char c : cell)
    if (c != ',' && c != ' ') digits += c;
  if (digits.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(digits.c_str(), &end);
  if (end != digits.c_str() + digits.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

namespace {
constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
}  // namespace

CsvRecords::CsvRecords(std::string_view text, std::string source)
    : in_(std::string(text.starts_with(kByteOrderMark) ? text.substr(kByteOrderMark.size()) : text)),
      source_(std::move(source)) {}

bool CsvRecords::next_line(std::string& line) {
  if (!std::getline(in_, line)) return false;
  ++line_number_;
  if (!is_valid_utf8(line))
    throw InputError(fmt::format("{}:{}: not valid UTF-8 text: \"{}\"", source_, line_number_, printable(line)));
  return true;
}

bool CsvRecords::find_header(std::string_view first_column) {
  for (std::string line; next_line(line);) {
    std::vector<std::string> fields = split_csv_line(line);
    if (fields.front() != first_column) continue;
    header_ = std::move(fields);
    for (size_t i = 0; i < header_.size(); ++i) columns_[header_[i]] = i;
    return true;
  }
  return false;
}

std::optional<size_t> CsvRecords::column(const std::string& name) const {
  const auto found = columns_.find(name);
  return found == columns_.end() ? std::nullopt : std::optional<size_t>(found->second);
}

bool CsvRecords::next(std::vector<std::string>& fields) {
  for (std::string line; next_line(line);) {
    if (line.empty() || line == "\r" || line.rfind("==", 0) == 0) continue;
    fields = split_csv_line(line);
    if (fields.size() != header_.size())
      throw InputError(
          fmt::format("{}:{}: {} fields, the header has {}", source_, line_number_, fields.size(), header_.size()));
    return true;
  }
  return false;
}

}  // namespace roofcast::profiler
