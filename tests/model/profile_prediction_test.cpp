#include <catch2/catch.hpp>

#include "roofcast/data/bundled_data.hpp"
#include "roofcast/model/profile_prediction.hpp"

TEST_CASE("profile prediction joins measured times and applies the utilization correction") {
  const auto profile = roofcast::find_bundled_profile("thesis-redblack");
  REQUIRE(profile);
  const auto devices = roofcast::bundled_devices();
  const auto reference = roofcast::find_bundled_device("GTX-480");
  REQUIRE(reference);

  const auto plain = roofcast::predict_profile(*roofcast::make_predictor("thesis"), *profile, devices);
  REQUIRE(plain.kernels.size() == 6);
  REQUIRE(plain.totals.size() == 6);
  for (const auto& p : plain.kernels) {
    REQUIRE(p.measured_ms);
    CHECK_FALSE(p.corrected_ms);
    CHECK(*p.error == Approx((p.predicted_ms() - *p.measured_ms) / *p.measured_ms));
  }

  const auto corrected = roofcast::predict_profile(*roofcast::make_predictor("thesis"), *profile, devices, &*reference);
  for (const auto& p : corrected.kernels) {
    REQUIRE(p.E_util);
    CHECK(*p.E_util == Approx(21.456 / 20.41395).epsilon(1e-4));
    CHECK(*p.corrected_ms == Approx(*p.E_util * p.predicted_ms()));
    if (p.device == "GTX-480") CHECK(*p.corrected_ms == Approx(21.456));
  }
  for (const auto& total : corrected.totals) {
    CHECK(total.corrected_ms);
    CHECK(total.memory_bound_kernels + total.compute_bound_kernels == 1);
  }
}
