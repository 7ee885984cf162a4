#pragma once

#include <string>
#include <vector>

namespace roofcast {

// A table of already formatted cells, printed aligned for people or as CSV for
// scripts. Shared by every command that prints rows (predict, bench, validate...).
struct Table {
  struct Column {
    std::string header;
    bool align_right = true;  // numbers right, names left
  };
  std::vector<Column> columns;
  std::vector<std::vector<std::string>> rows;
  // Row indices after which a rule is drawn (e.g. before a totals block).
  std::vector<size_t> rules_after;

  void add_row(std::vector<std::string> cells) { rows.push_back(std::move(cells)); }
};

// Every cell and header is shown as printable() writes it (formats/printable_text.hpp):
// a control character in a name reaches the terminal as "\x1b", never raw.
std::string render_text(const Table& table);
// RFC 4180, one record per line: every cell is printable() text (so no line breaks), quoted
// when it holds a comma or a quote; a text cell starting with = + - or @ (a spreadsheet
// formula) gets a leading apostrophe (formats.md, "CSV output").
std::string render_csv(const Table& table);

}  // namespace roofcast
