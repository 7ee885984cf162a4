#include <catch2/catch.hpp>

#include "roofcast/data/bundled_data.hpp"
#include "roofcast/model/device_ranking.hpp"

TEST_CASE("devices rank by predicted kernel time with their longest kernels") {
  const auto profile = roofcast::find_bundled_profile("thesis-redblack");
  REQUIRE(profile);
  const auto prediction = roofcast::predict_profile(*profile, roofcast::bundled_devices());
  const auto ranks = roofcast::rank_devices(prediction);
  REQUIRE(ranks.size() == 6);
  // Thesis Table 5.6 times: GTX-480 20.414 < GTX-1060 20.631 < K20c 21.980 < M2050 31.039 < GTX-660 34.803 < GTX-960 38.620.
  const std::vector<std::string> expected{"GTX-480", "GTX-1060 6GB", "Tesla K20c", "Tesla M2050", "GTX-660", "GTX-960"};
  for (size_t i = 0; i < ranks.size(); ++i) CHECK(ranks[i].device == expected[i]);
  CHECK(ranks.front().speedup_vs_slowest == Approx(38.620 / 20.414).epsilon(1e-4));
  CHECK(ranks.back().speedup_vs_slowest == 1);
  REQUIRE(ranks.front().top_kernels.size() == 1);
  CHECK(ranks.front().top_kernels[0].share == 1);
  CHECK(ranks.front().top_kernels[0].bound == roofcast::Bound::memory);
}
