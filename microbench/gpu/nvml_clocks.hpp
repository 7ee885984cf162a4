#pragma once
// SM and memory clocks read from NVML while the suite runs. NVML is loaded at run time
// (libnvidia-ml.so.1, part of the NVIDIA driver), so the build needs no NVML headers and
// the benchmarks run without it: `available()` is then false and `problem()` says why.

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace roofcast::gpu {

class NvmlClockSampler {
 public:
  // Starts sampling every `period_ms` the device at `pci_bus_id` (as the runtime reports it).
  explicit NvmlClockSampler(const std::string& pci_bus_id, int period_ms = 10);
  NvmlClockSampler(const NvmlClockSampler&) = delete;
  NvmlClockSampler& operator=(const NvmlClockSampler&) = delete;
  ~NvmlClockSampler();

  bool available() const { return available_; }
  const std::string& problem() const { return problem_; }
  const std::string& driver_version() const { return driver_version_; }
  double max_sm_clock_mhz() const { return max_sm_mhz_; }
  double max_memory_clock_mhz() const { return max_memory_mhz_; }

  // Stops sampling; the samples stay readable.
  void stop();
  std::vector<double> sm_clock_samples() const;
  std::vector<double> memory_clock_samples() const;

 private:
  struct Api;
  void sample_loop(int period_ms);

  void* library_ = nullptr;
  Api* api_ = nullptr;
  void* device_ = nullptr;
  bool available_ = false;
  std::string problem_;
  std::string driver_version_;
  double max_sm_mhz_ = 0;
  double max_memory_mhz_ = 0;
  mutable std::mutex mutex_;
  std::vector<double> sm_samples_, memory_samples_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace roofcast::gpu
