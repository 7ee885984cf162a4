#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <unordered_map>

#include "launch_info.hpp"
#include "record_writer.hpp"

namespace roofcast::profiler {

// The timing run: CUPTI Activity records of the kernels (GPU start/end, registers, shared
// memory), joined to the launch callback's index through the correlation id; and every
// memcpy/memset the application made (copy_record.hpp), unfiltered.
class TimingCollector {
 public:
  explicit TimingCollector(RecordWriter& writer);
  void start();  // throws CuptiError
  void on_launch(uint32_t correlation_id, uint64_t index, const LaunchInfo& launch);
  void flush();  // forced: also incomplete buffers (process exit, context teardown)
  uint64_t recorded() const { return recorded_; }
  uint64_t copies() const { return copies_; }  // memcpy and memset records written

 private:
  static void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records);
  static void CUPTIAPI buffer_completed(CUcontext context, uint32_t stream, uint8_t* buffer, size_t size, size_t valid);
  void take_records(uint8_t* buffer, size_t valid);

  struct Pending {
    uint64_t index;
    LaunchInfo launch;
  };
  RecordWriter& writer_;
  std::mutex mutex_;
  std::unordered_map<uint32_t, Pending> pending_;  // correlation id -> recorded launch
  uint64_t recorded_ = 0;
  std::atomic<uint64_t> copies_ = 0;
};

}  // namespace roofcast::profiler
