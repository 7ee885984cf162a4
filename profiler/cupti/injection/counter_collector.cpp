#include "counter_collector.hpp"

#include <chrono>

#include <cupti_profiler_target.h>
#include <cupti_target.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "cupti_status.hpp"
#include "driver_status.hpp"
#include "roofcast/formats/collector_record_fields.hpp"
#include "roofcast/profiler/launch_sample.hpp"

namespace roofcast::profiler {

CounterCollector::CounterCollector(RecordWriter& writer, std::vector<std::string> metrics, CacheControl cache_control)
    : writer_(writer), metrics_(std::move(metrics)), cache_control_(cache_control) {
  for (const auto& metric : metrics_) metric_pointers_.push_back(metric.c_str());
  // Kept as a switch for diagnosis: whether SetConfig is repeated after each counter-data reset.
  if (const char* value = std::getenv("ROOFCAST_PROFILE_RECONFIGURE"); value && std::strcmp(value, "0") == 0)
    reconfigure_after_reset_ = false;
  // And whether the L2 is emptied between replayed passes (CacheControl::all).
  if (const char* value = std::getenv("ROOFCAST_PROFILE_FLUSH"); value && std::strcmp(value, "0") == 0)
    flush_between_passes_ = false;
}

CounterCollector::~CounterCollector() = default;  // contexts are released by the driver at exit

CounterCollector::DeviceConfig& CounterCollector::config_for(CUcontext context, int device) {
  auto found = devices_.find(device);
  if (found != devices_.end()) return found->second;
  if (!profiler_initialized_) {  // needs an initialized driver: not possible during InitializeInjection
    CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
    check_cupti(cuptiProfilerInitialize(&init), "cuptiProfilerInitialize");
    profiler_initialized_ = true;
  }
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = static_cast<size_t>(device);
  check_cupti(cuptiDeviceGetChipName(&chip), "cuptiDeviceGetChipName");

  // What this context's GPU can collect (read before any profiling session is open on it).
  CUpti_Profiler_GetCounterAvailability_Params query{CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  query.ctx = context;
  check_cupti(cuptiProfilerGetCounterAvailability(&query), "cuptiProfilerGetCounterAvailability");
  std::vector<uint8_t> availability(query.counterAvailabilityImageSize);
  query.pCounterAvailabilityImage = availability.data();
  check_cupti(cuptiProfilerGetCounterAvailability(&query), "cuptiProfilerGetCounterAvailability");

  DeviceConfig config;
  config.host = std::make_unique<HostMetrics>(chip.pChipName, availability);
  config.config_image = config.host->config_image(metrics_);
  config.passes = HostMetrics::passes(config.config_image);
  writer_.write({{collector_record::kType, collector_record::kConfig},
                 {collector_record::kDeviceKey, device},
                 {collector_record::kChipKey, chip.pChipName},
                 {collector_record::kPassesKey, config.passes},
                 {collector_record::kMetricsKey, metrics_}});
  return devices_.emplace(device, std::move(config)).first->second;
}

void CounterCollector::configure(ContextProfiler& profiler) {
  CUpti_RangeProfiler_SetConfig_Params set{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
  set.pRangeProfilerObject = profiler.object;
  set.configSize = profiler.config->config_image.size();
  set.pConfig = profiler.config->config_image.data();
  set.counterDataImageSize = profiler.counter_data.size();
  set.pCounterDataImage = profiler.counter_data.data();
  set.range = CUPTI_AutoRange;
  set.replayMode = cache_control_ == CacheControl::all ? CUPTI_UserReplay : CUPTI_KernelReplay;
  set.maxRangesPerPass = 1;
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.passIndex = 0;
  set.targetNestingLevel = 1;
  check_cupti(cuptiRangeProfilerSetConfig(&set), "cuptiRangeProfilerSetConfig");
}

CounterCollector::ContextProfiler& CounterCollector::enable(CUcontext context, int device) {
  if (active_ != nullptr && active_ != context) disable(active_);
  auto found = contexts_.find(context);
  if (found != contexts_.end()) return found->second;

  DeviceConfig& config = config_for(context, device);
  ContextProfiler profiler;
  profiler.config = &config;
  CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
  enable.ctx = context;
  check_cupti(cuptiRangeProfilerEnable(&enable), "cuptiRangeProfilerEnable");
  profiler.object = enable.pRangeProfilerObject;

  CUpti_RangeProfiler_GetCounterDataSize_Params size{CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
  size.pRangeProfilerObject = profiler.object;
  size.pMetricNames = metric_pointers_.data();
  size.numMetrics = metric_pointers_.size();
  size.maxNumOfRanges = 1;
  size.maxNumRangeTreeNodes = 1;
  check_cupti(cuptiRangeProfilerGetCounterDataSize(&size), "cuptiRangeProfilerGetCounterDataSize");
  profiler.counter_data.resize(size.counterDataSize);

  CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  init.pRangeProfilerObject = profiler.object;
  init.counterDataSize = profiler.counter_data.size();
  init.pCounterData = profiler.counter_data.data();
  check_cupti(cuptiRangeProfilerCounterDataImageInitialize(&init), "cuptiRangeProfilerCounterDataImageInitialize");
  configure(profiler);
  active_ = context;
  return contexts_.emplace(context, std::move(profiler)).first->second;
}

void CounterCollector::disable(CUcontext context) {
  auto found = contexts_.find(context);
  if (found == contexts_.end()) return;
  CUpti_RangeProfiler_Disable_Params params{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
  params.pRangeProfilerObject = found->second.object;
  cuptiRangeProfilerDisable(&params);
  contexts_.erase(found);
  if (active_ == context) active_ = nullptr;
}

void CounterCollector::give_back() {
  while (!contexts_.empty()) {
    const CUcontext context = contexts_.begin()->first;
    // From the collector's watcher thread, which has no current context.
    const bool pushed = cuCtxPushCurrent(context) == CUDA_SUCCESS;
    disable(context);
    CUcontext popped = nullptr;
    if (pushed) cuCtxPopCurrent(&popped);
  }
}

void CounterCollector::release(CUcontext context) {
  disable(context);
  replay_tools_.erase(context);
}

void CounterCollector::begin(CUcontext context, int device) {
  try {
    start(context, device);
  } catch (const CuptiError&) {
    // Once more from a fresh Range Profiler session on this context before giving up.
    if (contexts_.find(context) == contexts_.end()) throw;
    disable(context);
    start(context, device);
  }
}

CounterCollector::ContextProfiler& CounterCollector::prepare(CUcontext context, int device) {
  ContextProfiler& profiler = enable(context, device);
  if (profiler.needs_reset) {
    CUpti_RangeProfiler_CounterDataImage_Initialize_Params init{
        CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    init.pRangeProfilerObject = profiler.object;
    init.counterDataSize = profiler.counter_data.size();
    init.pCounterData = profiler.counter_data.data();
    check_cupti(cuptiRangeProfilerCounterDataImageInitialize(&init), "cuptiRangeProfilerCounterDataImageInitialize");
    if (reconfigure_after_reset_) configure(profiler);
    profiler.needs_reset = false;
  }
  return profiler;
}

void CounterCollector::start(CUcontext context, int device) {
  ContextProfiler& profiler = prepare(context, device);
  CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
  start.pRangeProfilerObject = profiler.object;
  check_cupti(cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart");
}

CounterCollector::ReplayTools& CounterCollector::replay_tools(CUcontext context, int device) {
  ReplayTools& tools = replay_tools_[context];
  if (!tools.flush) {
    CUdevice handle;
    check_driver(cuDeviceGet(&handle, device), "cuDeviceGet");
    tools.flush = std::make_unique<L2Flush>(context, handle);
    tools.checkpoint = std::make_unique<DeviceCheckpoint>(context);
  }
  return tools;
}

void CounterCollector::collect(CUcontext context, int device, const KernelRelaunch& relaunch, uint64_t index,
                               const LaunchInfo& launch) {
  // Where the time of a profiled launch goes (written with its record: docs/profiler.md).
  using Clock = std::chrono::steady_clock;
  std::map<std::string, double> cost_ns;
  auto lap = [&, last = Clock::now()](const char* part) mutable {
    const auto now = Clock::now();
    cost_ns[part] += std::chrono::duration<double, std::nano>(now - last).count();
    last = now;
  };
  ReplayTools& tools = replay_tools(context, device);
  check_driver(cuCtxSynchronize(), "cuCtxSynchronize (before saving device memory)");
  lap("setup");
  tools.checkpoint->save();
  lap("checkpoint_save");
  ContextProfiler& profiler = prepare(context, device);
  lap("setup");
  const size_t passes = profiler.config->passes;
  bool started = false;
  try {
    for (size_t pass = 0;; ++pass) {
      if (pass > 0) tools.checkpoint->restore();
      lap("checkpoint_restore");
      if (flush_between_passes_) tools.flush->run(relaunch.stream());
      lap("l2_flush");
      CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
      start.pRangeProfilerObject = profiler.object;
      check_cupti(cuptiRangeProfilerStart(&start), "cuptiRangeProfilerStart");
      started = true;
      relaunch.launch();
      check_driver(cuStreamSynchronize(relaunch.stream()), "cuStreamSynchronize (after a replayed pass)");
      CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
      stop.pRangeProfilerObject = profiler.object;
      started = false;
      check_cupti(cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop");
      lap("passes");
      if (stop.isAllPassSubmitted) break;
      if (pass + 1 >= passes + 2)
        throw std::runtime_error(fmt::format("the Range Profiler still wants passes after {} (the metric set needs {})",
                                             pass + 1, passes));
    }
  } catch (...) {
    // Leave the application's data as it was before this launch, whatever failed.
    if (started) {
      CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
      stop.pRangeProfilerObject = profiler.object;
      cuptiRangeProfilerStop(&stop);
    }
    cuCtxSynchronize();
    try {
      tools.checkpoint->restore();
    } catch (...) {
    }
    throw;
  }
  tools.checkpoint->restore();  // the application's own launch runs next, on the saved data
  lap("checkpoint_restore");
  if (flush_before_application_) {
    tools.flush->run(relaunch.stream());
    lap("l2_flush");
  }
  record(profiler, index, launch, &cost_ns);
}

void CounterCollector::end(CUcontext context, uint64_t index, const LaunchInfo& launch) {
  auto found = contexts_.find(context);
  if (found == contexts_.end()) throw std::runtime_error("launch exit on a context with no range profiler");
  ContextProfiler& profiler = found->second;
  CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
  stop.pRangeProfilerObject = profiler.object;
  check_cupti(cuptiRangeProfilerStop(&stop), "cuptiRangeProfilerStop");
  record(profiler, index, launch);
}

void CounterCollector::record(ContextProfiler& profiler, uint64_t index, const LaunchInfo& launch,
                              std::map<std::string, double>* cost_ns) {
  const auto decode_start = std::chrono::steady_clock::now();
  last_instruction_counts_.clear();
  CUpti_RangeProfiler_DecodeData_Params decode{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  decode.pRangeProfilerObject = profiler.object;
  check_cupti(cuptiRangeProfilerDecodeData(&decode), "cuptiRangeProfilerDecodeData");
  profiler.needs_reset = true;

  CUpti_RangeProfiler_GetCounterDataInfo_Params info{CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = profiler.counter_data.data();
  info.counterDataImageSize = profiler.counter_data.size();
  check_cupti(cuptiRangeProfilerGetCounterDataInfo(&info), "cuptiRangeProfilerGetCounterDataInfo");
  if (info.numTotalRanges != 1 || decode.numOfRangeDropped != 0) {
    writer_.write({{collector_record::kType, collector_record::kWarning},
                   {collector_record::kMessageKey,
                    fmt::format("launch {} of {}: {} ranges decoded, {} dropped; no counters for it", index,
                                launch.demangled, info.numTotalRanges, decode.numOfRangeDropped)}});
    return;
  }
  const std::vector<double> values = profiler.config->host->evaluate(profiler.counter_data, 0, metrics_);
  nlohmann::json metrics = nlohmann::json::object();
  for (size_t i = 0; i < metrics_.size(); ++i) {
    metrics[metrics_[i]] = values[i];
    if (is_instruction_metric(metrics_[i])) last_instruction_counts_.push_back(values[i]);
  }
  nlohmann::json line = launch_record(launch, index);
  line[collector_record::kMetricsKey] = metrics;
  if (cost_ns != nullptr) {
    (*cost_ns)["decode"] =
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - decode_start).count();
    line[collector_record::kCostNsKey] = *cost_ns;
  }
  writer_.write(line);
}

}  // namespace roofcast::profiler
