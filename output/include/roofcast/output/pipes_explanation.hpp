#pragma once

#include <string>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/pipes_prediction.hpp"

namespace roofcast {

// `roofcast explain --model pipes`.
std::string pipes_explanation_text(const PipesPrediction& prediction, const DeviceProfile& device);

}  // namespace roofcast
