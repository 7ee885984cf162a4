#pragma once

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

}  // namespace roofcast
