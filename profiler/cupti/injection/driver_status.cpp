#include "driver_status.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace roofcast::profiler {

void check_driver(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return;
  const char* name = nullptr;
  const char* text = nullptr;
  cuGetErrorName(result, &name);
  cuGetErrorString(result, &text);
  throw std::runtime_error(fmt::format("{} failed: {} ({})", call, name ? name : "unknown CUDA error",
                                       text ? text : "no description"));
}

}  // namespace roofcast::profiler
