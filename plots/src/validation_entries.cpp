#include "roofcast/plots/validation_entries.hpp"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofcast/formats/input_error.hpp"

namespace roofcast {

namespace {

using nlohmann::json;

[[noreturn]] void fail(const std::string& source, const std::string& field, std::string_view problem) {
  throw InputError(fmt::format("{}: {}: {}", source, field, problem));
}

double positive_number(const json& entry, const std::string& key, const std::string& source, const std::string& where) {
  const auto it = entry.find(key);
  if (it == entry.end()) fail(source, where + "." + key, "missing");
  if (!it->is_number()) fail(source, where + "." + key, fmt::format("expected a number, found {}", it->type_name()));
  const double value = it->get<double>();
  if (!std::isfinite(value) || value <= 0) fail(source, where + "." + key, fmt::format("must be > 0, found {}", value));
  return value;
}

std::string text(const json& entry, const std::string& key, const std::string& source, const std::string& where) {
  const auto it = entry.find(key);
  if (it == entry.end()) fail(source, where + "." + key, "missing");
  if (!it->is_string() || it->get<std::string>().empty())
    fail(source, where + "." + key, "expected a non-empty string");
  return it->get<std::string>();
}

}  // namespace

double AccuracyEntry::absolute_percentage_error() const {
  return std::abs(predicted_ms - measured_ms) / measured_ms * 100;
}

std::vector<AccuracyEntry> parse_validation_entries(std::string_view json_text, const std::string& source) {
  json document;
  try {
    document = json::parse(json_text);
  } catch (const json::parse_error& error) {
    throw InputError(fmt::format("{}: not valid JSON (byte {})", source, error.byte));
  }
  if (!document.is_object()) throw InputError(fmt::format("{}: expected a JSON object", source));
  if (const auto format = document.find("format"); format != document.end()) {
    if (!format->is_string() || format->get<std::string>() != "roofcast-validation")
      fail(source, "format", fmt::format("expected \"roofcast-validation\", found {}", format->dump()));
  }
  if (const auto version = document.find("version"); version != document.end()) {
    if (!version->is_number() || version->get<double>() < 1) fail(source, "version", "expected a positive integer");
    if (version->get<double>() > 1)
      fail(source, "version", fmt::format("version {} is newer than this roofcast reads (1); upgrade roofcast",
                                          version->dump()));
  }
  const auto entries = document.find("entries");
  if (entries == document.end()) fail(source, "entries", "missing");
  if (!entries->is_array()) fail(source, "entries", fmt::format("expected an array, found {}", entries->type_name()));
  if (entries->empty()) fail(source, "entries", "is empty, nothing to plot");

  std::vector<AccuracyEntry> result;
  for (size_t i = 0; i < entries->size(); ++i) {
    const json& entry = (*entries)[i];
    const std::string where = fmt::format("entries[{}]", i);
    if (!entry.is_object()) fail(source, where, "expected an object");
    AccuracyEntry e;
    e.kernel = text(entry, "kernel", source, where);
    e.device = text(entry, "device", source, where);
    e.predicted_ms = positive_number(entry, "predicted_ms", source, where);
    e.measured_ms = positive_number(entry, "measured_ms", source, where);
    if (entry.contains("corrected_ms") && !entry["corrected_ms"].is_null())
      e.corrected_ms = positive_number(entry, "corrected_ms", source, where);
    if (entry.contains("bound") && !entry["bound"].is_null()) {
      e.bound = text(entry, "bound", source, where);
      if (e.bound != "compute" && e.bound != "memory")
        fail(source, where + ".bound", fmt::format("expected \"compute\" or \"memory\", found \"{}\"", e.bound));
    }
    result.push_back(std::move(e));
  }
  return result;
}

std::vector<AccuracyEntry> validation_entries_from(const ProfilePrediction& prediction) {
  std::vector<AccuracyEntry> entries;
  for (const auto& p : prediction.kernels) {
    if (!p.measured_ms || !(*p.measured_ms > 0) || !(p.thesis.predicted_ms > 0)) continue;
    AccuracyEntry e;
    e.kernel = p.kernel;
    e.device = p.device;
    e.predicted_ms = p.thesis.predicted_ms;
    e.measured_ms = *p.measured_ms;
    e.corrected_ms = p.corrected_ms;
    e.bound = to_string(p.thesis.bound);
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace roofcast
