#pragma once

#include <cuda.h>
#include <cupti_checkpoint.h>

namespace roofcast::profiler {

// A context's device memory (and its pinned host memory) saved before a profiled launch and
// restored before every replay of it, so each pass and the application's own launch start
// from the same data (CUPTI Checkpoint API). One per context; saves overwrite the last one.
class DeviceCheckpoint {
 public:
  explicit DeviceCheckpoint(CUcontext context);
  ~DeviceCheckpoint();
  DeviceCheckpoint(const DeviceCheckpoint&) = delete;
  DeviceCheckpoint& operator=(const DeviceCheckpoint&) = delete;

  void save();     // throws on failure
  void restore();  // throws on failure

 private:
  NV::Cupti::Checkpoint::CUpti_Checkpoint handle_{};
  bool saved_ = false;
};

}  // namespace roofcast::profiler
