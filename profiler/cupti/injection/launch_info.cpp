#include "launch_info.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <mutex>
#include <unordered_map>

#include "roofcast/formats/collector_record_fields.hpp"

namespace roofcast::profiler {

static std::string demangle_once(const char* mangled);

bool is_kernel_launch(CUpti_CallbackId cbid) {
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      return true;
    default:
      return false;
  }
}

std::string demangle(const char* mangled) {
  if (mangled == nullptr) return "(unknown kernel)";
  // Every launch asks: an application launches a few kernels thousands of times each.
  static std::mutex mutex;
  static std::unordered_map<std::string, std::string> known;
  std::lock_guard lock(mutex);
  const auto [entry, added] = known.try_emplace(mangled);
  if (added) entry->second = demangle_once(mangled);
  return entry->second;
}

static std::string demangle_once(const char* mangled) {
  int status = 0;
  char* text = abi::__cxa_demangle(mangled, nullptr, nullptr, &status);
  if (status != 0 || text == nullptr) return mangled;  // extern "C" kernels are not mangled
  std::string result(text);
  std::free(text);
  return result;
}

std::optional<LaunchInfo> read_launch(CUpti_CallbackId cbid, const CUpti_CallbackData* data) {
  LaunchInfo launch;
  launch.name = data->symbolName ? data->symbolName : "(unknown kernel)";
  launch.demangled = demangle(data->symbolName);
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchKernel_params*>(data->functionParams);
      launch.grid = {p->gridDimX, p->gridDimY, p->gridDimZ};
      launch.block = {p->blockDimX, p->blockDimY, p->blockDimZ};
      launch.dynamic_shared_bytes = p->sharedMemBytes;
      return launch;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
      const auto* p = static_cast<const cuLaunchKernelEx_params*>(data->functionParams);
      if (p->config == nullptr) return std::nullopt;
      launch.grid = {p->config->gridDimX, p->config->gridDimY, p->config->gridDimZ};
      launch.block = {p->config->blockDimX, p->config->blockDimY, p->config->blockDimZ};
      launch.dynamic_shared_bytes = p->config->sharedMemBytes;
      return launch;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchCooperativeKernel_params*>(data->functionParams);
      launch.grid = {p->gridDimX, p->gridDimY, p->gridDimZ};
      launch.block = {p->blockDimX, p->blockDimY, p->blockDimZ};
      launch.dynamic_shared_bytes = p->sharedMemBytes;
      return launch;
    }
    default:
      return std::nullopt;
  }
}

nlohmann::json launch_record(const LaunchInfo& launch, uint64_t index) {
  return {{collector_record::kType, collector_record::kLaunch},
          {collector_record::kIndexKey, index},
          {collector_record::kNameKey, launch.name},
          {collector_record::kDemangledKey, launch.demangled},
          {collector_record::kDeviceKey, launch.device},
          {collector_record::kGridKey, launch.grid},
          {collector_record::kBlockKey, launch.block},
          {collector_record::kDynamicSharedBytesKey, launch.dynamic_shared_bytes}};
}

}  // namespace roofcast::profiler
