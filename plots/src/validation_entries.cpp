#include "roofcast/plots/validation_entries.hpp"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofcast/formats/json_field.hpp"

namespace roofcast {

namespace {

using nlohmann::json;

constexpr const char* kFormat = "roofcast-validation";
constexpr int kVersion = 1;

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

double AccuracyEntry::absolute_percentage_error() const {
  return std::abs(predicted_ms - measured_ms) / measured_ms * 100;
}

std::vector<AccuracyEntry> parse_validation_entries(std::string_view json_text, const std::string& source) {
  const json document = parse_json_document(json_text, source);
  const Field root(document, source, "");
  root.object();
  // "format" and "version" are optional here (hand-written files may leave them out).
  if (root.has("format") || root.has("version")) {
    json header = {{"format", kFormat}, {"version", kVersion}};
    for (const char* key : {"format", "version"})
      if (root.has(key)) header[key] = root.member(key).value();
    check_header(header, source, kFormat, kVersion);
  }
  const Field entries = root.member("entries");
  if (entries.array().empty()) entries.fail("is empty, nothing to plot");
  std::vector<AccuracyEntry> result;
  for (size_t i = 0; i < entries.array().size(); ++i) result.push_back(parse_entry(entries.element(i)));
  return result;
}

std::vector<AccuracyEntry> validation_entries_from(const ProfilePrediction& prediction) {
  std::vector<AccuracyEntry> entries;
  for (const auto& p : prediction.kernels) {
    if (!p.measured_ms || !(*p.measured_ms > 0) || !(p.predicted_ms() > 0)) continue;
    AccuracyEntry e;
    e.kernel = p.kernel;
    e.device = p.device;
    e.predicted_ms = p.predicted_ms();
    e.measured_ms = *p.measured_ms;
    e.corrected_ms = p.corrected_ms;
    e.bound = to_string(p.prediction.bound);
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace roofcast
