#include "roofcast/profiler/csv_records.hpp"

#include <charconv>
#include <cmath>

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

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// The digits at `text[at]` onward; `at` moves past them. Returns how many.
size_t skip_digits(std::string_view text, size_t& at) {
  const size_t start = at;
  while (at < text.size() && is_digit(text[at])) ++at;
  return at - start;
}

// The integer part at `text[at]`: plain digits, or digits grouped in thousands ("1,234,567":
// one to three digits, then groups of exactly three, each after one comma). Appends the
// digits to `number`; false when the part is not one of these.
bool integer_part(std::string_view text, size_t& at, std::string& number) {
  const size_t start = at;
  const size_t leading = skip_digits(text, at);
  if (leading == 0) return false;
  number.append(text.substr(start, leading));
  if (at >= text.size() || text[at] != ',') return true;
  if (leading > 3 || text[start] == '0') return false;
  while (at < text.size() && text[at] == ',') {
    const size_t group = ++at;
    if (skip_digits(text, at) != 3) return false;
    number.append(text.substr(group, 3));
  }
  return true;
}

}  // namespace

std::optional<double> parse_csv_number(std::string_view cell) {
  // [sign] integer-part [. digits] [e|E [sign] digits]
  std::string number;
  size_t at = 0;
  if (at < cell.size() && (cell[at] == '-' || cell[at] == '+')) number += cell[at++];
  if (!integer_part(cell, at, number)) return std::nullopt;
  if (at < cell.size() && cell[at] == '.') {
    const size_t fraction = ++at;
    if (skip_digits(cell, at) == 0) return std::nullopt;
    number += '.';
    number.append(cell.substr(fraction, at - fraction));
  }
  if (at < cell.size() && (cell[at] == 'e' || cell[at] == 'E')) {
    const size_t exponent = at++;
    if (at < cell.size() && (cell[at] == '-' || cell[at] == '+')) ++at;
    if (skip_digits(cell, at) == 0) return std::nullopt;
    number.append(cell.substr(exponent, at - exponent));
  }
  if (at != cell.size()) return std::nullopt;
  double value = 0;
  const char* end = number.data() + number.size();
  const auto [stop, error] = std::from_chars(number.data() + (number[0] == '+'), end, value);
  if (error != std::errc() || stop != end || !std::isfinite(value)) return std::nullopt;
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
