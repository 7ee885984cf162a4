// Joining predictions with measured times, checked against values computed by hand.
#include <catch2/catch.hpp>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/model/validation_join.hpp"

using namespace roofcast;

namespace {

// W_ldst = (1000 / 2) / 500 = 1, W_other = 500 / 1000 = 0.5, W_op = 1.
DeviceProfile device(const std::string& name, double dram_gbps) {
  DeviceProfile d;
  d.name = name;
  d.throughput = {1000, 500, 500, 1000, 500, dram_gbps};
  return d;
}

// Memory bound on both devices: O_krn = 0.1 ops/byte, O_dev = E_instr x 1000 / B_mem > 2.
// Predicted = W_traf / B_mem = 1e9 B / 100 GB/s = 10 ms on A, 5 ms on B (200 GB/s).
KernelRecord memory_kernel(const std::string& name, std::optional<double> measured_ms = std::nullopt) {
  KernelRecord k;
  k.name = name;
  k.invocations = 4;
  k.measured_ms = measured_ms;
  KernelParameters p;
  p.type = KernelType::fp32;
  p.W_comp = 1e8;
  p.W_traf = 1e9;
  p.E_mix = 1;
  p.D_ops = 0.5;
  p.D_ldst = 0.25;
  k.description = p;
  return k;
}

SourcedProfile profile(const std::string& source, std::vector<KernelRecord> kernels, const std::string& reference = "A") {
  SourcedProfile p;
  p.source = source;
  p.profile.reference_device = reference;
  p.profile.kernels = std::move(kernels);
  return p;
}

MeasuredRun run(const std::string& source, const std::string& device, std::vector<MeasuredRun::Kernel> kernels) {
  return MeasuredRun{source, device, std::move(kernels)};
}

std::string error_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const InputError& error) {
    return error.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("measured runs join predictions per kernel and device, with the utilization correction") {
  const std::vector<DeviceProfile> devices = {device("A", 100), device("B", 200)};
  const auto profiles = std::vector{profile("p.json", {memory_kernel("k", 12.5)})};
  const std::vector<MeasuredRun> runs = {run("a.json", "A", {{"k", 4, 12.5}}), run("b.json", "b", {{"k", 4, 4.0}})};

  const auto result = join_predictions_with_measurements(profiles, devices, runs, &devices[0]);
  CHECK(result.reference_device == "A");
  REQUIRE(result.entries.size() == 2);
  const auto& on_a = result.entries[0];
  const auto& on_b = result.entries[1];
  CHECK(on_a.device == "A");
  CHECK(on_a.predicted_ms == Approx(10.0));
  CHECK(on_a.measured_ms == Approx(12.5));
  CHECK(on_a.error() == Approx(-0.2));
  CHECK(on_a.bound == Bound::memory);
  CHECK(on_b.device == "B");  // the run's "b" matched the device B
  CHECK(on_b.predicted_ms == Approx(5.0));
  CHECK(on_b.error() == Approx(0.25));
  // E_util = 12.5 / 10 = 1.25: corrected 6.25 ms on B, +56.25 %.
  CHECK(*on_b.E_util == Approx(1.25));
  CHECK(*on_b.corrected_ms == Approx(6.25));
  CHECK(*on_b.corrected_error() == Approx(0.5625));
  CHECK(on_b.profile == "p.json");
}

TEST_CASE("a run with other invocation counts is compared per launch, a reference run gives E_util") {
  const std::vector<DeviceProfile> devices = {device("A", 100), device("B", 200)};
  const auto profiles = std::vector{profile("p.json", {memory_kernel("k")})};  // no measured_ms of its own
  const std::vector<MeasuredRun> runs = {run("a.json", "A", {{"k", 2, 10.0}, {"other", 1, 1.0}}),
                                         run("b.json", "B", {{"k", 4, 8.0}})};
  const auto result = join_predictions_with_measurements(profiles, devices, runs, &devices[0]);
  REQUIRE(result.entries.size() == 2);
  CHECK(result.entries[0].measured_ms == Approx(20.0));  // 10 ms for 2 launches -> 20 ms for 4
  CHECK(*result.entries[1].E_util == Approx(2.0));       // 20 / 10
  CHECK(*result.entries[1].corrected_ms == Approx(10.0));
  CHECK(result.notes.size() == 2);  // the rescaling, and "other" being in no profile
}

TEST_CASE("profiles' own measured times validate without measured files") {
  auto kernel = memory_kernel("k");
  kernel.measured_ms_by_device = {{"A", 12.5}, {"B", 4.0}};
  const std::vector<DeviceProfile> devices = {device("A", 100), device("B", 200)};
  const auto result = join_predictions_with_measurements({profile("p", {kernel})}, devices, {}, nullptr);
  REQUIRE(result.entries.size() == 2);
  CHECK(result.entries[1].error() == Approx(0.25));
  CHECK_FALSE(result.entries[1].corrected_ms);
}

TEST_CASE("bad measured input fails with one line naming the file and kernel") {
  const std::vector<DeviceProfile> devices = {device("A", 100), device("B", 200)};
  const auto profiles = std::vector{profile("p.json", {memory_kernel("k"), memory_kernel("j")})};

  SECTION("a kernel missing from the measured file") {
    const std::vector<MeasuredRun> runs = {run("a.json", "A", {{"k", 4, 1.0}, {"j", 4, 1.0}}),
                                           run("b.json", "B", {{"k", 4, 1.0}})};
    CHECK(error_of([&] { join_predictions_with_measurements(profiles, devices, runs, nullptr); }) ==
          "b.json: kernel \"j\" missing (profiled in p.json, device B); --allow-missing skips it");
    const auto skipped = join_predictions_with_measurements(profiles, devices, runs, nullptr, {.allow_missing = true});
    CHECK(skipped.entries.size() == 3);
    CHECK(skipped.skipped == std::vector<std::string>{"j on B"});
  }
  SECTION("a device with no measured file") {
    const std::vector<MeasuredRun> runs = {run("a.json", "A", {{"k", 4, 1.0}, {"j", 4, 1.0}})};
    CHECK(error_of([&] { join_predictions_with_measurements(profiles, devices, runs, nullptr); }) ==
          "kernel \"k\" (p.json) has no measured time on B: give a --measured file of that device");
  }
  SECTION("a measured file of an unknown device") {
    const std::vector<MeasuredRun> runs = {run("c.json", "NVIDIA H200", {{"k", 4, 1.0}})};
    CHECK(error_of([&] { join_predictions_with_measurements(profiles, devices, runs, nullptr); }) ==
          "c.json: device \"NVIDIA H200\" matches no --device profile (A, B)");
  }
  SECTION("a kernel measured twice on one device") {
    const std::vector<MeasuredRun> runs = {run("a1.json", "A", {{"k", 4, 1.0}}), run("a2.json", "A", {{"k", 4, 1.0}})};
    CHECK(error_of([&] { join_predictions_with_measurements(profiles, devices, runs, nullptr); }) ==
          "kernel \"k\": measured twice on A, in a1.json and a2.json");
  }
  SECTION("a non-positive measured time") {
    const std::vector<MeasuredRun> runs = {run("a.json", "A", {{"k", 4, 0.0}})};
    CHECK(error_of([&] { join_predictions_with_measurements(profiles, devices, runs, nullptr); }) ==
          "a.json: kernel \"k\": measured_ms must be > 0");
  }
  SECTION("one kernel name in two profiles") {
    const auto two = std::vector{profile("p.json", {memory_kernel("k")}), profile("q.json", {memory_kernel("k")})};
    CHECK(error_of([&] { join_predictions_with_measurements(two, devices, {}, nullptr); }) ==
          "q.json: kernel \"k\" is also in p.json; kernel names must be unique across the profiles validated "
          "together");
  }
  SECTION("profiles of different reference devices") {
    const auto two = std::vector{profile("p.json", {memory_kernel("k")}), profile("q.json", {memory_kernel("j")}, "B")};
    CHECK(error_of([&] { join_predictions_with_measurements(two, devices, {}, nullptr); }) ==
          "q.json: reference_device \"B\" differs from p.json's \"A\"; validate profiles of one reference device "
          "together");
  }
}

TEST_CASE("device names match up to case, spaces, dashes and underscores") {
  CHECK(same_device_name("NVIDIA H200", "nvidia-h200"));
  CHECK(same_device_name("GTX-1060 6GB", "gtx_1060_6gb"));
  CHECK_FALSE(same_device_name("NVIDIA H200", "NVIDIA H100"));
}

TEST_CASE("a profile's own time on its reference device counts under any spelling of the device's name") {
  const std::vector<DeviceProfile> devices = {device("NVIDIA H200", 100)};
  const auto result = join_predictions_with_measurements(
      {profile("p.json", {memory_kernel("k", 12.5)}, "nvidia-h200")}, devices, {}, &devices[0]);
  REQUIRE(result.entries.size() == 1);
  CHECK(result.entries[0].measured_ms == Approx(12.5));
  CHECK(*result.entries[0].E_util == Approx(1.25));
}

TEST_CASE("a kernel the model sees no work in is left out with a note, not scored") {
  auto idle = memory_kernel("idle");
  auto& p = std::get<KernelParameters>(idle.description);
  p.W_comp = 0;
  p.W_traf = 0;
  idle.measured_ms_by_device = {{"A", 0.01}};
  const std::vector<DeviceProfile> devices = {device("A", 100)};
  const auto result = join_predictions_with_measurements({profile("p.json", {idle})}, devices, {}, nullptr);
  CHECK(result.entries.empty());
  REQUIRE(result.notes.size() == 1);
  CHECK_THAT(result.notes[0], Catch::StartsWith("idle on A: predicted 0.000000 ms"));
}

namespace {

// A model that predicts 8 ms everywhere and calibrates by measured / predicted on the reference.
class EightMs : public Predictor {
 public:
  const std::string& name() const override { return name_; }
  ModelPrediction predict(const KernelRecord&, const DeviceProfile&) const override {
    return {8.0, Bound::compute, "compute", ThesisPrediction{}};
  }
  double calibrated_ms(const KernelRecord&, const DeviceProfile&, const DeviceProfile&,
                       double measured_on_reference_ms) const override {
    return measured_on_reference_ms / 8.0 * 8.0;
  }
  double calibrated_ms(const KernelRecord&, const DeviceProfile&, const ModelPrediction& on_target,
                       const ModelPrediction& on_reference, double measured_on_reference_ms) const override {
    return measured_on_reference_ms / on_reference.predicted_ms * on_target.predicted_ms;
  }

 private:
  std::string name_ = "eight";
};

}  // namespace

TEST_CASE("any model plugs in as a predictor, the utilization correction included") {
  // A model that predicts 8 ms everywhere: E_util = 12.5 / 8 on the reference A.
  JoinOptions options;
  options.predictor = std::make_shared<EightMs>();
  const std::vector<DeviceProfile> devices = {device("A", 100), device("B", 200)};
  const std::vector<MeasuredRun> runs = {run("b.json", "B", {{"k", 4, 10.0}})};
  const auto result =
      join_predictions_with_measurements({profile("p.json", {memory_kernel("k", 12.5)})}, devices, runs, &devices[0],
                                         options);
  REQUIRE(result.entries.size() == 2);
  CHECK(result.entries[1].predicted_ms == Approx(8.0));
  CHECK(result.entries[1].bound == Bound::compute);
  CHECK(result.entries[1].error() == Approx(-0.2));
  CHECK(*result.entries[1].corrected_ms == Approx(12.5));
  CHECK(*result.entries[1].corrected_error() == Approx(0.25));
}
