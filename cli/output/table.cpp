#include "output/table.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace roofcast {

namespace {

std::string csv_field(const std::string& cell) {
  if (cell.find_first_of(",\"\n\r") == std::string::npos) return cell;
  std::string quoted = "\"";
  for (const char c : cell) {
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
  for (const auto& column : table.columns) widths.push_back(display_width(column.header));
  for (const auto& row : table.rows) {
    for (size_t i = 0; i < row.size() && i < widths.size(); ++i) widths[i] = std::max(widths[i], display_width(row[i]));
  }
  auto line = [&](const std::vector<std::string>& cells, bool header) {
    std::string out;
    for (size_t i = 0; i < widths.size(); ++i) {
      const std::string cell = i < cells.size() ? cells[i] : "";
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
