#include "device_checkpoint.hpp"

#include "cupti_status.hpp"

namespace roofcast::profiler {

using namespace NV::Cupti::Checkpoint;

DeviceCheckpoint::DeviceCheckpoint(CUcontext context) {
  handle_.structSize = CUpti_Checkpoint_STRUCT_SIZE;
  handle_.ctx = context;
  handle_.allowOverwrite = 1;
  handle_.optimizations = CUPTI_CHECKPOINT_OPT_NONE;
}

DeviceCheckpoint::~DeviceCheckpoint() {
  if (saved_) cuptiCheckpointFree(&handle_);  // the context may be going away: nothing to report
}

void DeviceCheckpoint::save() {
  check_cupti(cuptiCheckpointSave(&handle_), "cuptiCheckpointSave");
  saved_ = true;
}

void DeviceCheckpoint::restore() { check_cupti(cuptiCheckpointRestore(&handle_), "cuptiCheckpointRestore"); }

}  // namespace roofcast::profiler
