#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/pipes_prediction.hpp"

namespace roofcast {

// One kernel on one device under the multi-pipeline model, with what is known to check it.
struct PipesKernelPrediction {
  std::string kernel;
  std::string device;
  PipesPrediction prediction;
  std::optional<double> measured_ms;
  std::optional<double> corrected_ms;  // calibrated by measured / predicted on the reference device
};

// `roofcast predict --model pipes` outputs and `roofcast explain --model pipes`.
std::string pipes_table_text(const std::vector<PipesKernelPrediction>& predictions);
std::string pipes_csv(const std::vector<PipesKernelPrediction>& predictions);
nlohmann::json pipes_json(const std::vector<PipesKernelPrediction>& predictions, const std::string& profile_source);
std::string pipes_explanation_text(const PipesPrediction& prediction, const DeviceProfile& device);

}  // namespace roofcast
