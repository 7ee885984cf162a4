#include "roofcast/output/table.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <ostream>
#include <sstream>
#include <string_view>

#include "roofcast/formats/printable_text.hpp"
#include "roofcast/output/shortest_number.hpp"

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

// `text` as a CSV field: quoted, its quotes doubled, when it holds a comma or a quote.
void append_quoted_if_needed(std::string_view text, std::string& out) {
  if (std::none_of(text.begin(), text.end(), [](char c) { return c == ',' || c == '"'; })) {
    out += text;
    return;
  }
  out += '"';
  for (size_t quote = text.find('"'); quote != std::string_view::npos; quote = text.find('"')) {
    out.append(text.substr(0, quote + 1)).append(1, '"');
    text.remove_prefix(quote + 1);
  }
  out.append(text).append(1, '"');
}

std::string csv_field(std::string_view cell) {
  std::string field;
  append_quoted_if_needed(formula_neutralized(printable(cell)), field);
  return field;
}

size_t display_width(std::string_view text) {
  // Count UTF-8 code points, not bytes, so that names with non-ASCII letters align.
  return static_cast<size_t>(std::count_if(text.begin(), text.end(),
                                           [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

bool printable_ascii(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return byte >= 0x20 && byte < 0x7F;
}

// Most cells are printable ASCII: printable() would return them as they are, one column per byte.
// Checked 8 bytes at a time (a million prediction rows, each checked for its widths and its line).
bool printable_ascii(std::string_view text) {
  constexpr uint64_t ones = 0x0101010101010101u, highs = 0x8080808080808080u;
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    // No byte >= 0x80, none below 0x20 and none 0x7F (a zero byte of word ^ 0x7F...).
    const uint64_t del = word ^ (ones * 0x7F);
    if (((word | ((word - ones * 0x20) & ~word) | ((del - ones) & ~del)) & highs) != 0) return false;
  }
  return std::all_of(text.begin() + static_cast<std::ptrdiff_t>(i), text.end(),
                     [](char c) { return printable_ascii(c); });
}

size_t printed_width(std::string_view cell) {
  return printable_ascii(cell) ? cell.size() : display_width(printable(cell));
}

}  // namespace

void Table::add_row(const std::vector<std::string>& cells) {
  const size_t row_begin = text_.size();
  row_first_cell_.push_back(cell_ends_.size());
  for (const auto& cell : cells) {
    text_ += cell;
    cell_ends_.push_back(text_.size());
  }
  row_plain_.push_back(printable_ascii(std::string_view(text_).substr(row_begin)));
}

void Table::add_row(std::initializer_list<std::string_view> cells) {
  const size_t row_begin = text_.size();
  row_first_cell_.push_back(cell_ends_.size());
  for (const auto cell : cells) {
    text_ += cell;
    cell_ends_.push_back(text_.size());
  }
  row_plain_.push_back(printable_ascii(std::string_view(text_).substr(row_begin)));
}

size_t Table::cell_count(size_t row) const {
  const size_t end = row + 1 < row_first_cell_.size() ? row_first_cell_[row + 1] : cell_ends_.size();
  return end - row_first_cell_[row];
}

std::string_view Table::cell(size_t row, size_t column) const {
  const size_t index = row_first_cell_[row] + column;
  const size_t begin = index == 0 ? 0 : cell_ends_[index - 1];
  return std::string_view(text_).substr(begin, cell_ends_[index] - begin);
}

void Table::append(const Table& other) {
  const size_t text_offset = text_.size(), cell_offset = cell_ends_.size();
  text_ += other.text_;
  for (const size_t end : other.cell_ends_) cell_ends_.push_back(end + text_offset);
  for (const size_t first : other.row_first_cell_) row_first_cell_.push_back(first + cell_offset);
  row_plain_.insert(row_plain_.end(), other.row_plain_.begin(), other.row_plain_.end());
}

std::vector<size_t> text_widths(const Table& table) {
  std::vector<size_t> widths;
  for (const auto& column : table.columns) widths.push_back(printed_width(column.header));
  for (size_t r = 0; r < table.row_count(); ++r) {
    const bool plain = table.row_is_plain(r);
    for (size_t i = 0; i < table.cell_count(r) && i < widths.size(); ++i) {
      const std::string_view cell = table.cell(r, i);
      widths[i] = std::max(widths[i], plain ? cell.size() : printed_width(cell));
    }
  }
  return widths;
}

namespace {

// `plain`: every cell is printable ASCII (Table::row_is_plain), so none needs checking.
template <typename CellAt>
void append_line(const Table& table, const std::vector<size_t>& widths, CellAt cell_at, size_t cell_count,
                 bool header, bool plain, std::string& text) {
  std::string escaped;
  for (size_t i = 0; i < widths.size(); ++i) {
    std::string_view cell = i < cell_count ? std::string_view(cell_at(i)) : std::string_view();
    size_t width = cell.size();
    if (!plain && !printable_ascii(cell)) {
      cell = escaped = printable(cell);
      width = display_width(cell);
    }
    const size_t pad = widths[i] - width;
    const bool right = table.columns[i].align_right && !header;
    if (i > 0) text += "  ";
    if (right) text.append(pad, ' ');
    text += cell;
    if (!right && i + 1 < widths.size()) text.append(pad, ' ');
  }
  text += '\n';
}

void append_rule(const std::vector<size_t>& widths, std::string& text) {
  size_t total_width = 0;
  for (const size_t w : widths) total_width += w + 2;
  text.append(total_width > 2 ? total_width - 2 : 0, '-');
  text += '\n';
}

}  // namespace

void append_text_header(const Table& table, const std::vector<size_t>& widths, std::string& text) {
  append_line(table, widths, [&](size_t i) { return std::string_view(table.columns[i].header); },
              table.columns.size(), true, false, text);
  append_rule(widths, text);
}

void append_text_rows(const Table& table, const std::vector<size_t>& widths, std::string& text) {
  for (size_t r = 0; r < table.row_count(); ++r) {
    append_line(table, widths, [&](size_t i) { return table.cell(r, i); }, table.cell_count(r), false,
                table.row_is_plain(r), text);
    if (std::find(table.rules_after.begin(), table.rules_after.end(), r) != table.rules_after.end())
      append_rule(widths, text);
  }
}

void write_text(const Table& table, std::ostream& out) {
  const std::vector<size_t> widths = text_widths(table);
  std::string text;
  append_text_header(table, widths, text);
  append_text_rows(table, widths, text);
  out << text;
}

std::string render_text(const Table& table) {
  std::ostringstream out;
  write_text(table, out);
  return out.str();
}

CsvWriter::~CsvWriter() { flush(); }

void CsvWriter::flush() {
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
}

void append_csv_row(const std::vector<std::string>& cells, std::string& text) {
  for (size_t i = 0; i < cells.size(); ++i) {
    if (i > 0) text += ',';
    text += csv_field(cells[i]);
  }
  text += '\n';
}

void CsvLine::separate() {
  if (!first_) text_ += ',';
  first_ = false;
}

CsvLine& CsvLine::cell(std::string_view text) {
  separate();
  // Printable ASCII that is not a formula comes out as csv_field() would write it, without
  // its copies: as it is, or quoted when it holds a comma or a quote.
  const bool formula = !text.empty() && std::string_view("=+-@").find(text.front()) != std::string_view::npos;
  if (formula || !printable_ascii(text))
    text_ += csv_field(text);
  else
    append_quoted_if_needed(text, text_);
  return *this;
}

CsvLine& CsvLine::number(double value) {
  separate();
  if (std::isfinite(value)) {
    std::array<char, 32> digits;  // "-2.2250738585072014e-308": 24 chars at most
    text_.append(digits.data(), write_shortest_number(value, digits.data()));
  } else {
    text_ += "inf";
  }
  return *this;
}

CsvLine& CsvLine::optional_number(const std::optional<double>& value) {
  if (value) return number(*value);
  separate();
  return *this;
}

void CsvWriter::write_row(const std::vector<std::string>& cells) {
  append_csv_row(cells, buffer_);
  if (buffer_.size() > kFlushBytes) flush();
}

void write_csv(const Table& table, std::ostream& out) {
  CsvWriter writer(out);
  std::vector<std::string> cells;
  for (const auto& column : table.columns) cells.push_back(column.header);
  writer.write_row(cells);
  for (size_t r = 0; r < table.row_count(); ++r) {
    cells.clear();
    for (size_t i = 0; i < table.cell_count(r); ++i) cells.emplace_back(table.cell(r, i));
    writer.write_row(cells);
  }
}

std::string render_csv(const Table& table) {
  std::ostringstream out;
  write_csv(table, out);
  return out.str();
}

}  // namespace roofcast
