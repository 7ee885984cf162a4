#pragma once

#include <cstddef>

#include "runner.hpp"

namespace roofcast::gpu {

// What every characterizer needs to size its launches for the device at hand.
struct Context {
  int device = 0;
  int sm_count = 0;        // as the runtime reports it (MPS limits it): grids are sized from it
  int warp_size = 32;
  int compute_major = 0;   // 0 on HIP
  size_t l2_bytes = 0;
  size_t free_bytes = 0;   // device memory free when the suite started
  bool quick = false;
  RunPolicy policy;
  double target_ms = 3;    // how long one timed launch should last
};

}  // namespace roofcast::gpu
