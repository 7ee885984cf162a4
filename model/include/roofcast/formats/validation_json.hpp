#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofcast/model/validation.hpp"

namespace roofcast {

// The validation file (`roofcast validate --output`, read by `roofcast plot accuracy`):
// {"format": "roofcast-validation", "version": 1, "model", "reference_device",
//  "entries": [{kernel, device, predicted_ms, measured_ms, corrected_ms?, bound, error, ape,
//               corrected_error?, corrected_ape?, ...}],
//  "summary": {"overall": GROUP, "by_device": [GROUP + "device"]}}
// where GROUP = {kernels, median_ape, mean_ape, within_10, within_25, within_50,
//                over_predicted, under_predicted, "corrected": GROUP without "corrected", or null}.
// Errors and APEs are fractions (0.25 = 25 %); docs/validation.md describes every field.
nlohmann::json to_json(const ValidationReport& report);

// What `roofcast plot accuracy` reads of a validation file: its model ("thesis" when not given)
// and its entries; other fields are ignored. Throws InputError naming `source` and the field at fault.
struct ValidationFile {
  std::string model = "thesis";
  std::vector<AccuracyEntry> entries;
};
ValidationFile parse_validation_file(std::string_view json_text, const std::string& source);

}  // namespace roofcast
