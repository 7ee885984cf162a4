#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "roofcast/formats/printable_text.hpp"
#include "roofcast/output/table.hpp"
#include "test_doubles.hpp"

TEST_CASE("tables align columns for people and quote CSV for scripts") {
  roofcast::Table table;
  table.columns = {{"name", false}, {"value"}};
  table.add_row({"a", "1.00"});
  table.add_row({"long, name", "10.00"});
  CHECK(roofcast::render_text(table) ==
        "name        value\n"
        "-----------------\n"
        "a            1.00\n"
        "long, name  10.00\n");
  CHECK(roofcast::render_csv(table) == "name,value\na,1.00\n\"long, name\",10.00\n");
}

TEST_CASE("table cells reach the terminal and CSV as printable text") {
  roofcast::Table table;
  table.columns = {{"kernel", false}, {"error %"}};
  table.add_row({"k\x1b[2J\nx", "-12.5"});
  table.add_row({"=HYPERLINK(\"http://x\")", "+3.0"});
  table.add_row({"@SUM(A1)", "-"});
  table.add_row({"-cmd|' /C calc'!A0", "1e-05"});
  CHECK(roofcast::render_text(table) ==
        "kernel                  error %\n"
        "-------------------------------\n"
        "k\\x1b[2J\\x0ax             -12.5\n"
        "=HYPERLINK(\"http://x\")     +3.0\n"
        "@SUM(A1)                      -\n"
        "-cmd|' /C calc'!A0        1e-05\n");
  // Numbers and "-" stay as they are; text that a spreadsheet would run gets a leading apostrophe.
  CHECK(roofcast::render_csv(table) ==
        "kernel,error %\n"
        "k\\x1b[2J\\x0ax,-12.5\n"
        "\"'=HYPERLINK(\"\"http://x\"\")\",+3.0\n"
        "'@SUM(A1),-\n"
        "'-cmd|' /C calc'!A0,1e-05\n");
}

TEST_CASE("every byte value at every position of a cell reaches the terminal as printable text") {
  // Cells are checked 8 bytes at a time: a cell shows as printable() writes it, escapes and all.
  for (const size_t position : {0u, 3u, 7u, 8u, 12u, 16u}) {
    for (int byte = 0; byte < 256; ++byte) {
      std::string cell(17, 'a');
      cell[position] = static_cast<char>(byte);
      roofcast::Table raw, escaped;
      raw.columns = escaped.columns = {{"kernel", false}, {"ms"}};
      raw.add_row({cell, "1.0"});
      escaped.add_row({roofcast::printable(cell), "1.0"});
      INFO("byte " << byte << " at " << position);
      CHECK(roofcast::render_text(raw) == roofcast::render_text(escaped));
    }
  }
}

TEST_CASE("a CsvWriter streams the rows render_csv writes for a table") {
  roofcast::Table table;
  table.columns = {{"name", false}, {"value"}};
  std::ostringstream streamed;
  {
    roofcast::CsvWriter csv(streamed);
    csv.write_row({"name", "value"});
    for (int i = 0; i < 5000; ++i) {  // more than one buffer's worth
      const std::vector<std::string> row = {"kernel \"" + std::to_string(i) + "\", with a comma", std::to_string(i)};
      table.add_row(row);
      csv.write_row(row);
    }
  }
  CHECK(table.row_count() == 5000);
  CHECK(table.cell(4999, 1) == "4999");
  CHECK(streamed.str() == roofcast::render_csv(table));
}

TEST_CASE("CsvLine writes numbers as fmt's \"{}\" does, over doubles of every magnitude and whole numbers near 2^53") {
  std::vector<double> numbers = roofcast::test::doubles_of_every_magnitude(14, 200000, 100000, 1000);
  numbers.insert(numbers.end(), {0.0, -0.0, 1.0, -1.0, 100.0, 0.5, 1e-4, 1.5e-4, 1e-5, 1e15, 1e16, 1e17,
                                 1234567890123456.0, 12345678901234567.0, 5e-324, 1.7976931348623157e308,
                                 9007199254740991.0, 9007199254740993.0, 1e15 - 1, 1e16 - 2, 3.5e18});
  // Whole numbers below 2^53 are written as integers (no shortest-digits search): the same bytes.
  for (const double scale : {1.0, -1.0})
    for (int e = 0; e <= 70; ++e)
      for (const double offset : {-2.0, -1.0, 0.0, 1.0, 2.0, 0.5})
        numbers.push_back(scale * (std::ldexp(1.0, e) + offset));
  for (const double number : numbers) {
    std::string text;
    roofcast::CsvLine(text).number(number);
    INFO(fmt::format("{}", number));
    CHECK(text == fmt::format("{}", number));
  }
}

TEST_CASE("a table row is plain when every cell is printable ASCII, and its cells are escaped when not") {
  roofcast::Table table;
  table.columns = {{"name", false}, {"ms"}};
  table.add_row({"saxpy", "1.000"});
  table.add_row(std::vector<std::string>{"evil\x1b[2J", "2.000"});
  table.add_row({"caf\xc3\xa9", "3.000"});
  CHECK(table.row_is_plain(0));
  CHECK_FALSE(table.row_is_plain(1));
  CHECK_FALSE(table.row_is_plain(2));
  roofcast::Table copy;
  copy.columns = table.columns;
  copy.append(table);
  CHECK(copy.row_is_plain(0));
  CHECK_FALSE(copy.row_is_plain(1));
  const std::string text = roofcast::render_text(copy);
  CHECK(text.find('\x1b') == std::string::npos);
  CHECK(text.find("evil\\x1b[2J") != std::string::npos);
}
