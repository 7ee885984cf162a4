#include "timing_collector.hpp"

#include <cupti_activity.h>

#include <cstdlib>

#include <fmt/format.h>

#include "copy_record.hpp"
#include "cupti_status.hpp"
#include "roofcast/formats/collector_record_fields.hpp"

namespace roofcast::profiler {

namespace {
constexpr size_t kBufferBytes = 8 << 20;
TimingCollector* g_collector = nullptr;  // CUPTI's buffer callbacks carry no user data
}  // namespace

TimingCollector::TimingCollector(RecordWriter& writer, Admit admit) : writer_(writer), admit_(std::move(admit)) {
  g_collector = this;
}

void TimingCollector::start() {
  check_cupti(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), "cuptiActivityRegisterCallbacks");
  check_cupti(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL),
              "cuptiActivityEnable(CONCURRENT_KERNEL)");
  check_cupti(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY), "cuptiActivityEnable(MEMCPY)");
  check_cupti(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET), "cuptiActivityEnable(MEMSET)");
  // Full buffers are handed over within a quarter second (CUPTI's periodic flush takes only
  // completed buffers; the last one is flushed, forced, at exit, abort and fatal signals).
  check_cupti(cuptiActivityFlushPeriod(250), "cuptiActivityFlushPeriod");
}

void TimingCollector::on_launch(uint32_t correlation_id, uint64_t index, const LaunchInfo& launch) {
  std::lock_guard lock(mutex_);
  pending_[correlation_id] = Pending{index, launch};
}

void TimingCollector::on_graph_launch(uint32_t correlation_id) {
  std::lock_guard lock(mutex_);
  graph_launches_.insert(correlation_id);
}

std::optional<TimingCollector::Pending> TimingCollector::graph_node_launch(const CUpti_ActivityKernel10& kernel) {
  if (kernel.graphId == 0) return std::nullopt;
  {
    std::lock_guard lock(mutex_);
    if (graph_launches_.count(kernel.correlationId) == 0) return std::nullopt;
  }
  LaunchInfo launch;
  launch.name = kernel.name ? kernel.name : "(unknown kernel)";
  launch.demangled = demangle(kernel.name);
  launch.device = static_cast<int>(kernel.deviceId);
  launch.grid = {static_cast<unsigned>(kernel.gridX), static_cast<unsigned>(kernel.gridY),
                 static_cast<unsigned>(kernel.gridZ)};
  launch.block = {static_cast<unsigned>(kernel.blockX), static_cast<unsigned>(kernel.blockY),
                  static_cast<unsigned>(kernel.blockZ)};
  launch.dynamic_shared_bytes = kernel.dynamicSharedMemory;
  const std::optional<uint64_t> index = admit_(launch);
  if (!index) return std::nullopt;
  return Pending{*index, std::move(launch)};
}

void TimingCollector::pause_copies() {
  check_cupti(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY), "cuptiActivityDisable(MEMCPY)");
  check_cupti(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMSET), "cuptiActivityDisable(MEMSET)");
}

void TimingCollector::resume_copies() {
  check_cupti(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY), "cuptiActivityEnable(MEMCPY)");
  check_cupti(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMSET), "cuptiActivityEnable(MEMSET)");
}

void TimingCollector::flush() { cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED); }

void CUPTIAPI TimingCollector::buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;
}

void CUPTIAPI TimingCollector::buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  if (g_collector != nullptr && buffer != nullptr) g_collector->take_records(buffer, valid);
  std::free(buffer);
}

void TimingCollector::take_records(uint8_t* buffer, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      writer_.write(copy_record(*reinterpret_cast<const CUpti_ActivityMemcpy6*>(record)));
      ++copies_;
      continue;
    }
    if (record->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
      writer_.write(memset_record(*reinterpret_cast<const CUpti_ActivityMemset4*>(record)));
      ++copies_;
      continue;
    }
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && record->kind != CUPTI_ACTIVITY_KIND_KERNEL) continue;
    const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    Pending pending;
    bool found = false;
    {
      std::lock_guard lock(mutex_);
      const auto it = pending_.find(kernel->correlationId);
      if (it != pending_.end()) {
        pending = std::move(it->second);
        pending_.erase(it);
        found = true;
      }
    }
    if (!found) {  // a graph's kernel node, or not a recorded launch (filtered out)
      std::optional<Pending> node = graph_node_launch(*kernel);
      if (!node) continue;
      pending = std::move(*node);
    }
    {
      std::lock_guard lock(mutex_);
      ++recorded_;
    }
    nlohmann::json line = launch_record(pending.launch, pending.index);
    line[collector_record::kDurationNsKey] = kernel->end > kernel->start ? kernel->end - kernel->start : 0;
    line[collector_record::kRegistersKey] = kernel->registersPerThread;
    line[collector_record::kStaticSharedBytesKey] = kernel->staticSharedMemory;
    line[collector_record::kDynamicSharedBytesKey] = kernel->dynamicSharedMemory;
    line[collector_record::kDeviceKey] = kernel->deviceId;
    line[collector_record::kStreamKey] = kernel->streamId;
    writer_.write(line);
  }
  size_t dropped = 0;
  if (cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped) == CUPTI_SUCCESS && dropped > 0)
    writer_.write({{collector_record::kType, collector_record::kWarning},
                   {collector_record::kMessageKey, fmt::format("CUPTI dropped {} activity records", dropped)}});
}

}  // namespace roofcast::profiler
