// Accuracy statistics of a validation, checked against values computed by hand.
#include <catch2/catch.hpp>

#include <vector>

#include "roofcast/model/validation.hpp"

using roofcast::Bound;
using roofcast::ValidatedPrediction;

namespace {

ValidatedPrediction entry(const std::string& kernel, const std::string& device, double predicted, double measured,
                      std::optional<double> corrected = std::nullopt) {
  ValidatedPrediction e;
  e.kernel = kernel;
  e.device = device;
  e.predicted_ms = predicted;
  e.measured_ms = measured;
  e.corrected_ms = corrected;
  e.bound = Bound::memory;
  return e;
}

}  // namespace

TEST_CASE("errors summarize into median and mean APE, shares within bounds, over and under") {
  // Errors +10 %, -20 %, +50 %, -70 %: APEs 0.1 0.2 0.5 0.7.
  const std::vector<double> errors = {0.10, -0.20, 0.50, -0.70};
  const auto s = roofcast::summarize_errors(errors);
  CHECK(s.kernels == 4);
  CHECK(s.median_ape == Approx(0.35));  // (0.2 + 0.5) / 2
  CHECK(s.mean_ape == Approx(0.375));   // 1.5 / 4
  CHECK(s.within_10 == Approx(0.25));   // the bound itself counts as within
  CHECK(s.within_25 == Approx(0.50));
  CHECK(s.within_50 == Approx(0.75));
  CHECK(s.over_predicted == 2);
  CHECK(s.under_predicted == 2);
}

TEST_CASE("an odd number of errors has the middle APE as median, exact predictions are neither over nor under") {
  const std::vector<double> errors = {-0.5, 0.0, 0.2};
  const auto s = roofcast::summarize_errors(errors);
  CHECK(s.median_ape == Approx(0.2));
  CHECK(s.over_predicted == 1);
  CHECK(s.under_predicted == 1);
  CHECK(roofcast::summarize_errors(std::vector<double>{}).kernels == 0);
}

TEST_CASE("entries give signed errors from predicted and measured times") {
  const auto e = entry("k", "A", 110, 100, 80.0);
  CHECK(e.error() == Approx(0.10));
  CHECK(e.ape() == Approx(0.10));
  CHECK(*e.corrected_error() == Approx(-0.20));
  CHECK(*e.corrected_ape() == Approx(0.20));
  CHECK_FALSE(entry("k", "A", 1, 2).corrected_error());
}

TEST_CASE("a report summarizes per device and overall, the correction without the reference device") {
  // Reference device R: errors +10 % and -20 %, corrected times exact by construction.
  // Target T: errors +50 % and -70 %, corrected errors -10 % and +30 %.
  std::vector<ValidatedPrediction> entries = {entry("k1", "R", 110, 100, 100.0), entry("k2", "R", 80, 100, 100.0),
                                          entry("k1", "T", 150, 100, 90.0), entry("k2", "T", 30, 100, 130.0)};
  const auto report = roofcast::summarize_validation("thesis", "R", entries);
  REQUIRE(report.devices.size() == 2);
  CHECK(report.devices[0].device == "R");
  CHECK(report.devices[0].uncorrected.median_ape == Approx(0.15));
  CHECK_FALSE(report.devices[0].corrected);
  CHECK(report.devices[1].device == "T");
  CHECK(report.devices[1].uncorrected.mean_ape == Approx(0.60));
  REQUIRE(report.devices[1].corrected);
  CHECK(report.devices[1].corrected->median_ape == Approx(0.20));
  CHECK(report.devices[1].corrected->within_10 == Approx(0.5));
  CHECK(report.devices[1].corrected->over_predicted == 1);

  CHECK(report.overall.device.empty());
  CHECK(report.overall.uncorrected.kernels == 4);
  CHECK(report.overall.uncorrected.median_ape == Approx(0.35));
  REQUIRE(report.overall.corrected);
  CHECK(report.overall.corrected->kernels == 2);
  CHECK(report.overall.corrected->mean_ape == Approx(0.20));
}

TEST_CASE("misses come with hints drawn from the kernel's parameters") {
  auto e = entry("short_int", "T", 0.02, 0.05);
  e.parameters.type = roofcast::KernelType::int32;
  e.parameters.W_traf = 1000;
  e.parameters.W_comp = 10;
  e.parameters.D_ops = 0.5;
  e.invocations = 1;
  e.E_util = 2.5;
  const auto hints = roofcast::miss_hints(e);
  auto mentions = [&](const std::string& part) {
    return std::any_of(hints.begin(), hints.end(), [&](const std::string& h) { return h.find(part) != h.npos; });
  };
  CHECK(mentions("short launches (0.050 ms each)"));
  CHECK(mentions("integer kernel"));
  CHECK(mentions("E_util 2.50"));
  CHECK(mentions("memory bound, yet slower"));
  CHECK_FALSE(mentions("compute bound"));
}
