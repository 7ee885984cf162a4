#include <catch2/catch.hpp>

#include <stdexcept>

#include "roofcast/microbench/statistics.hpp"

using roofcast::microbench::rates_from_times;
using roofcast::microbench::summarize;

TEST_CASE("summaries give the median, minimum and maximum of repetitions") {
  const auto odd = summarize({3.0, 1.0, 2.0, 10.0, 4.0});
  CHECK(odd.median == 3.0);
  CHECK(odd.min == 1.0);
  CHECK(odd.max == 10.0);
  CHECK(odd.count == 5);
  CHECK(summarize({4.0, 1.0, 3.0, 2.0}).median == 2.5);
  CHECK(summarize({7.0}).median == 7.0);
}

TEST_CASE("summaries refuse empty or non-finite samples") {
  CHECK_THROWS_AS(summarize({}), std::invalid_argument);
  CHECK_THROWS_AS(summarize({1.0, std::numeric_limits<double>::quiet_NaN()}), std::invalid_argument);
}

TEST_CASE("rates come from each repetition's time, fastest giving the largest rate") {
  // 2e9 operations in 1 ms = 2000 G/s; in 2 ms = 1000 G/s.
  const auto rates = rates_from_times({1.0, 2.0, 4.0}, 2e9, 1e6);
  CHECK(rates.max == Approx(2000));
  CHECK(rates.median == Approx(1000));
  CHECK(rates.min == Approx(500));
  CHECK_THROWS_AS(rates_from_times({1.0, 0.0}, 1, 1), std::invalid_argument);
}
