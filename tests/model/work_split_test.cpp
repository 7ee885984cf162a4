#include <catch2/catch.hpp>

#include "roofcast/model/work_split.hpp"

TEST_CASE("work is split in proportion to predicted speed, rounded to whole blocks") {
  // Device A takes 10 ms alone, B 30 ms: speeds 1/10 and 1/30, shares 3/4 and 1/4.
  const auto split = roofcast::split_work({{"A", 10, 4}, {"B", 30, 4}}, 1000);
  REQUIRE(split.devices.size() == 2);
  CHECK(split.devices[0].ideal_share == Approx(0.75));
  CHECK(split.devices[1].ideal_share == Approx(0.25));
  CHECK(split.devices[0].blocks == 750);
  CHECK(split.devices[1].blocks == 250);
  CHECK(split.ideal_ms == Approx(7.5));  // 1 / (1/10 + 1/30)
  CHECK(split.fastest_alone_ms == 10);
  CHECK(split.ideal_gain == Approx(0.25));
  CHECK(split.rounded_ms == Approx(7.5));  // 10 x 750/1000 = 30 x 250/1000
  CHECK(split.warnings.empty());
}

TEST_CASE("rounding keeps every block and charges the device that got the extra one") {
  // Three equal devices, 10 blocks: 3.33 each, the largest remainders get 4, 3, 3.
  const auto split = roofcast::split_work({{"A", 9, 0}, {"B", 9, 0}, {"C", 9, 0}}, 10);
  CHECK(split.devices[0].blocks + split.devices[1].blocks + split.devices[2].blocks == 10);
  CHECK(split.devices[0].blocks == 4);
  CHECK(split.ideal_ms == Approx(3.0));
  CHECK(split.rounded_ms == Approx(3.6));  // 9 ms x 4/10
}

TEST_CASE("small gains and parts under one wave are warned about") {
  // A 10 ms, B 100 ms: ideal 1/(0.1 + 0.01) = 9.09 ms, a 9 % gain; B gets 9 of 100 blocks on 20 SMs.
  const auto split = roofcast::split_work({{"A", 10, 20}, {"B", 100, 20}}, 100);
  CHECK(split.ideal_gain == Approx(1 - (1 / 0.11) / 10));
  CHECK(split.devices[1].blocks == 9);
  REQUIRE(split.warnings.size() == 2);
  CHECK_THAT(split.warnings[0], Catch::Contains("B gets 9 blocks, under one wave (20 SMs)"));
  CHECK_THAT(split.warnings[1], Catch::Contains("9.1 %, under 20 %"));
}
