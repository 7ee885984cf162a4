#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <tbb/task_arena.h>

#include "roofcast/data/bundled_data.hpp"
#include "roofcast/model/prediction_stream.hpp"
#include "many_kernels.hpp"

namespace {

// Keeps each prediction's kernel, device and time, and every range it was written.
struct Kept {
  std::string kernel, device;
  double predicted_ms = 0;
  std::optional<double> corrected_ms;
};
struct KeptRows : roofcast::PredictionRows {
  void add(const roofcast::KernelPrediction& p) override {
    kept.push_back({p.kernel, p.device, p.predicted_ms(), p.corrected_ms});
  }
  std::vector<Kept> kept;
};
class KeepingSink : public roofcast::PredictionSink {
 public:
  std::unique_ptr<roofcast::PredictionRows> rows() const override { return std::make_unique<KeptRows>(); }
  void write(roofcast::PredictionRows& rows) override {
    auto& range = static_cast<KeptRows&>(rows).kept;
    written.insert(written.end(), range.begin(), range.end());
    range.clear();
    ++ranges;
  }
  std::vector<Kept> written;
  size_t ranges = 0;
};

}  // namespace

TEST_CASE("streamed on every core: the predictions in order and the totals of one thread") {
  const auto profile = roofcast::testing::many_kernels(1000);  // ranges of 32 kernels
  const auto devices = roofcast::bundled_devices();
  const auto reference = roofcast::find_bundled_device("GTX-480");
  REQUIRE(reference);
  for (const char* model : {"thesis", "pipes"}) {
    for (const int threads : {1, 2, 4}) {
      INFO(model << ", " << threads << " threads");
      const auto predictor = roofcast::make_predictor(model);
      const auto one = roofcast::predict_profile(*predictor, profile, devices, &*reference);
      KeepingSink sink;
      std::vector<roofcast::DeviceTotal> totals;
      tbb::task_arena(threads).execute(
          [&] { totals = roofcast::stream_predictions(*predictor, profile, devices, &*reference, sink); });
      CHECK(sink.ranges == (1000 + 31) / 32);
      REQUIRE(sink.written.size() == one.kernels.size());
      for (size_t i = 0; i < one.kernels.size(); ++i) {
        CHECK(sink.written[i].kernel == one.kernels[i].kernel);
        CHECK(sink.written[i].device == one.kernels[i].device);
        CHECK(sink.written[i].predicted_ms == one.kernels[i].predicted_ms());
        CHECK(sink.written[i].corrected_ms == one.kernels[i].corrected_ms);
      }
      REQUIRE(totals.size() == one.totals.size());
      for (size_t d = 0; d < one.totals.size(); ++d) {
        CHECK(totals[d].predicted_ms == one.totals[d].predicted_ms);  // summed in the same order, to the bit
        CHECK(totals[d].corrected_ms == one.totals[d].corrected_ms);
        CHECK(totals[d].memory_bound_kernels == one.totals[d].memory_bound_kernels);
      }
    }
  }
}

TEST_CASE("streamed: the first bad kernel's error, after every range before it was written") {
  auto profile = roofcast::testing::many_kernels(1000);
  const roofcast::KernelParameters bad = roofcast::testing::unpredictable_kernel();
  profile.kernels[900].description = bad;
  profile.kernels[300].description = bad;  // in the tenth range of 32 kernels
  const auto devices = roofcast::bundled_devices();
  const auto predictor = roofcast::make_predictor("thesis");
  std::string one_error;
  try {
    roofcast::predict_profile(*predictor, profile, devices);
  } catch (const std::exception& e) {
    one_error = e.what();
  }
  REQUIRE_THAT(one_error, Catch::Contains("sor_red_variant_300"));
  for (int run = 0; run < 5; ++run) {
    KeepingSink sink;
    std::string error;
    try {
      roofcast::stream_predictions(*predictor, profile, devices, nullptr, sink);
    } catch (const std::exception& e) {
      error = e.what();
    }
    CHECK(error == one_error);
    CHECK(sink.ranges == 300 / 32);
    CHECK(sink.written.size() == 300 / 32 * 32 * devices.size());
  }
}

TEST_CASE("streamed: a profile without kernels writes nothing, and its totals are empty") {
  auto profile = roofcast::testing::many_kernels(1);
  profile.kernels.clear();
  const auto devices = roofcast::bundled_devices();
  KeepingSink sink;
  const auto totals = roofcast::stream_predictions(*roofcast::make_predictor("pipes"), profile, devices, nullptr, sink);
  CHECK(sink.ranges == 0);
  REQUIRE(totals.size() == devices.size());
  for (const auto& t : totals) {
    CHECK(t.predicted_ms == 0);
    CHECK_FALSE(t.measured_ms);
  }
}
