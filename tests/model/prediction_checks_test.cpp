// Predictions are checked before anyone prints them: NaN, inf or a negative time is an
// InputError naming the kernel and the device, never a number on the screen.
#include <catch2/catch.hpp>

#include <cmath>

#include "roofcast/data/bundled_data.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/model/pipes_prediction.hpp"
#include "roofcast/model/prediction_checks.hpp"
#include "roofcast/model/profile_prediction.hpp"

using namespace roofcast;

TEST_CASE("a device built past the readers' ranges fails the prediction, naming kernel and device") {
  const auto profile = find_bundled_profile("thesis-redblack");
  auto device = find_bundled_device("GTX-480");
  REQUIRE(profile);
  REQUIRE(device);
  device->name = "slow";
  device->throughput.fp64_gflops = 1e-310;  // a denormal: inf ms
  CHECK_THROWS_WITH(predict_profile(*roofcast::make_predictor("thesis"), *profile, {*device}),
                    Catch::StartsWith("kernel \"sor_red\" on device \"slow\": ") && Catch::Contains(" is inf, not a finite"));
  device->throughput.fp64_gflops = 100;
  device->throughput.dram_gbps = std::nan("");
  CHECK_THROWS_WITH(predict_pipes(profile->kernels[0], *device),
                    Catch::StartsWith("kernel \"sor_red\" on device \"slow\": ") && Catch::Contains(" is nan"));
}

TEST_CASE("the checks pass real predictions, an infinite O_krn included") {
  ThesisPrediction p;
  p.predicted_ms = 1;
  p.O_krn = INFINITY;  // no DRAM traffic: written as null, not an error
  CHECK_NOTHROW(check_prediction(p, "k", "d"));
  p.predicted_ms = -1;
  CHECK_THROWS_WITH(check_prediction(p, "k", "d"), Catch::StartsWith("kernel \"k\" on device \"d\": predicted_ms is -1"));
  CHECK_THROWS_WITH(check_predicted_value(NAN, "corrected_ms", "k", "d"),
                    Catch::StartsWith("kernel \"k\" on device \"d\": corrected_ms is nan"));
}

TEST_CASE("the latency term of a pipes prediction is checked too") {
  PipesPrediction p;
  p.predicted_ms = 1;
  CHECK_NOTHROW(check_prediction(p, "k", "d"));
  p.latency.ms = INFINITY;
  CHECK_THROWS_WITH(check_prediction(p, "k", "d"), Catch::StartsWith("kernel \"k\" on device \"d\": latency_ms is inf"));
}
