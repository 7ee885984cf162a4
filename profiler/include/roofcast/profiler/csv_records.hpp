#pragma once

#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace roofcast::profiler {

// One CSV record split into fields (RFC 4180 quoting: "a, b" and "" inside quotes).
std::vector<std::string> split_csv_line(std::string_view line);

// The number in a CSV cell, in the forms the profilers write: an optional sign, digits (grouped
// in thousands as ncu does, "1,234,567.5", each comma in its place), an optional fraction and
// exponent: "-2", "0.5", "1.5e+09". nullopt for anything else ("n/a", "12.3GB/s", "1,2,3",
// "0x10", " 1", ".5", "inf") and for a number beyond the double range ("1e400").
std::optional<double> parse_csv_number(std::string_view cell);

// The records of a profiler's CSV export (ncu, nvprof): the banner lines before the header
// are skipped, and so are blank lines and the tool's "==" messages between records. A UTF-8
// byte-order mark at the start is skipped; a line that is not UTF-8 is an InputError naming the
// file and line.
class CsvRecords {
 public:
  CsvRecords(std::string_view text, std::string source);

  // Moves to the header: the first line whose first field is `first_column`; false if none.
  bool find_header(std::string_view first_column);
  const std::vector<std::string>& header() const { return header_; }
  std::optional<size_t> column(const std::string& name) const;

  // The next record, which must have as many fields as the header (else an InputError
  // naming the file and line); false at the end.
  bool next(std::vector<std::string>& fields);
  // The line last read, for error messages.
  int line_number() const { return line_number_; }

 private:
  bool next_line(std::string& line);  // counts lines and checks the text

  std::istringstream in_;
  std::string source_;
  int line_number_ = 0;
  std::vector<std::string> header_;
  std::map<std::string, size_t> columns_;
};

}  // namespace roofcast::profiler
