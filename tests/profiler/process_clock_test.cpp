// The process' own run time, which the first run's in-run spread is budgeted against.
#include <catch2/catch.hpp>

#include "roofcast/profiler/process_clock.hpp"

using namespace roofcast::profiler;

TEST_CASE("a process' start is read from its stat line, whatever its name holds") {
  CHECK(start_ticks("4242 (python3) S 1 4242 4242 0 -1 4194560 2000 0 0 0 10 3 0 0 20 0 4 0 123456 99999 2000") ==
        123456u);
  // A name with spaces and parentheses ends at the last ')'.
  CHECK(start_ticks("7 (a) b (c) ) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 98765 0 0") == 98765u);
  CHECK_FALSE(start_ticks("no name here"));
  CHECK_FALSE(start_ticks("7 (short) R 1 7"));
  CHECK_FALSE(start_ticks("7 (x) R 1 7 7 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 12ab 0 0"));
  // This process started before now, and not long ago.
  const auto start = process_start_seconds();
  REQUIRE(start);
  const double age = boot_clock_seconds() - *start;
  CHECK(age >= 0);
  CHECK(age < 3600);
}
