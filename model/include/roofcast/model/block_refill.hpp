#pragma once

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/kernel_work.hpp"

namespace roofcast {

// The `block-refill` term (docs/pipes-model.md, "Warp slots wait for their block's last warp").
// An SM hands out warp slots a block at a time: a block's slots free only when its last warp
// exits, so the warps that finished first leave theirs empty until then. With k blocks
// resident and memory serving an SM's requests roughly in the order they were issued, the w
// warps of one block finish over about 1/k of the block's lifetime, with w / 2 of its slots
// empty on average meanwhile: over the k blocks, a share 1 / (2k) of the SM's slots. The share
// of the resident slots that hold a running warp in a launch's steady state is then
//     1 - 1 / (2k).
double busy_slot_share(double blocks_per_sm);

// The spread above needs warps that run independently: warps that wait for each other at a
// barrier (__syncthreads) leave its last one together, and their block's slots free at once
// (on the 2026-11-24 corpus, the kernels with barrier stalls at 1 or 2 blocks per SM, a sgemm
// tile, a bitonic sort, PyTorch's softmax, keep 98-100 % of their theoretical occupancy, where
// 1 - 1/(2k) would leave 50-75 %). True where the profile records the warps' stall reasons and
// none is a barrier wait.
bool warps_leave_independently(const WarpWaits& waits);

// The busy share of a launch shape's steady state on `device`: busy_slot_share of its blocks
// per SM where the launch has more than one wave (a block waits for the slots); 0 for a launch
// of one wave or less (no block waits for a slot, so no steady state to speak of: its drain is
// the latency term's) or where the device's occupancy limits are unknown.
double steady_busy_slot_share(const LaunchShape& shape, const DeviceProfile& device);

// The busy share the profile's achieved occupancy was measured at: the mean of
// steady_busy_slot_share over its launch shapes of more than one wave, weighted by their blocks
// (`profiled_busy_slot_share` where a re-cut of the launch set it). 0 when none has more than one
// wave. The achieved occupancy counter (sm__warps_active) counts running warps only, so it
// already holds the reference's empty slots; a launch shape with another k keeps
// achieved occupancy x its share / this one.
double profiled_busy_slot_share(const KernelRecord& kernel, const DeviceProfile& device);

}  // namespace roofcast
