#pragma once

// Small helpers shared by the chart builders: quoting text for gnuplot scripts and data
// files, formatting numbers, and the terminal preamble of each output format.
//
// Names (kernels, devices, profiles, file names) are data and reach the script and data file
// only through quoted(), data_column() and comment(), which first pass them through
// printable() (formats/printable_text.hpp), so no name holds a line break or other control
// character. Then:
//  - quoted(): a single-quoted string, where gnuplot gives meaning to nothing but '' (no
//    backquote command substitution, no @macro, no backslash escapes, unlike "...").
//  - data_column(): a double-quoted data-file column; gnuplot reads backslash escapes there,
//    so a backslash is doubled, and a double quote becomes ' (\" is not read reliably).
//  - comment(): a comment line; a backslash at the end of a line would continue the comment
//    onto the next (script) line, so a trailing backslash is written as \x5c.
// Numbers reach them only through number(), readable() and milliseconds(), which refuse
// values that are not finite: a chart checks its values first (chart_values.hpp).

#include <string>
#include <string_view>
#include <vector>

#include "roofcast/plots/gnuplot_chart.hpp"

namespace roofcast::gnuplot {

// A single-quoted gnuplot string literal of printable(text) ('' escapes a quote).
std::string quoted(std::string_view text);

// A double-quoted column of a data file holding printable(text).
std::string data_column(std::string_view text);

// A comment line "# text\n" of a script or data file.
std::string comment(std::string_view text);

// A number with 6 significant digits, as gnuplot reads it back; std::domain_error when not finite.
std::string number(double value);

// A value for people: 3 significant digits, no exponent for ordinary magnitudes ("1941", "89.7", "0.302").
std::string readable(double value);

// The first lines of every script: what wrote it, how to rerun it, the terminal and output.
// Sizes are in pixels for SVG and PNG; PDF uses the same proportions in inches / 100.
std::string preamble(std::string_view description, const ChartTarget& target, int width, int height);

// The data file of a chart: blocks separated by two blank lines, read with `index N`.
class DataFile {
 public:
  // `header`: the first comment line (no "# ").
  explicit DataFile(std::string_view header) : text_(comment(header)) {}
  // Appends a block (a comment naming its columns, then its rows); returns its index.
  int add_block(std::string_view comment, std::string_view rows);
  const std::string& text() const { return text_; }

 private:
  std::string text_;
  int blocks_ = 0;
};

// A gnuplot `plot` command joining `clauses` (each "data index N using ... with ...").
std::string plot_command(const std::vector<std::string>& clauses);

// A time in milliseconds for people: "185.7", "12.89", "0.176", "0.0026", "<0.0001".
std::string milliseconds(double ms);

// `set xtics (...)`-style list of readable tick positions for a log axis from `low` to `high`:
// 1-2-5 steps, or every 1..9 step when the range is narrow. E.g. "('10' 10, '20' 20, '50' 50)".
// Over very many decades only some decades are labelled; std::domain_error unless 0 < low <= high
// are finite.
std::string log_tics(double low, double high);

// "10⁻³", "10⁷": a power of ten in Unicode superscripts (charts are written in UTF-8).
std::string power_of_ten(int exponent);
// A tic's label, never in exponent form such as 1e+06: "0.0001" to "500000" as they are, beyond
// that "10⁶", "2×10⁶".
std::string tic_label(double value);

// Cuts `text` to at most `max_length` characters, ending in "..." when cut.
std::string shortened(std::string_view text, size_t max_length);

}  // namespace roofcast::gnuplot
