// The validation file's fields (the contract `roofcast plot accuracy` reads).
#include <catch2/catch.hpp>

#include "roofcast/formats/validation_json.hpp"

using namespace roofcast;

TEST_CASE("the validation file holds every entry and the summaries, with and without correction") {
  ValidatedPrediction on_reference;
  on_reference.kernel = "k";
  on_reference.device = "R";
  on_reference.predicted_ms = 8;
  on_reference.measured_ms = 10;
  on_reference.corrected_ms = 10;
  on_reference.bound = Bound::memory;
  ValidatedPrediction on_target = on_reference;
  on_target.device = "T";
  on_target.predicted_ms = 4;
  on_target.measured_ms = 2;
  on_target.corrected_ms = 5;
  on_target.bound = Bound::compute;
  ValidatedPrediction uncorrected = on_target;
  uncorrected.kernel = "j";
  uncorrected.corrected_ms.reset();
  const auto json = to_json(summarize_validation("thesis", "R", {on_reference, on_target, uncorrected}));

  CHECK(json["format"] == "roofcast-validation");
  CHECK(json["version"] == 1);
  CHECK(json["model"] == "thesis");
  CHECK(json["reference_device"] == "R");
  REQUIRE(json["entries"].size() == 3);
  const auto& e = json["entries"][1];
  CHECK(e["kernel"] == "k");
  CHECK(e["device"] == "T");
  CHECK(e["bound"] == "compute");
  CHECK(e["predicted_ms"].get<double>() == Approx(4));
  CHECK(e["measured_ms"].get<double>() == Approx(2));
  CHECK(e["error"].get<double>() == Approx(1.0));
  CHECK(e["ape"].get<double>() == Approx(1.0));
  CHECK(e["corrected_ms"].get<double>() == Approx(5));
  CHECK(e["corrected_ape"].get<double>() == Approx(1.5));
  CHECK(e["miss_hints"].is_array());
  CHECK_FALSE(json["entries"][2].contains("corrected_ms"));
  CHECK_FALSE(json["entries"][0].contains("miss_hints"));  // APE 20 %: no miss

  const auto& overall = json["summary"]["overall"];
  CHECK(overall["kernels"] == 3);
  CHECK(overall["median_ape"].get<double>() == Approx(1.0));  // APEs 0.2, 1.0, 1.0
  CHECK(overall["within_25"].get<double>() == Approx(1.0 / 3));
  CHECK(overall["over_predicted"] == 2);
  CHECK(overall["under_predicted"] == 1);
  CHECK(overall["corrected"]["kernels"] == 1);  // the target's corrected entry only
  CHECK(overall["corrected"]["median_ape"].get<double>() == Approx(1.5));
  const auto& by_device = json["summary"]["by_device"];
  REQUIRE(by_device.size() == 2);
  CHECK(by_device[0]["device"] == "R");
  CHECK(by_device[0]["corrected"].is_null());
  CHECK(by_device[1]["device"] == "T");
  CHECK(by_device[1]["within_50"].get<double>() == Approx(0.0));
}
