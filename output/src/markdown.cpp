#include "roofcast/output/markdown.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofcast/formats/printable_text.hpp"

namespace roofcast {

std::string markdown_text(std::string_view text) {
  std::string out;
  for (const char c : printable(text)) {
    if (std::string_view("\\`*[]<>|&").find(c) != std::string_view::npos) out += '\\';
    out += c;
  }
  return out;
}

namespace {

// Backquotes enough to fence `code`: more than its longest run, and at least `minimum`.
std::string fence_for(std::string_view code, size_t minimum) {
  size_t longest = 0, run = 0;
  for (const char c : code) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max(minimum, longest + 1), '`');
}

}  // namespace

std::string markdown_code(std::string_view text) {
  const std::string code = printable(text);
  const std::string fence = fence_for(code, 1);
  // A space keeps a backquote at either end from joining the fence.
  const bool padded = !code.empty() && (code.front() == '`' || code.back() == '`');
  return fence + (padded ? " " : "") + code + (padded ? " " : "") + fence;
}

std::string markdown_code_block(std::string_view text) {
  const std::string code = printable(text);
  const std::string fence = fence_for(code, 3);
  return fence + "\n" + code + "\n" + fence + "\n";
}

std::string markdown_table(const std::vector<std::string>& headers, const std::vector<std::vector<std::string>>& rows,
                           size_t text_columns) {
  auto line = [](const std::vector<std::string>& cells) {
    std::vector<std::string> escaped;
    for (const auto& cell : cells) escaped.push_back(markdown_text(cell));
    return fmt::format("| {} |\n", fmt::join(escaped, " | "));
  };
  std::string out = line(headers) + "|";
  for (size_t i = 0; i < headers.size(); ++i) out += i < text_columns ? " --- |" : " ---: |";
  out += "\n";
  for (const auto& row : rows) out += line(row);
  return out;
}

std::string render_markdown(const Table& table) {
  std::vector<std::string> headers;
  size_t text_columns = 0;
  for (const auto& column : table.columns) {
    if (!column.align_right && text_columns == headers.size()) ++text_columns;
    headers.push_back(column.header);
  }
  std::vector<std::vector<std::string>> rows;
  rows.reserve(table.row_count());
  for (size_t r = 0; r < table.row_count(); ++r) {
    std::vector<std::string>& row = rows.emplace_back();
    for (size_t c = 0; c < table.cell_count(r); ++c) row.emplace_back(table.cell(r, c));
  }
  return markdown_table(headers, rows, text_columns);
}

}  // namespace roofcast
