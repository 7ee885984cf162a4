#pragma once

#include <string>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/kernel_work.hpp"
#include "roofcast/model/note.hpp"

namespace roofcast {

// Whether a kernel's data stays in the target's L2 between launches (docs/pipes-model.md). The
// collector flushes L2 before each profiled launch, so the profile's DRAM bytes are a cold
// launch's: every line the launch touches once. Where those lines fit in the target's L2, a
// launch that follows one over the same data (the next iteration, or the kernel that wrote its
// input) finds them there, and its DRAM traffic is L2 traffic.
struct L2Residency {
  bool known = false;     // false: no L2 size on the device or no DRAM counters; `note` says which
  bool resident = false;  // the footprint fits in the target's L2
  double footprint_bytes = 0;  // lines one launch touches: DRAM reads + lines written, per launch
  double l2_bytes = 0;         // the target's L2 capacity
  Note note;
};

L2Residency l2_residency_of(const KernelRecord& kernel, const KernelWork& work, const DeviceProfile& device);

}  // namespace roofcast
