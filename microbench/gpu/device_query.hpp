#pragma once

#include "context.hpp"
#include "roofcast/microbench/suite_result.hpp"

namespace roofcast::gpu {

// Names, sizes and the runtime's clocks of `device` (sm_count_observed is left 0).
microbench::DeviceInfo query_device(int device);

// CUDA compute capability major (0 on HIP).
int compute_capability_major(int device);

}  // namespace roofcast::gpu
