#include <catch2/catch.hpp>

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
