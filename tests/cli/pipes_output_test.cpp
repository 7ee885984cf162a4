// The pipes model's outputs show the latency term where it is modelled.
#include <sstream>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "roofcast/output/pipes_explanation.hpp"
#include "roofcast/output/prediction_output.hpp"

using namespace roofcast;

namespace {

PipesPrediction latency_bound_prediction() {
  PipesPrediction p;
  p.compute = {{"issue", 6.7}};
  p.compute_ms = 6.7;
  p.latency.modelled = true;
  p.latency.kind = "fp32 dependency";
  p.latency.instructions_per_warp = 51e6;
  p.latency.parts = {{"issue", 0.5}, {"dependency", 4.2}};
  p.latency.ns_per_instruction = 4.7;
  p.latency.waves = 1;
  p.latency.resident_warps_per_scheduler = 1;
  p.latency.warps_to_hide_latency = 9.4;
  p.latency.ms = 239.7;
  p.predicted_ms = 239.7;
  p.limiter = "latency (fp32 dependency)";
  return p;
}

// What `predict --model pipes --format <format>` prints for `predictions`.
std::string printed(const std::string& format, const std::vector<KernelPrediction>& predictions) {
  std::ostringstream out;
  const auto printer = prediction_printer(format, out, "p.json", "pipes", false);
  for (const auto& p : predictions) printer->add(p);
  printer->finish({});
  return out.str();
}

}  // namespace

TEST_CASE("pipes outputs: the latency term in JSON, CSV and the explanation") {
  const PipesPrediction prediction = latency_bound_prediction();
  KernelPrediction k;
  k.kernel = "serial";
  k.device = "H200";
  k.prediction = {prediction.predicted_ms, prediction.bound, prediction.limiter,
                  std::make_shared<const PipesPrediction>(prediction)};
  k.measured_ms = 238.0;
  const auto json = nlohmann::json::parse(printed("json", {k}));
  CHECK(json["version"] == 3);
  const auto& p = json["predictions"][0];
  CHECK(p["limiter"] == "latency (fp32 dependency)");
  CHECK(p["predicted_ms"].get<double>() == Approx(239.7));
  const auto& details = p["details"];
  CHECK(details["latency_ms"].get<double>() == Approx(239.7));
  CHECK(details["latency"]["modelled"] == true);
  CHECK(details["latency"]["kind"] == "fp32 dependency");
  CHECK(details["latency"]["ns_per_instruction"]["dependency"].get<double>() == Approx(4.2));
  CHECK(details["latency"]["warps_to_hide_latency"].get<double>() == Approx(9.4));

  CHECK_THAT(printed("csv", {k}), Catch::Contains("latency_ms") && Catch::Contains("239.7"));

  DeviceProfile device;
  device.name = "H200";
  const std::string text = pipes_explanation_text(prediction, device);
  for (const char* expected : {"latency  fp32 dependency", "Latency (one warp's serial work): 51000000 instructions",
                               "dependency          4.200 ns per instruction",
                               "1 warps resident on the busiest scheduler; 9.4 needed to hide the latency",
                               "limiter: latency (fp32 dependency)"})
    CHECK_THAT(text, Catch::Contains(expected));
}
