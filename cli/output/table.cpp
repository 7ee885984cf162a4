#include "output/table.hpp"

#include <algorithm>
#include <charconv>
#include <string_view>

#include <fmt/format.h>

#include "roofcast/formats/printable_text.hpp"

namespace roofcast {

namespace {

// A text cell that a spreadsheet would run as a formula (=, +, -, @ first) gets a leading
// apostrophe; numbers such as "-0.25" or "+1e-05", and "-" alone (no value), stay as they are.
std::string formula_neutralized(std::string text) {
  if (text.size() < 2 || std::string_view("=+-@").find(text.front()) == std::string_view::npos) return text;
  double number = 0;
  const auto [end, error] = std::from_chars(text.data() + (text.front() == '+'), text.data() + text.size(), number);
  if (error == std::errc() && end == text.data() + text.size()) return text;
  return "'" + text;
}

std::string csv_field(const std::string& cell) {
  const std::string text = formula_neutralized(printable(cell));
  if (text.find_first_of(",\"") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

size_t display_width(const std::string& text) {
  // Count UTF-8 code points, not bytes, so that names with non-ASCII letters align.
  return static_cast<size_t>(std::count_if(text.begin(), text.end(),
                                           [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace

std::string render_text(const Table& table) {
  std::vector<size_t> widths;
  for (const auto& column : table.columns) widths.push_back(display_width(printable(column.header)));
  for (const auto& row : table.rows) {
    for (size_t i = 0; i < row.size() && i < widths.size(); ++i)
      widths[i] = std::max(widths[i], display_width(printable(row[i])));
  }
  auto line = [&](const std::vector<std::string>& cells, bool header) {
    std::string out;
    for (size_t i = 0; i < widths.size(); ++i) {
      const std::string cell = i < cells.size() ? printable(cells[i]) : "";
      const size_t pad = widths[i] - display_width(cell);
      const bool right = table.columns[i].align_right && !header;
      if (i > 0) out += "  ";
      if (right) out += std::string(pad, ' ');
      out += cell;
      if (!right && i + 1 < widths.size()) out += std::string(pad, ' ');
    }
    return out + "\n";
  };
  size_t total_width = 0;
  for (const size_t w : widths) total_width += w + 2;
  const std::string rule = std::string(total_width > 2 ? total_width - 2 : 0, '-') + "\n";

  std::vector<std::string> headers;
  for (const auto& column : table.columns) headers.push_back(column.header);
  std::string out = line(headers, true) + rule;
  for (size_t r = 0; r < table.rows.size(); ++r) {
    out += line(table.rows[r], false);
    if (std::find(table.rules_after.begin(), table.rules_after.end(), r) != table.rules_after.end()) out += rule;
  }
  return out;
}

std::string render_csv(const Table& table) {
  std::string out;
  auto line = [&](const std::vector<std::string>& cells) {
    for (size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) out += ',';
      out += csv_field(cells[i]);
    }
    out += "\n";
  };
  std::vector<std::string> headers;
  for (const auto& column : table.columns) headers.push_back(column.header);
  line(headers);
  for (const auto& row : table.rows) line(row);
  return out;
}

}  // namespace roofcast
