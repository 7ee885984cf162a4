#pragma once

#include <cuda.h>

namespace roofcast::profiler {

// Throws std::runtime_error naming `call` and the driver's words for `result` when it is not
// CUDA_SUCCESS (the collector's own driver calls: replays, L2 flush, graph walk).
void check_driver(CUresult result, const char* call);

}  // namespace roofcast::profiler
