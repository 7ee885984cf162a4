#include <catch2/catch.hpp>

#include <atomic>
#include <cmath>

#include "roofcast/data/bundled_data.hpp"
#include "roofcast/model/profile_prediction.hpp"
#include "many_kernels.hpp"

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

TEST_CASE("predicted on every core: the same predictions, totals and first error as on one") {
  auto profile = roofcast::testing::many_kernels(1000);  // ranges of 64 kernels on several threads
  const auto devices = roofcast::bundled_devices();
  const auto reference = roofcast::find_bundled_device("GTX-480");
  REQUIRE(reference);
  for (const char* model : {"thesis", "pipes"}) {
    const auto predictor = roofcast::make_predictor(model);
    const auto one = roofcast::predict_profile(*predictor, profile, devices, &*reference);
    std::atomic<size_t> trimmed{0};
    const auto every = roofcast::predict_profile_on_every_core(*predictor, profile, devices, &*reference,
                                                               [&](roofcast::KernelPrediction&) { ++trimmed; });
    CHECK(trimmed == one.kernels.size());
    REQUIRE(every.kernels.size() == one.kernels.size());
    for (size_t i = 0; i < one.kernels.size(); ++i) {
      CHECK(every.kernels[i].kernel == one.kernels[i].kernel);
      CHECK(every.kernels[i].device == one.kernels[i].device);
      CHECK(every.kernels[i].predicted_ms() == one.kernels[i].predicted_ms());
      CHECK(every.kernels[i].corrected_ms == one.kernels[i].corrected_ms);
    }
    REQUIRE(every.totals.size() == one.totals.size());
    for (size_t d = 0; d < one.totals.size(); ++d) {
      CHECK(every.totals[d].predicted_ms == one.totals[d].predicted_ms);  // summed in the same order
      CHECK(every.totals[d].measured_ms == one.totals[d].measured_ms);
    }
  }
  // Two bad kernels: the error is the first one's, as one thread would throw it.
  const roofcast::KernelParameters bad = roofcast::testing::unpredictable_kernel();
  profile.kernels[700].description = bad;
  profile.kernels[300].description = bad;
  const auto predictor = roofcast::make_predictor("thesis");
  std::string one_error, every_error;
  try {
    roofcast::predict_profile(*predictor, profile, devices);
  } catch (const std::exception& e) {
    one_error = e.what();
  }
  try {
    roofcast::predict_profile_on_every_core(*predictor, profile, devices, nullptr, [](roofcast::KernelPrediction&) {});
  } catch (const std::exception& e) {
    every_error = e.what();
  }
  CHECK_THAT(one_error, Catch::Contains("sor_red_variant_300"));
  CHECK(every_error == one_error);
}

TEST_CASE("predictions with the devices prepared once are those made with them prepared for each range") {
  const auto profile = roofcast::testing::many_kernels(40);
  const auto devices = roofcast::bundled_devices();
  for (const char* model : {"thesis", "pipes"}) {
    INFO(model);
    const auto predictor = roofcast::make_predictor(model);
    const auto prepared = predictor->prepare(devices);
    CHECK((prepared != nullptr) == (std::string(model) == "pipes"));  // the thesis model needs nothing
    std::vector<roofcast::KernelPrediction> each_range, once;
    const auto keep = [](std::vector<roofcast::KernelPrediction>& kept) {
      return [&kept](roofcast::KernelPrediction&& p) { kept.push_back(std::move(p)); };
    };
    for (size_t first = 0; first < 40; first += 16) {
      const size_t last = std::min<size_t>(40, first + 16);
      roofcast::predict_kernels(*predictor, profile, first, last, devices, nullptr, keep(each_range));
      roofcast::predict_kernels(*predictor, profile, first, last, devices, nullptr, keep(once), prepared.get());
    }
    REQUIRE(once.size() == 40 * devices.size());
    REQUIRE(each_range.size() == once.size());
    for (size_t i = 0; i < once.size(); ++i) {
      CHECK(once[i].device == each_range[i].device);
      CHECK(once[i].predicted_ms() == each_range[i].predicted_ms());
      CHECK(once[i].prediction.limiter == each_range[i].prediction.limiter);
    }
  }
  // Rates prepared for other devices are not used for these.
  const auto pipes = roofcast::make_predictor("pipes");
  const std::vector<roofcast::DeviceProfile> one_device(devices.begin(), devices.begin() + 1);
  CHECK_THROWS_AS(roofcast::predict_kernels(*pipes, profile, 0, 1, devices, nullptr, [](roofcast::KernelPrediction&&) {},
                                            pipes->prepare(one_device).get()),
                  std::logic_error);
}
