#include "roofcast/formats/validation_json.hpp"

#include <cmath>

#include <fmt/format.h>

#include "roofcast/formats/json_field.hpp"
#include "roofcast/formats/printable_text.hpp"

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

namespace {

constexpr const char* kValidationFormat = "roofcast-validation";
constexpr int kValidationVersion = 1;

AccuracyEntry parse_entry(const Field& entry) {
  entry.object();
  AccuracyEntry e;
  e.kernel = entry.member("kernel").non_empty_string();
  e.device = entry.member("device").non_empty_string();
  e.predicted_ms = entry.member("predicted_ms").positive();
  e.measured_ms = entry.member("measured_ms").positive();
  if (entry.has("corrected_ms") && !entry.member("corrected_ms").value().is_null())
    e.corrected_ms = entry.member("corrected_ms").positive();
  if (entry.has("bound") && !entry.member("bound").value().is_null()) {
    const Field bound = entry.member("bound");
    e.bound = bound.string();
    if (e.bound != "compute" && e.bound != "memory")
      bound.fail(fmt::format("expected \"compute\" or \"memory\", found \"{}\"", e.bound));
  }
  return e;
}

}  // namespace

ValidationFile parse_validation_file(std::string_view json_text, const std::string& source) {
  const json document = parse_json_document(json_text, source);
  const Field root(document, source, "");
  root.object();
  // "format" and "version" are optional here (hand-written files may leave them out).
  if (root.has("format") || root.has("version")) {
    json header = {{"format", kValidationFormat}, {"version", kValidationVersion}};
    for (const char* key : {"format", "version"})
      if (root.has(key)) header[key] = root.member(key).value();
    check_header(header, source, kValidationFormat, kValidationVersion);
  }
  const Field entries = root.member("entries");
  if (entries.array().empty()) entries.fail("is empty, nothing to plot");
  ValidationFile result;
  // The model only names the chart's corrected points: any other value leaves the default.
  if (root.has("model") && root.member("model").value().is_string() && !root.member("model").value().empty())
    result.model = printable(root.member("model").value().get<std::string>());
  for (size_t i = 0; i < entries.array().size(); ++i) result.entries.push_back(parse_entry(entries.element(i)));
  return result;
}

}  // namespace roofcast
