#include <catch2/catch.hpp>

#include <sstream>

#include "output/table.hpp"

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
