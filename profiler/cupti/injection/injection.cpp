// The collector proper: loaded into the application's processes by the CUDA driver through
// CUDA_INJECTION64_PATH, configured by the environment the launcher sets
// (collector_protocol.hpp). One mode per run: "timing" (Activity API), "counters" (Range
// Profiler), or "single" (both in one run: --single-run). It never changes what the application
// computes or prints.
#include <cuda.h>
#include <cupti.h>
#include <cupti_target.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "counter_collector.hpp"
#include "counter_turns.hpp"
#include "cupti_status.hpp"
#include "device_checkpoint.hpp"
#include "driver_status.hpp"
#include "graph_walk.hpp"
#include "kernel_relaunch.hpp"
#include "launch_info.hpp"
#include "record_writer.hpp"
#include "roofcast/formats/collector_record_fields.hpp"
#include "roofcast/profiler/collector_protocol.hpp"
#include "roofcast/profiler/launch_filter.hpp"
#include "roofcast/profiler/launch_sample.hpp"
#include "roofcast/profiler/process_clock.hpp"
#include "timing_collector.hpp"

namespace roofcast::profiler {
namespace {

struct Injection {
  std::string mode;
  int pid = 0;
  std::unique_ptr<RecordWriter> writer;         // the mode's records (the counter records in "single")
  std::unique_ptr<RecordWriter> timing_writer;  // "single": the timing records, in a file of their own
  std::unique_ptr<LaunchFilter> filter;
  std::unique_ptr<LaunchSampler> sampler;  // counter run with --sample N
  int sampler_pid = 0;
  // The first run's spread (LaunchSampler::spread_in_run): what profiling has taken in this
  // process, and when it started (on the boot clock; where its start cannot be read, when the
  // collector started in it).
  double profiling_seconds = 0;
  double started = 0;
  std::set<SampleShape> unplanned_reported;  // ROOFCAST_PROFILE_DEBUG
  std::unique_ptr<TimingCollector> timing;
  std::unique_ptr<CounterCollector> counters;
  bool counters_failed = false;
  // std::mutex, not oneTBB: the collector runs inside the profiled application, on the threads
  // CUDA calls it from; it starts no pool of its own there, it only keeps them from interleaving.
  std::mutex state_mutex;     // filter, device cache
  std::mutex range_mutex;     // one profiled launch at a time (held from launch entry to exit)
  std::map<CUcontext, int> device_of_context;
  std::string folder;
  std::unique_ptr<CounterTurns> turns;  // where processes of the application share the counters
  uint64_t recorded = 0;
  bool ended = false;
  bool graph_warned = false;
  // Counter run: a copy of each instantiated graph (the application may destroy its graph once
  // instantiated), and the memory saved before a graph launch is walked node by node.
  std::map<CUgraphExec, CUgraph> graphs;
  std::map<CUcontext, std::unique_ptr<DeviceCheckpoint>> graph_checkpoints;
};

Injection* g = nullptr;

// Where timing records go: their own file in the single run.
RecordWriter& timing_writer() { return g->timing_writer ? *g->timing_writer : *g->writer; }
constexpr uint64_t kProgressEvery = 1000;  // timing run: a progress record per this many launches

// Set while this thread replays a launch: the collector's own launches (the replays, the L2
// flush kernels) reach the callback too and are not the application's.
thread_local bool t_replaying = false;

// What a launch's entry callback hands to its exit callback.
struct PendingLaunch {
  uint64_t index;
  LaunchInfo launch;
  bool profiling;
};

// Before a profiled launch, with range_mutex held: where processes of the application share the
// GPU's counters, wait for this one's turn (counter_turns.hpp).
void take_counters() {
  if (g->turns) g->turns->take();
}

// The watcher's answer to another process asking for the counters: after the launch in progress.
void give_counters_back() {
  std::lock_guard range(g->range_mutex);
  if (!g->turns->held()) return;
  g->counters->give_back();
  g->turns->let_go();
}

const char* env(const char* name) {
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

void report_error(const std::string& message) {
  g->writer->write({{collector_record::kType, collector_record::kError}, {collector_record::kMessageKey, message}});
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void start_own_clock() {
  g->profiling_seconds = 0;
  g->started = process_start_seconds().value_or(boot_clock_seconds());
}

// This process' run time so far, less what profiling its launches took: what running it again costs.
double own_seconds() { return std::max(0.0, boot_clock_seconds() - g->started - g->profiling_seconds); }

// Whether the counter run profiles this admitted launch (--sample); the caller holds state_mutex.
bool sampled(const LaunchInfo& launch) {
  if (!g->sampler) return true;
  if (g->sampler_pid != getpid()) {
    g->sampler->restart();
    g->sampler_pid = getpid();
    start_own_clock();
  }
  const SampleShape shape{launch.name, launch.grid, launch.block};
  // Diagnosis: a shape the counter run's plan lacks, once.
  if (g->sampler->has_plan() && env("ROOFCAST_PROFILE_DEBUG") && !g->sampler->planned(shape) &&
      g->unplanned_reported.insert(shape).second)
    g->writer->write({{collector_record::kType, collector_record::kDebug},
                      {"unplanned_shape", launch.name},
                      {collector_record::kGridKey, launch.grid},
                      {collector_record::kBlockKey, launch.block}});
  return g->sampler->take(shape, own_seconds());
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
  nlohmann::json record = {{collector_record::kType, collector_record::kDevice}, {collector_record::kIndexKey, device}};
  CUdevice handle;
  char name[256] = {};
  if (cuDeviceGet(&handle, device) == CUDA_SUCCESS && cuDeviceGetName(name, sizeof name, handle) == CUDA_SUCCESS)
    record[collector_record::kNameKey] = name;
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = static_cast<size_t>(device);
  if (cuptiDeviceGetChipName(&chip) == CUPTI_SUCCESS) record[collector_record::kChipKey] = chip.pChipName;
  g->writer->write(record);
  if (g->timing_writer) g->timing_writer->write(record);
}

// CacheControl::all: the whole counter collection happens at the launch's entry.
void collect_at_entry(CUpti_CallbackId cbid, const CUpti_CallbackData* data, uint64_t index, const LaunchInfo& launch) {
  std::lock_guard range(g->range_mutex);
  if (g->counters_failed) return;
  take_counters();
  t_replaying = true;
  try {
    if (g->timing) g->timing->pause();  // the single run: the replays are not the application's
    const KernelRelaunch relaunch(cbid, data->functionParams);
    const auto start = std::chrono::steady_clock::now();
    g->counters->collect(data->context, launch.device, relaunch, index, launch);
    const double cost = seconds_since(start);
    ++g->recorded;
    if (g->sampler) {
      std::lock_guard lock(g->state_mutex);
      g->profiling_seconds += cost;
      g->sampler->observe({launch.name, launch.grid, launch.block}, g->counters->last_instruction_counts(), cost);
    }
    if (env("ROOFCAST_PROFILE_DEBUG"))  // diagnosis: how the application launched it
      g->writer->write({{collector_record::kType, collector_record::kDebug},
                        {collector_record::kIndexKey, index},
                        {collector_record::kNameKey, launch.name},
                        {collector_record::kCbidKey, cbid},
                        {collector_record::kLaunchAttributesKey, relaunch.attribute_ids()}});
    if (g->timing) g->timing->resume();
  } catch (const std::exception& error) {
    if (g->timing) {
      try {
        g->timing->resume();
      } catch (const std::exception&) {
      }
    }
    g->counters_failed = true;
    report_error(fmt::format("launch {} of {}: {} (replaying with an L2 flush needs device memory for a copy of "
                             "the application's data and a scratch buffer; --cache-control none uses CUPTI's "
                             "kernel replay instead)",
                             index, launch.demangled, error.what()));
  }
  t_replaying = false;
}

void on_launch_enter(CUpti_CallbackId cbid, const CUpti_CallbackData* data) {
  std::optional<LaunchInfo> launch = read_launch(cbid, data);
  if (!launch) return;
  // A launch into a stream being captured only adds a node to a graph; it runs later, with
  // the graph.
  if (KernelRelaunch(cbid, data->functionParams).stream_is_capturing()) return;
  launch->device = device_of(data->context);
  std::optional<uint64_t> index;
  bool count = false;  // the counter collector profiles this launch
  {
    std::lock_guard lock(g->state_mutex);
    index = g->filter->admit(launch->demangled, launch->device);
    count = index && g->counters && !g->counters_failed && sampled(*launch);
  }
  if (!index) return;
  if (g->timing) {
    g->timing->on_launch(data->correlationId, *index, *launch);
    // Activity records arrive by the buffer: the launcher's progress line counts these.
    if ((*index + 1) % kProgressEvery == 0)
      timing_writer().write(
          {{collector_record::kType, collector_record::kProgress}, {collector_record::kLaunchesSeenKey, *index + 1}});
  }
  if (!count) return;
  if (g->counters->cache_control() == CacheControl::all) {
    collect_at_entry(cbid, data, *index, *launch);
    return;
  }
  auto* pending = new PendingLaunch{*index, std::move(*launch), false};
  *data->correlationData = reinterpret_cast<uint64_t>(pending);
  g->range_mutex.lock();
  if (g->counters_failed) return;
  take_counters();
  try {
    g->counters->begin(data->context, pending->launch.device);
    pending->profiling = true;
  } catch (const std::exception& error) {
    g->counters_failed = true;
    report_error(error.what());
  }
}

bool is_graph_launch(CUpti_CallbackId cbid) {
  return cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch || cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz;
}

CUstream graph_launch_stream(CUpti_CallbackId cbid, const CUpti_CallbackData* data) {
  const auto* params = static_cast<const cuGraphLaunch_params*>(data->functionParams);
  if (params->hStream == nullptr && cbid == CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz) return CU_STREAM_PER_THREAD;
  return params->hStream;
}

bool stream_is_capturing(CUstream stream) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  const CUresult result = cuStreamIsCapturing(stream, &status);
  return result == CUDA_ERROR_STREAM_CAPTURE_IMPLICIT || (result == CUDA_SUCCESS && status != CU_STREAM_CAPTURE_STATUS_NONE);
}

void on_graph_instantiated(const CUpti_ResourceData* resource) {
  const auto* graph = static_cast<const CUpti_GraphData*>(resource->resourceDescriptor);
  if (graph == nullptr || graph->graph == nullptr || graph->graphExec == nullptr) return;
  CUgraph copy = nullptr;
  t_replaying = true;  // the clone's own callbacks are ours
  const CUresult result = cuGraphClone(&copy, graph->graph);
  t_replaying = false;
  std::lock_guard lock(g->state_mutex);
  if (result == CUDA_SUCCESS) g->graphs[graph->graphExec] = copy;
}

void on_graph_exec_destroyed(const CUpti_ResourceData* resource) {
  const auto* graph = static_cast<const CUpti_GraphData*>(resource->resourceDescriptor);
  if (graph == nullptr) return;
  std::lock_guard lock(g->state_mutex);
  auto found = g->graphs.find(graph->graphExec);
  if (found == g->graphs.end()) return;
  cuGraphDestroy(found->second);
  g->graphs.erase(found);
}

// The counter run's answer to a graph launch: each kernel node is profiled as a launch of its
// own, in dependency order, from the data the nodes before it leave (each node runs once more,
// unprofiled, after its passes); then device memory is restored and the application's graph
// launch runs as usual.
void walk_graph(CUpti_CallbackId cbid, const CUpti_CallbackData* data) {
  const CUstream stream = graph_launch_stream(cbid, data);
  if (stream_is_capturing(stream)) return;
  const auto exec = static_cast<const cuGraphLaunch_params*>(data->functionParams)->hGraph;
  CUgraph graph = nullptr;
  {
    std::lock_guard lock(g->state_mutex);
    auto found = g->graphs.find(exec);
    if (found != g->graphs.end()) graph = found->second;
  }
  if (graph == nullptr) {
    g->writer->write({{collector_record::kType, collector_record::kWarning},
                      {collector_record::kMessageKey,
                       "a CUDA graph launch of a graph instantiated before the "
                       "collector was loaded: its kernels get no counters"}});
    return;
  }
  std::lock_guard range(g->range_mutex);
  if (g->counters_failed) return;
  std::vector<CUgraphNode> nodes;
  try {
    nodes = nodes_in_dependency_order(graph);
    if (const auto why = unsupported_node(nodes)) throw std::runtime_error(*why);
  } catch (const std::exception& error) {
    g->writer->write({{collector_record::kType, collector_record::kWarning},
                      {collector_record::kMessageKey,
                       fmt::format("a CUDA graph launch with {}: its kernels get no counters", error.what())}});
    return;
  }
  take_counters();
  t_replaying = true;
  bool saved = false;
  try {
    auto& checkpoint = g->graph_checkpoints[data->context];
    if (!checkpoint) checkpoint = std::make_unique<DeviceCheckpoint>(data->context);
    check_driver(cuCtxSynchronize(), "cuCtxSynchronize (before a graph launch)");
    checkpoint->save();
    saved = true;
    for (const CUgraphNode node : nodes) {
      CUgraphNodeType type;
      check_driver(cuGraphNodeGetType(node, &type), "cuGraphNodeGetType");
      if (type != CU_GRAPH_NODE_TYPE_KERNEL) {
        run_non_kernel_node(node, stream);
        continue;
      }
      CUDA_KERNEL_NODE_PARAMS params{};
      check_driver(cuGraphKernelNodeGetParams(node, &params), "cuGraphKernelNodeGetParams");
      const KernelRelaunch relaunch(params, stream);
      const LaunchInfo launch = kernel_node_launch(relaunch, device_of(data->context));
      std::optional<uint64_t> index;
      {
        std::lock_guard lock(g->state_mutex);
        index = g->filter->admit(launch.demangled, launch.device);
        if (index && !sampled(launch)) index.reset();
      }
      if (index && g->counters->cache_control() == CacheControl::none) {
        // CUPTI's kernel replay leaves the memory as one run of the node would.
        g->counters->begin(data->context, launch.device);
        relaunch.launch();
        check_driver(cuStreamSynchronize(stream), "cuStreamSynchronize (after a graph kernel node)");
        g->counters->end(data->context, *index, launch);
        ++g->recorded;
        continue;
      }
      if (index) {
        g->counters->collect(data->context, launch.device, relaunch, *index, launch);
        ++g->recorded;
      }
      relaunch.launch();  // what the graph would have done: the next node's input
      check_driver(cuStreamSynchronize(stream), "cuStreamSynchronize (after a graph kernel node)");
    }
    checkpoint->restore();  // the application's graph launch runs next, on the saved data
  } catch (const std::exception& error) {
    g->counters_failed = true;
    report_error(fmt::format("a CUDA graph launch: {}", error.what()));
    cuCtxSynchronize();
    try {  // the application's data as it was before the graph launch
      if (saved) g->graph_checkpoints[data->context]->restore();
    } catch (const std::exception&) {
    }
  }
  t_replaying = false;
}

void on_launch_exit(const CUpti_CallbackData* data) {
  if (!g->counters || *data->correlationData == 0) return;
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
  g->range_mutex.unlock();
}

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* info) {
  if (g == nullptr || g->pid != getpid() || t_replaying) return;
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    const auto* resource = static_cast<const CUpti_ResourceData*>(info);
    if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED) {
      on_context_created(resource->context);
    } else if (cbid == CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED) {
      if (g->counters) on_graph_instantiated(resource);
    } else if (cbid == CUPTI_CBID_RESOURCE_GRAPHEXEC_DESTROY_STARTING) {
      if (g->counters) on_graph_exec_destroyed(resource);
    } else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING) {
      if (g->timing) g->timing->flush();
      if (g->counters) {
        std::lock_guard lock(g->range_mutex);
        g->counters->release(resource->context);
        g->graph_checkpoints.erase(resource->context);
      }
    }
    return;
  }
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  const auto* data = static_cast<const CUpti_CallbackData*>(info);
  if (is_graph_launch(cbid)) {
    if (data->callbackSite != CUPTI_API_ENTER) return;
    if (g->timing && !stream_is_capturing(graph_launch_stream(cbid, data))) {
      g->timing->on_graph_launch(data->correlationId);
      if (g->counters && !g->graph_warned) {  // the single run
        g->graph_warned = true;
        g->writer->write({{collector_record::kType, collector_record::kWarning},
                          {collector_record::kMessageKey,
                           "the kernels of CUDA graph launches get no counters in the run that times them: "
                           "--runs auto (the default) and --runs two count them in a counter run"}});
      }
    } else if (g->counters && !g->timing) {
      walk_graph(cbid, data);
    }
    return;
  }
  if (!is_kernel_launch(cbid)) return;
  if (data->callbackSite == CUPTI_API_ENTER)
    on_launch_enter(cbid, data);
  else
    on_launch_exit(data);
}

void finish(bool aborted) {
  if (g == nullptr || g->pid != getpid() || g->ended) return;
  g->ended = true;
  if (g->timing) {
    g->timing->flush();
    timing_writer().write({{collector_record::kType, collector_record::kEnd},
                           {collector_record::kLaunchesKey, g->timing->recorded()},
                           {collector_record::kAbortedKey, aborted},
                           {collector_record::kCopiesKey, g->timing->copies()}});
  }
  if (g->counters || !g->timing)
    g->writer->write({{collector_record::kType, collector_record::kEnd},
                      {collector_record::kLaunchesKey, g->recorded},
                      {collector_record::kAbortedKey, aborted}});
}

void at_exit() { finish(false); }

// abort(), and the signals that end a process by default (Ctrl-C, kill, a closed terminal):
// what was recorded is flushed before the process ends as the signal would have ended it.
constexpr int kFatalSignals[] = {SIGABRT, SIGINT, SIGTERM, SIGHUP};
struct sigaction g_previous[NSIG] {};

void on_fatal_signal(int signal) {
  finish(true);
  sigaction(signal, &g_previous[signal], nullptr);
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
  for (CUpti_CallbackId cbid : {CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED, CUPTI_CBID_RESOURCE_GRAPHEXEC_DESTROY_STARTING})
    check_cupti(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, cbid), "cuptiEnableCallback(GRAPHEXEC)");
  for (CUpti_CallbackId cbid :
       {CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz,
        CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
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
  const bool single_run = g->mode == "single";
  g->writer = std::make_unique<RecordWriter>(g->folder, single_run ? "counters" : g->mode);
  if (single_run) g->timing_writer = std::make_unique<RecordWriter>(g->folder, "timing");
  try {
    g->filter = std::make_unique<LaunchFilter>(filter_from_environment());
    if (g->mode == "counters" || single_run) {
      std::vector<std::string> metrics = split_metrics(env(protocol::kMetricsVariable));
      if (metrics.empty()) throw std::runtime_error(fmt::format("{} is empty", protocol::kMetricsVariable));
      const char* cache = env(protocol::kCacheControlVariable);
      const CacheControl cache_control =
          cache && std::strcmp(cache, "none") == 0 ? CacheControl::none : CacheControl::all;
      if (single_run && cache_control != CacheControl::all)
        throw std::runtime_error("a single run (--single-run) needs --cache-control all");
      g->counters = std::make_unique<CounterCollector>(*g->writer, std::move(metrics), cache_control);
      if (const char* share = env(protocol::kShareCountersVariable); share && std::strcmp(share, "1") == 0)
        g->turns = std::make_unique<CounterTurns>(g->folder, give_counters_back);
      g->counters->flush_before_application(single_run);
      if (const char* sample = env(protocol::kSampleVariable)) {
        const char* plan_path = env(protocol::kSamplePlanVariable);
        std::optional<SamplePlan> plan = plan_path ? SamplePlan::read(plan_path) : SamplePlan();
        if (!plan) throw std::runtime_error(fmt::format("cannot read the sample plan {}", plan_path));
        if (env("ROOFCAST_PROFILE_DEBUG"))  // diagnosis: the sample plan this process follows
          g->writer->write({{collector_record::kType, collector_record::kDebug},
                            {"sample", std::strtoull(sample, nullptr, 10)},
                            {"plan", plan_path ? plan_path : ""},
                            {"plan_shapes", plan->size()},
                            {"plan_keys", [&] {
                               nlohmann::json keys = nlohmann::json::array();
                               for (const auto& [name, grid, block] : plan->shapes()) keys.push_back({name, grid, block});
                               return keys;
                             }()}});
        g->sampler = std::make_unique<LaunchSampler>(std::move(*plan), std::strtoull(sample, nullptr, 10));
        if (const char* budget = env(protocol::kInRunSpreadVariable))
          g->sampler->spread_in_run(std::strtod(budget, nullptr));
        g->sampler_pid = g->pid;
        start_own_clock();
      }
    }
    if (g->mode != "counters") {
      g->timing = std::make_unique<TimingCollector>(timing_writer(), [](const LaunchInfo& launch) {
        std::lock_guard lock(g->state_mutex);
        return g->filter->admit(launch.demangled, launch.device);
      });
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
  action.sa_handler = on_fatal_signal;
  sigemptyset(&action.sa_mask);
  for (const int signal : kFatalSignals) {
    struct sigaction current {};
    sigaction(signal, nullptr, &current);
    // The application's own handler (or an ignored signal) is left alone.
    if (signal == SIGABRT || current.sa_handler == SIG_DFL) sigaction(signal, &action, &g_previous[signal]);
  }
  return 1;
}

}  // namespace
}  // namespace roofcast::profiler

extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  return roofcast::profiler::initialize();
}
