#include <catch2/catch.hpp>

#include <atomic>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "roofcast/model/for_each_parallel.hpp"

TEST_CASE("for_each_parallel runs every index once and throws the lowest index's error") {
  std::vector<std::atomic<int>> runs(10000);
  roofcast::for_each_parallel(runs.size(), [&](size_t i) { ++runs[i]; });
  for (const auto& r : runs) CHECK(r == 1);

  std::atomic<size_t> ran{0};
  auto throw_at = [&](size_t i) {
    ++ran;
    if (i == 7000 || i == 300 || i == 9999) throw std::runtime_error("index " + std::to_string(i));
  };
  CHECK_THROWS_WITH(roofcast::for_each_parallel(10000, throw_at), "index 300");
  CHECK(ran == 10000);  // every body ran, whichever threw first in time
}

TEST_CASE("parts_in_parallel makes the parts in the items' order, the last one short") {
  const auto parts = roofcast::parts_in_parallel<std::vector<size_t>>(
      1000, 64, [](size_t first, size_t last, std::vector<size_t>& part) {
        for (size_t i = first; i < last; ++i) part.push_back(i);
      });
  REQUIRE(parts.size() == 16);
  CHECK(parts.back().size() == 1000 - 15 * 64);
  std::vector<size_t> joined;
  for (const auto& part : parts) joined.insert(joined.end(), part.begin(), part.end());
  std::vector<size_t> expected(1000);
  std::iota(expected.begin(), expected.end(), size_t{0});
  CHECK(joined == expected);
  CHECK(roofcast::parts_in_parallel<std::string>(0, 64, [](size_t, size_t, std::string&) {}).empty());
}

TEST_CASE("joined_in_parallel joins the parts' elements in the items' order") {
  const auto joined = roofcast::joined_in_parallel<size_t>(1000, 64, [](size_t first, size_t last, std::vector<size_t>& part) {
    for (size_t i = first; i < last; ++i)
      if (i % 3 == 0) part.push_back(i);  // parts of different sizes
  });
  REQUIRE(joined.size() == 334);
  for (size_t j = 0; j < joined.size(); ++j) CHECK(joined[j] == 3 * j);
}
