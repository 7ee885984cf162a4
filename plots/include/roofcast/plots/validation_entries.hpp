#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofcast/model/profile_prediction.hpp"

namespace roofcast {

// One (kernel, device) pair of a validation file (written by `roofcast validate`):
// {"format": "roofcast-validation", "version": 1, "entries": [{"kernel", "device",
// "predicted_ms", "measured_ms", "corrected_ms"?, "bound"?}, ...], ...}.
struct AccuracyEntry {
  std::string kernel;
  std::string device;
  double predicted_ms = 0;
  double measured_ms = 0;
  std::optional<double> corrected_ms;
  std::string bound;  // "compute", "memory" or empty when not given

  double absolute_percentage_error() const;  // |predicted - measured| / measured x 100
};

// Reads the "entries" of a validation file; other fields are ignored. Throws InputError
// naming `source` and the field at fault.
std::vector<AccuracyEntry> parse_validation_entries(std::string_view json_text, const std::string& source);

// The entries of a prediction whose measured time is known (measured_ms / measured_ms_by_device
// of the profile), for a profile that carries measurements.
std::vector<AccuracyEntry> validation_entries_from(const ProfilePrediction& prediction);

}  // namespace roofcast
