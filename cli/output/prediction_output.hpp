#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "roofcast/model/profile_prediction.hpp"

namespace roofcast {

// The three outputs of `roofcast predict` (formats.md).
std::string prediction_table_text(const ProfilePrediction& prediction, bool corrected);
std::string prediction_csv(const ProfilePrediction& prediction);
nlohmann::json prediction_json(const ProfilePrediction& prediction, const std::string& profile_source);

}  // namespace roofcast
