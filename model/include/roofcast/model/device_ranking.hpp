#pragma once

#include <string>
#include <vector>

#include "roofcast/model/profile_prediction.hpp"

namespace roofcast {

// A kernel's part of an application's predicted time on one device.
struct KernelTimeShare {
  std::string kernel;
  double predicted_ms = 0;
  double share = 0;  // of the device's total kernel time
  Bound bound = Bound::compute;
};

struct DeviceRank {
  std::string device;
  double kernels_ms = 0;
  double speedup_vs_slowest = 0;
  std::vector<KernelTimeShare> top_kernels;  // the longest first
};

// Devices ordered by predicted application kernel time, fastest first, each with its
// `top` longest kernels and what bounds them.
std::vector<DeviceRank> rank_devices(const ProfilePrediction& prediction, size_t top = 3);

}  // namespace roofcast
