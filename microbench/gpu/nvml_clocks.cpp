#include "nvml_clocks.hpp"

#include <dlfcn.h>

#include <chrono>

namespace roofcast::gpu {

// The few NVML entry points used, declared as NVML's public header declares them.
struct NvmlClockSampler::Api {
  using Return = int;  // nvmlReturn_t; 0 is NVML_SUCCESS
  using Device = void*;
  static constexpr int kClockSm = 1;   // NVML_CLOCK_SM
  static constexpr int kClockMem = 2;  // NVML_CLOCK_MEM
  Return (*init)() = nullptr;
  Return (*shutdown)() = nullptr;
  Return (*handle_by_pci_bus_id)(const char*, Device*) = nullptr;
  Return (*clock_info)(Device, int, unsigned*) = nullptr;
  Return (*max_clock_info)(Device, int, unsigned*) = nullptr;
  Return (*driver_version)(char*, unsigned) = nullptr;
};

namespace {
template <typename F>
bool load(void* library, const char* name, F& function) {
  function = reinterpret_cast<F>(dlsym(library, name));
  return function != nullptr;
}
}  // namespace

NvmlClockSampler::NvmlClockSampler(const std::string& pci_bus_id, int period_ms) {
  library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!library_) {
    problem_ = "libnvidia-ml.so.1 not found (no NVIDIA driver's NVML)";
    return;
  }
  api_ = new Api;
  if (!load(library_, "nvmlInit_v2", api_->init) || !load(library_, "nvmlShutdown", api_->shutdown) ||
      !load(library_, "nvmlDeviceGetHandleByPciBusId_v2", api_->handle_by_pci_bus_id) ||
      !load(library_, "nvmlDeviceGetClockInfo", api_->clock_info) ||
      !load(library_, "nvmlDeviceGetMaxClockInfo", api_->max_clock_info) ||
      !load(library_, "nvmlSystemGetDriverVersion", api_->driver_version)) {
    problem_ = "libnvidia-ml.so.1 lacks an expected function";
    return;
  }
  if (api_->init() != 0) {
    problem_ = "nvmlInit failed";
    api_->init = nullptr;
    return;
  }
  Api::Device device = nullptr;
  if (api_->handle_by_pci_bus_id(pci_bus_id.c_str(), &device) != 0) {
    problem_ = "NVML does not know the device at PCI " + pci_bus_id;
    return;
  }
  device_ = device;
  char version[96] = {};
  if (api_->driver_version(version, sizeof version) == 0) driver_version_ = version;
  unsigned mhz = 0;
  if (api_->max_clock_info(device_, Api::kClockSm, &mhz) == 0) max_sm_mhz_ = mhz;
  if (api_->max_clock_info(device_, Api::kClockMem, &mhz) == 0) max_memory_mhz_ = mhz;
  available_ = true;
  thread_ = std::thread([this, period_ms] { sample_loop(period_ms); });
}

void NvmlClockSampler::sample_loop(int period_ms) {
  while (!stopping_) {
    unsigned sm = 0, memory = 0;
    const bool ok = api_->clock_info(device_, Api::kClockSm, &sm) == 0 &&
                    api_->clock_info(device_, Api::kClockMem, &memory) == 0;
    if (ok) {
      std::lock_guard lock(mutex_);
      sm_samples_.push_back(sm);
      memory_samples_.push_back(memory);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(period_ms));
  }
}

void NvmlClockSampler::stop() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
}

std::vector<double> NvmlClockSampler::sm_clock_samples() const {
  std::lock_guard lock(mutex_);
  return sm_samples_;
}

std::vector<double> NvmlClockSampler::memory_clock_samples() const {
  std::lock_guard lock(mutex_);
  return memory_samples_;
}

NvmlClockSampler::~NvmlClockSampler() {
  stop();
  if (api_ && api_->init && api_->shutdown) api_->shutdown();
  delete api_;
  if (library_) dlclose(library_);
}

}  // namespace roofcast::gpu
