#include "cupti_status.hpp"

#include <fmt/format.h>

namespace roofcast::profiler {

std::string describe_cupti_result(CUptiResult result) {
  const char* name = nullptr;
  if (cuptiGetResultString(result, &name) != CUPTI_SUCCESS || name == nullptr) name = "unknown CUPTI error";
  std::string text = fmt::format("{} ({})", name, static_cast<int>(result));
  switch (result) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
      text += ": ERR_NVGPUCTRPERM, GPU performance counters are restricted to administrators; run as root or "
              "with CAP_SYS_ADMIN, or load the nvidia module with NVreg_RestrictProfilingToAdminUsers=0 "
              "(--timing-only needs no counters)";
      break;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
      text += ": another profiler (Nsight Compute/Systems, compute-sanitizer, cuda-gdb, or a CUPTI client in "
              "the application) already holds CUPTI";
      break;
    case CUPTI_ERROR_HARDWARE_BUSY:
      text += ": the GPU's counters are in use by another tool (often DCGM profiling); stop it and retry";
      break;
    case CUPTI_ERROR_NOT_INITIALIZED:
    case CUPTI_ERROR_INVALID_DEVICE:
      text += ": no usable NVIDIA GPU or driver";
      break;
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
      text += ": counters cannot be collected on this GPU configuration (--timing-only still works)";
      break;
    default:
      break;
  }
  return text;
}

CuptiError::CuptiError(const std::string& what, CUptiResult result)
    : std::runtime_error(fmt::format("{}: {}", what, describe_cupti_result(result))), result_(result) {}

void check_cupti(CUptiResult result, const char* call) {
  if (result != CUPTI_SUCCESS) throw CuptiError(call, result);
}

}  // namespace roofcast::profiler
