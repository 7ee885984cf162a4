#pragma once

#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
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
  // Row indices after which a rule is drawn (e.g. before a totals block).
  std::vector<size_t> rules_after;

  void add_row(const std::vector<std::string>& cells);
  void add_row(std::initializer_list<std::string_view> cells);  // without a vector of strings
  // Adds `other`'s rows (not its columns or rules) after this table's.
  void append(const Table& other);
  size_t row_count() const { return row_first_cell_.size(); }
  size_t cell_count(size_t row) const;
  std::string_view cell(size_t row, size_t column) const;
  // Whether every cell of the row is printable ASCII, shown as it is (checked once, as it is added).
  bool row_is_plain(size_t row) const { return row_plain_[row]; }

 private:
  // The cells of every row in one buffer: a million rows (predict on 100,000 kernels x 10
  // devices) cost their text, not a std::string and a vector per row.
  std::string text_;
  std::vector<size_t> cell_ends_;        // end of each cell in text_
  std::vector<size_t> row_first_cell_;   // index in cell_ends_ of each row's first cell
  std::vector<bool> row_plain_;           // row_is_plain of each row
};

// Every cell and header is shown as printable() writes it (formats/printable_text.hpp):
// a control character in a name reaches the terminal as "\x1b", never raw.
void write_text(const Table& table, std::ostream& out);
std::string render_text(const Table& table);
// write_text in parts, for a table whose rows are made and written apart (several threads):
// each column's width over the header and the cells (the widths of several tables with the
// same columns merge by their maximum), the header line and its rule, the rows' lines.
std::vector<size_t> text_widths(const Table& table);
void append_text_header(const Table& table, const std::vector<size_t>& widths, std::string& text);
void append_text_rows(const Table& table, const std::vector<size_t>& widths, std::string& text);

// RFC 4180, one record per line: every cell is printable() text (so no line breaks), quoted
// when it holds a comma or a quote; a text cell starting with = + - or @ (a spreadsheet
// formula) gets a leading apostrophe (formats.md, "CSV output"). A CsvWriter writes rows as
// they come, for outputs too large to hold as a Table.
class CsvWriter {
 public:
  explicit CsvWriter(std::ostream& out) : out_(out) {}
  CsvWriter(const CsvWriter&) = delete;
  CsvWriter& operator=(const CsvWriter&) = delete;
  ~CsvWriter();  // writes what is still buffered
  void write_row(const std::vector<std::string>& cells);
  void flush();

 private:
  static constexpr size_t kFlushBytes = 1 << 16;
  std::ostream& out_;
  std::string buffer_;
};
// One CsvWriter row, appended to `text`.
void append_csv_row(const std::vector<std::string>& cells, std::string& text);

// One row appended to `text` cell by cell, without a string per cell (a million prediction
// rows): text cells as CsvWriter writes them, numbers as fmt's "{}" ("inf" when not finite).
class CsvLine {
 public:
  explicit CsvLine(std::string& text) : text_(text) {}
  CsvLine& cell(std::string_view text);
  CsvLine& number(double value);
  CsvLine& optional_number(const std::optional<double>& value);  // empty when there is none
  void end() { text_ += '\n'; }

 private:
  void separate();
  std::string& text_;
  bool first_ = true;
};
void write_csv(const Table& table, std::ostream& out);
std::string render_csv(const Table& table);

}  // namespace roofcast
