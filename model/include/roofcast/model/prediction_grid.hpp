#pragma once

#include <span>

#include <Eigen/Core>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_parameters.hpp"

namespace roofcast {

// Predicted times of many kernels on many devices at once (rows: kernels, columns:
// devices), the same values as predict_thesis, evaluated as whole-array expressions.
struct PredictionGrid {
  Eigen::ArrayXXd predicted_ms;
  Eigen::ArrayXXd T_op_adjusted;
  Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic> compute_bound;
};

PredictionGrid predict_thesis_grid(std::span<const KernelParameters> kernels,
                                   std::span<const DeviceThroughput> devices);

}  // namespace roofcast
