#pragma once

#include <string>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"

namespace roofcast {

// How many blocks of one launch shape an SM of the device holds at once, and what limits it
// (the CUDA occupancy calculator's rules). blocks_per_sm is 0 when the device's limits are
// unknown, and also when the block cannot fit at all (then `limiter` says why).
struct Occupancy {
  int blocks_per_sm = 0;
  std::string limiter;  // "threads", "blocks", "registers", "shared memory"; empty when unknown
};

Occupancy occupancy_of(const LaunchShape& shape, const OccupancyLimits& limits, double warp_size = 32);

}  // namespace roofcast
