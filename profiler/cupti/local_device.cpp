#include "local_device.hpp"

#include <cuda.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <fmt/format.h>

#include <dlfcn.h>

#include <stdexcept>

#include "cupti_status.hpp"

namespace roofcast::profiler {

namespace {

// The driver is opened at run time so that this program (and its offline --chip mode) also
// runs on machines with no NVIDIA driver, where it says so instead of failing to load.
struct Driver {
  CUresult (*init)(unsigned);
  CUresult (*get_count)(int*);
  CUresult (*get)(CUdevice*, int);
  CUresult (*get_name)(char*, int, CUdevice);
  CUresult (*retain)(CUcontext*, CUdevice);
  CUresult (*release)(CUdevice);
  CUresult (*set_current)(CUcontext);
  CUresult (*error_string)(CUresult, const char**);
};

template <typename F>
void bind(void* library, const char* symbol, F& function) {
  function = reinterpret_cast<F>(dlsym(library, symbol));
  if (function == nullptr) throw std::runtime_error(fmt::format("the NVIDIA driver library lacks {}", symbol));
}

const Driver& driver() {
  static const Driver loaded = [] {
    void* library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (library == nullptr) throw std::runtime_error("no NVIDIA GPU found (no NVIDIA driver: libcuda.so.1 is not installed)");
    Driver d{};
    bind(library, "cuInit", d.init);
    bind(library, "cuDeviceGetCount", d.get_count);
    bind(library, "cuDeviceGet", d.get);
    bind(library, "cuDeviceGetName", d.get_name);
    bind(library, "cuDevicePrimaryCtxRetain", d.retain);
    bind(library, "cuDevicePrimaryCtxRelease_v2", d.release);
    bind(library, "cuGetErrorString", d.error_string);
    bind(library, "cuCtxSetCurrent", d.set_current);
    return d;
  }();
  return loaded;
}

void check_driver(CUresult result, const char* call) {
  if (result == CUDA_SUCCESS) return;
  const char* text = nullptr;
  driver().error_string(result, &text);
  if (result == CUDA_ERROR_NO_DEVICE || result == CUDA_ERROR_INVALID_DEVICE)
    throw std::runtime_error(fmt::format("no NVIDIA GPU found ({}: {})", call, text ? text : "?"));
  throw std::runtime_error(fmt::format("{} failed: {}", call, text ? text : "unknown CUDA driver error"));
}

}  // namespace

LocalDevice open_local_device(int index) {
  LocalDevice device;
  device.index = index;
  check_driver(driver().init(0), "cuInit");
  int count = 0;
  check_driver(driver().get_count(&count), "cuDeviceGetCount");
  if (count == 0) throw std::runtime_error("no NVIDIA GPU found");
  if (index < 0 || index >= count)
    throw std::runtime_error(fmt::format("device index {} out of range: this machine has {} GPU(s)", index, count));
  CUdevice handle;
  check_driver(driver().get(&handle, index), "cuDeviceGet");
  char name[256] = {};
  check_driver(driver().get_name(name, sizeof name, handle), "cuDeviceGetName");
  device.name = name;

  CUcontext context;
  check_driver(driver().retain(&context, handle), "cuDevicePrimaryCtxRetain");
  check_driver(driver().set_current(context), "cuCtxSetCurrent");
  CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  check_cupti(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = static_cast<size_t>(index);
  check_cupti(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");
  device.chip = chip.pChipName;
  CUpti_Profiler_GetCounterAvailability_Params availability{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  availability.ctx = context;
  check_cupti(cuptiProfilerGetCounterAvailability(&availability), "cuptiProfilerGetCounterAvailability");
  device.counter_availability.resize(availability.counterAvailabilityImageSize);
  availability.pCounterAvailabilityImage = device.counter_availability.data();
  check_cupti(cuptiProfilerGetCounterAvailability(&availability), "cuptiProfilerGetCounterAvailability");
  CUpti_Profiler_DeInitialize_Params deinit{CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE};
  cuptiProfilerDeInitialize(&deinit);
  driver().release(handle);
  return device;
}

}  // namespace roofcast::profiler
