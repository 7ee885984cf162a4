#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <unordered_map>
#include <unordered_set>

#include <cupti_activity.h>

#include "launch_info.hpp"
#include "record_writer.hpp"

namespace roofcast::profiler {

// The timing run: CUPTI Activity records of the kernels (GPU start/end, registers, shared
// memory), joined to the launch callback's index through the correlation id; and every
// memcpy/memset the application made (copy_record.hpp), unfiltered. Kernels a CUDA graph
// launches have no launch callback: their records carry the graph launch's correlation id, and
// they pass the launch filter (`admit`) when their records arrive.
class TimingCollector {
 public:
  using Admit = std::function<std::optional<uint64_t>(const LaunchInfo&)>;
  TimingCollector(RecordWriter& writer, Admit admit);
  void start();  // throws CuptiError
  void on_launch(uint32_t correlation_id, uint64_t index, const LaunchInfo& launch);
  void on_graph_launch(uint32_t correlation_id);
  void flush();  // forced: also incomplete buffers (process exit, context teardown)
  // The single run (--single-run): no memcpy/memset records while the counter collector saves
  // and restores device memory, which are its copies, not the application's.
  void pause_copies();
  void resume_copies();
  uint64_t recorded() const { return recorded_; }
  uint64_t copies() const { return copies_; }  // memcpy and memset records written

 private:
  static void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records);
  static void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream, uint8_t* buffer, size_t size, size_t valid);
  struct Pending {
    uint64_t index;
    LaunchInfo launch;
  };
  void take_records(uint8_t* buffer, size_t valid);
  // The launch a graph's kernel record stands for, when it passes the filter.
  std::optional<Pending> graph_node_launch(const CUpti_ActivityKernel10& kernel);

  RecordWriter& writer_;
  Admit admit_;
  std::mutex mutex_;
  std::unordered_map<uint32_t, Pending> pending_;  // correlation id -> recorded launch
  std::unordered_set<uint32_t> graph_launches_;    // correlation ids of graph launches
  uint64_t recorded_ = 0;
  std::atomic<uint64_t> copies_ = 0;
};

}  // namespace roofcast::profiler
