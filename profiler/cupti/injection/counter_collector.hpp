#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <cupti_range_profiler.h>

#include "device_checkpoint.hpp"
#include "host_metrics.hpp"
#include "kernel_relaunch.hpp"
#include "l2_flush.hpp"
#include "launch_info.hpp"
#include "record_writer.hpp"

namespace roofcast::profiler {

// How each recorded launch is replayed until every pass is collected.
enum class CacheControl {
  // Like Nsight Compute's default: the collector replays the launch itself (Range Profiler in
  // user-replay mode), restoring device memory and emptying the L2 before every pass, so DRAM
  // and L2 counters count the kernel's own traffic from a cold L2. Then it restores memory once
  // more and lets the application's launch run, unprofiled.
  all,
  // CUPTI's kernel replay: each pass starts from whatever the memory restore left in the L2.
  none,
};

// The counter run: the Range Profiler in auto range around each recorded launch, so every
// launch is its own range.
class CounterCollector {
 public:
  CounterCollector(RecordWriter& writer, std::vector<std::string> metrics, CacheControl cache_control);
  ~CounterCollector();

  CacheControl cache_control() const { return cache_control_; }
  // The single run (--single-run) times the application's own launch after collect(): empty
  // the L2 once more after the last restore, so that it starts from a cold L2 as ncu measures
  // it, not from whatever the restore left there.
  void flush_before_application(bool flush) { flush_before_application_ = flush; }

  // CacheControl::all, at launch entry: all passes of `launch`, then the memory restored; throws.
  void collect(CUcontext context, int device, const KernelRelaunch& relaunch, uint64_t index,
               const LaunchInfo& launch);
  // CacheControl::none: Start at launch entry, Stop + decode + record at launch exit; throw.
  void begin(CUcontext context, int device);
  void end(CUcontext context, uint64_t index, const LaunchInfo& launch);
  // The instruction counters (`*inst_executed*`, in metric order) of the last launch recorded;
  // empty when it got none.
  const std::vector<double>& last_instruction_counts() const { return last_instruction_counts_; }
  void release(CUcontext context);  // context is being destroyed
  // Closes every Range Profiler session, so that another process can take the GPU's counters
  // (counter_turns.hpp); the next launch opens them again.
  void give_back();

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

  // What replaying in the collector needs per context; kept while the context lives.
  struct ReplayTools {
    std::unique_ptr<L2Flush> flush;
    std::unique_ptr<DeviceCheckpoint> checkpoint;
  };

  DeviceConfig& config_for(CUcontext context, int device);
  ContextProfiler& enable(CUcontext context, int device);
  void configure(ContextProfiler& profiler);
  ContextProfiler& prepare(CUcontext context, int device);  // enabled, counter data reset
  void start(CUcontext context, int device);
  // `cost_ns`: where the launch's time went (CacheControl::all), written with its record.
  void record(ContextProfiler& profiler, uint64_t index, const LaunchInfo& launch,
              std::map<std::string, double>* cost_ns = nullptr);
  ReplayTools& replay_tools(CUcontext context, int device);
  void disable(CUcontext context);

  RecordWriter& writer_;
  std::vector<std::string> metrics_;
  std::vector<double> last_instruction_counts_;
  std::vector<const char*> metric_pointers_;
  bool reconfigure_after_reset_ = true;
  bool flush_between_passes_ = true;
  bool flush_before_application_ = false;
  bool profiler_initialized_ = false;
  CacheControl cache_control_ = CacheControl::all;
  std::map<CUcontext, ReplayTools> replay_tools_;
  std::map<int, DeviceConfig> devices_;
  std::map<CUcontext, ContextProfiler> contexts_;
  CUcontext active_ = nullptr;  // the Range Profiler runs on one context at a time
};

}  // namespace roofcast::profiler
