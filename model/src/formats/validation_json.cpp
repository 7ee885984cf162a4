#include "roofcast/formats/validation_json.hpp"

#include <cmath>

namespace roofcast {

namespace {

using nlohmann::json;

constexpr double kMissThreshold = 0.25;  // misses beyond this APE carry hints

json to_json(const AccuracySummary& s) {
  return {{"kernels", s.kernels},
          {"median_ape", s.median_ape},
          {"mean_ape", s.mean_ape},
          {"within_10", s.within_10},
          {"within_25", s.within_25},
          {"within_50", s.within_50},
          {"over_predicted", s.over_predicted},
          {"under_predicted", s.under_predicted}};
}

json to_json(const AccuracyGroup& group) {
  json out = to_json(group.uncorrected);
  if (!group.device.empty()) out["device"] = group.device;
  out["corrected"] = group.corrected ? to_json(*group.corrected) : json(nullptr);
  return out;
}

json to_json(const ValidatedPrediction& e) {
  json out = {{"kernel", e.kernel},
              {"device", e.device},
              {"profile", e.profile},
              {"invocations", e.invocations},
              {"K_type", std::string(to_string(e.parameters.type))},
              {"bound", to_string(e.bound)},
              {"predicted_ms", e.predicted_ms},
              {"measured_ms", e.measured_ms},
              {"error", e.error()},
              {"ape", e.ape()}};
  if (e.corrected_ms) {
    out["corrected_ms"] = *e.corrected_ms;
    out["corrected_error"] = *e.corrected_error();
    out["corrected_ape"] = *e.corrected_ape();
  }
  if (e.E_util) out["E_util"] = *e.E_util;
  if (e.ape() > kMissThreshold) out["miss_hints"] = miss_hints(e);
  return out;
}

}  // namespace

nlohmann::json to_json(const ValidationReport& report) {
  json entries = json::array();
  for (const auto& entry : report.entries) entries.push_back(to_json(entry));
  json by_device = json::array();
  for (const auto& group : report.devices) by_device.push_back(to_json(group));
  return {{"format", "roofcast-validation"},
          {"version", 1},
          {"model", report.model},
          {"reference_device", report.reference_device},
          {"entries", std::move(entries)},
          {"summary", {{"overall", to_json(report.overall)}, {"by_device", std::move(by_device)}}}};
}

}  // namespace roofcast
