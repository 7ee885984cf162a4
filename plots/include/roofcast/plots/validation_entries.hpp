#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofcast/model/profile_prediction.hpp"
#include "roofcast/model/validation.hpp"

namespace roofcast {

// The entries of a prediction whose measured time is known (measured_ms / measured_ms_by_device
// of the profile), for a profile that carries measurements.
std::vector<AccuracyEntry> validation_entries_from(const ProfilePrediction& prediction);

}  // namespace roofcast
