// The collector proper: loaded into the application's processes by the CUDA driver through
// CUDA_INJECTION64_PATH, configured by the environment the launcher sets
// (collector_protocol.hpp). One mode per run: "timing" (Activity API) or "counters" (Range
// Profiler). It never changes what the application computes or prints.
#include <cuda.h>
#include <cupti.h>
#include <cupti_target.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "counter_collector.hpp"
#include "cupti_status.hpp"
#include "launch_info.hpp"
#include "record_writer.hpp"
#include "roofcast/profiler/collector_protocol.hpp"
#include "roofcast/profiler/launch_filter.hpp"
#include "timing_collector.hpp"

namespace roofcast::profiler {
namespace {

struct Injection {
  std::string mode;
  int pid = 0;
  std::unique_ptr<RecordWriter> writer;
  std::unique_ptr<LaunchFilter> filter;
  std::unique_ptr<TimingCollector> timing;
  std::unique_ptr<CounterCollector> counters;
  bool counters_failed = false;
  std::mutex state_mutex;     // filter, device cache
  std::mutex range_mutex;     // one profiled launch at a time (held from launch entry to exit)
  std::map<CUcontext, int> device_of_context;
  std::string folder;
  int lock_fd = -1;           // counters.lock in the records folder, opened by this pid
  int lock_pid = 0;
  bool share_counters = false;
  uint64_t recorded = 0;
  bool ended = false;
};

Injection* g = nullptr;

// What a launch's entry callback hands to its exit callback.
struct PendingLaunch {
  uint64_t index;
  LaunchInfo launch;
  bool profiling;
};

// The GPU's counters serve one profiling session at a time, machine-wide: processes of one
// application take turns, one launch at a time, through a lock file in the records folder.
void lock_counters() {
  if (!g->share_counters) return;
  if (g->lock_pid != getpid()) {  // a forked child shares the parent's open file: open its own
    g->lock_pid = getpid();
    g->lock_fd = open((g->folder + "/counters.lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  }
  if (g->lock_fd >= 0) flock(g->lock_fd, LOCK_EX);
}

void unlock_counters() {
  if (g->lock_fd >= 0 && g->lock_pid == getpid()) flock(g->lock_fd, LOCK_UN);
}

const char* env(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

void report_error(const std::string& message) {
  g->writer->write({{"type", "error"}, {"message", message}});
}

int device_of(CUcontext context) {
  std::lock_guard lock(g->state_mutex);
  auto found = g->device_of_context.find(context);
  if (found != g->device_of_context.end()) return found->second;
  uint32_t device = 0;
  if (cuptiGetDeviceId(context, &device) != CUPTI_SUCCESS) device = 0;
  g->device_of_context[context] = static_cast<int>(device);
  return static_cast<int>(device);
}

void on_context_created(CUcontext context) {
  const int device = device_of(context);
  nlohmann::json record = {{"type", "device"}, {"index", device}};
  CUdevice handle;
  char name[256] = {};
  if (cuDeviceGet(&handle, device) == CUDA_SUCCESS && cuDeviceGetName(name, sizeof name, handle) == CUDA_SUCCESS)
    record["name"] = name;
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = static_cast<size_t>(device);
  if (cuptiDeviceGetChipName(&chip) == CUPTI_SUCCESS) record["chip"] = chip.pChipName;
  g->writer->write(record);
}

void on_launch_enter(CUpti_CallbackId cbid, const CUpti_CallbackData* data) {
  std::optional<LaunchInfo> launch = read_launch(cbid, data);
  if (!launch) return;
  launch->device = device_of(data->context);
  std::optional<uint64_t> index;
  {
    std::lock_guard lock(g->state_mutex);
    index = g->filter->admit(launch->demangled, launch->device);
  }
  if (!index) return;
  if (g->timing) {
    g->timing->on_launch(data->correlationId, *index, *launch);
    return;
  }
  auto* pending = new PendingLaunch{*index, std::move(*launch), false};
  *data->correlationData = reinterpret_cast<uint64_t>(pending);
  g->range_mutex.lock();
  if (g->counters_failed) return;
  lock_counters();
  try {
    g->counters->begin(data->context, pending->launch.device);
    pending->profiling = true;
  } catch (const std::exception& error) {
    g->counters_failed = true;
    report_error(error.what());
  }
}

void on_launch_exit(const CUpti_CallbackData* data) {
  if (g->timing || *data->correlationData == 0) return;
  std::unique_ptr<PendingLaunch> pending(reinterpret_cast<PendingLaunch*>(*data->correlationData));
  *data->correlationData = 0;
  if (pending->profiling) {
    try {
      g->counters->end(data->context, pending->index, pending->launch);
      ++g->recorded;
    } catch (const std::exception& error) {
      g->counters_failed = true;
      report_error(error.what());
    }
  }
  unlock_counters();  // harmless where this launch never took the lock
  g->range_mutex.unlock();
}

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* info) {
  if (g == nullptr || g->pid != getpid()) return;
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    const auto* resource = static_cast<const CUpti_ResourceData*>(info);
    if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
      on_context_created(resource->context);
    } else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
      if (g->timing) g->timing->flush();
      if (g->counters) {
        std::lock_guard lock(g->range_mutex);
        g->counters->release(resource->context);
      }
    }
    return;
  }
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API || !is_kernel_launch(cbid)) return;
  const auto* data = static_cast<const CUpti_CallbackData*>(info);
  if (data->callbackSite == CUPTI_API_ENTER)
    on_launch_enter(cbid, data);
  else
    on_launch_exit(data);
}

void finish(bool aborted) {
  if (g == nullptr || g->pid != getpid() || g->ended) return;
  g->ended = true;
  if (g->timing) g->timing->flush();
  const uint64_t launches = g->timing ? g->timing->recorded() : g->recorded;
  nlohmann::json end = {{"type", "end"}, {"launches", launches}, {"aborted", aborted}};
  if (g->timing) end["copies"] = g->timing->copies();
  g->writer->write(end);
}

void at_exit() { finish(false); }

struct sigaction g_previous_abort {};

void on_abort(int signal) {
  finish(true);
  sigaction(SIGABRT, &g_previous_abort, nullptr);
  raise(signal);
}

std::vector<std::string> split_metrics(const char* text) {
  std::vector<std::string> metrics;
  std::stringstream stream(text ? text : "");
  for (std::string item; std::getline(stream, item, ',');)
    if (!item.empty()) metrics.push_back(item);
  return metrics;
}

LaunchFilterSettings filter_from_environment() {
  LaunchFilterSettings settings;
  if (const char* regex = env(protocol::kKernelRegexVariable)) settings.name_regex = regex;
  if (const char* skip = env(protocol::kSkipVariable)) settings.skip = std::strtoull(skip, nullptr, 10);
  if (const char* count = env(protocol::kCountVariable)) settings.count = std::strtoull(count, nullptr, 10);
  if (const char* device = env(protocol::kDeviceVariable)) settings.device = std::atoi(device);
  return settings;
}

void subscribe() {
  CUpti_SubscriberHandle subscriber;
  CUpti_SubscriberParams params{CUpti_SubscriberParams_STRUCT_SIZE};
  params.subscriberName = "roofcast";
  char old_subscriber[CUPTI_OLD_SUBSCRIBER_NAME_MIN_LEN * 2] = {};
  params.oldSubscriberName = old_subscriber;
  params.oldSubscriberSize = sizeof old_subscriber;
  const CUptiResult status = cuptiSubscribe_v2(&subscriber, on_callback, nullptr, &params);
  if (status == CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED)
    throw std::runtime_error(fmt::format("cannot attach: {} already holds CUPTI (only one CUPTI client per "
                                         "process; run roofcast profile outside other profilers)",
                                         *old_subscriber ? old_subscriber : "another profiler"));
  check_cupti(status, "cuptiSubscribe_v2");
  check_cupti(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED),
              "cuptiEnableCallback(CONTEXT_CREATED)");
  check_cupti(
      cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING),
      "cuptiEnableCallback(CONTEXT_DESTROY_STARTING)");
  for (CUpti_CallbackId cbid :
       {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz})
    check_cupti(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid), "cuptiEnableCallback(launch)");
}

int initialize() {
  static std::mutex once_mutex;
  std::lock_guard lock(once_mutex);
  if (g != nullptr) return 1;
  g = new Injection;  // lives until the process ends: callbacks may come from any thread
  g->pid = getpid();
  const char* mode = env(protocol::kModeVariable);
  g->mode = mode ? mode : "timing";
  const char* folder = env(protocol::kOutputDirVariable);
  g->folder = folder ? folder : ".";
  g->writer = std::make_unique<RecordWriter>(g->folder, g->mode);
  try {
    g->filter = std::make_unique<LaunchFilter>(filter_from_environment());
    if (g->mode == "counters") {
      std::vector<std::string> metrics = split_metrics(env(protocol::kMetricsVariable));
      if (metrics.empty()) throw std::runtime_error(fmt::format("{} is empty", protocol::kMetricsVariable));
      const char* share = env(protocol::kShareCountersVariable);
      g->share_counters = share && std::strcmp(share, "1") == 0;
      g->counters = std::make_unique<CounterCollector>(*g->writer, std::move(metrics), g->share_counters);
    } else {
      g->timing = std::make_unique<TimingCollector>(*g->writer);
      g->timing->start();
    }
    subscribe();
  } catch (const std::exception& error) {
    report_error(error.what());
    g->counters.reset();
    g->counters_failed = true;
    return 1;  // the application runs on unprofiled
  }
  std::atexit(at_exit);
  struct sigaction action {};
  action.sa_handler = on_abort;
  sigemptyset(&action.sa_mask);
  sigaction(SIGABRT, &action, &g_previous_abort);
  return 1;
}

}  // namespace
}  // namespace roofcast::profiler

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  return roofcast::profiler::initialize();
}
