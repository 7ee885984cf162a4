#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <cupti_range_profiler.h>

#include "host_metrics.hpp"
#include "launch_info.hpp"
#include "record_writer.hpp"

namespace roofcast::profiler {

// The counter run: the Range Profiler in auto-range + kernel-replay mode around each recorded
// launch (Start at the launch callback's entry, Stop + decode + evaluate at its exit), so every
// launch is its own range and CUPTI replays it until all passes are collected.
class CounterCollector {
 public:
  // `share`: release the GPU's counters after every launch (several processes profile in turns).
  CounterCollector(RecordWriter& writer, std::vector<std::string> metrics, bool share);
  ~CounterCollector();

  void begin(CUcontext context, int device);                           // at launch entry; throws
  void end(CUcontext context, uint64_t index, const LaunchInfo& launch);  // at launch exit; throws
  void release(CUcontext context);                                     // context is being destroyed

 private:
  struct DeviceConfig {
    std::unique_ptr<HostMetrics> host;
    std::vector<uint8_t> config_image;
    size_t passes = 0;
  };
  struct ContextProfiler {
    CUpti_RangeProfiler_Object* object = nullptr;
    std::vector<uint8_t> counter_data;
    DeviceConfig* config = nullptr;
    bool needs_reset = false;
  };

  DeviceConfig& config_for(CUcontext context, int device);
  ContextProfiler& enable(CUcontext context, int device);
  void configure(ContextProfiler& profiler);
  void start(CUcontext context, int device);
  void disable(CUcontext context);

  RecordWriter& writer_;
  std::vector<std::string> metrics_;
  std::vector<const char*> metric_pointers_;
  bool reconfigure_after_reset_ = true;
  bool profiler_initialized_ = false;
  bool share_ = false;
  std::map<int, DeviceConfig> devices_;
  std::map<CUcontext, ContextProfiler> contexts_;
  CUcontext active_ = nullptr;  // the Range Profiler runs on one context at a time
};

}  // namespace roofcast::profiler
