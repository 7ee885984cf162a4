#include <catch2/catch.hpp>

#include "roofcast/model/counter_names.hpp"

TEST_CASE("both spellings of a thesis counter map to its nvprof name") {
  CHECK(roofcast::thesis_counter_names().size() == 9);
  for (const auto& name : roofcast::thesis_counter_names()) {
    CHECK(roofcast::canonical_thesis_counter(name.nvprof) == name.nvprof);
    CHECK(roofcast::canonical_thesis_counter(name.cupti) == name.nvprof);
  }
  CHECK(roofcast::canonical_thesis_counter("dram__sectors_read.sum") == "dram_read_transactions");
  CHECK_FALSE(roofcast::canonical_thesis_counter("lts__t_bytes.sum"));
}
