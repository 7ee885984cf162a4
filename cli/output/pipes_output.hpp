#pragma once

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

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

// The outputs of `roofcast predict --model pipes`, printed one prediction at a time: a profile
// of 100,000 kernels on 10 devices makes a million, which are never all held at once (the
// table keeps only its formatted cells, to align them).
class PipesPrinter {
 public:
  virtual ~PipesPrinter() = default;
  virtual void add(const PipesKernelPrediction& prediction) = 0;
  virtual void finish() = 0;
};
// `format`: "table", "csv" or "json".
std::unique_ptr<PipesPrinter> pipes_printer(const std::string& format, std::ostream& out,
                                            const std::string& profile_source);

// `roofcast explain --model pipes`.
std::string pipes_explanation_text(const PipesPrediction& prediction, const DeviceProfile& device);

}  // namespace roofcast
