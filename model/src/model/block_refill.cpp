#include "roofcast/model/block_refill.hpp"

#include <algorithm>

#include "roofcast/model/occupancy.hpp"

namespace roofcast {

double busy_slot_share(double blocks_per_sm) { return blocks_per_sm > 0 ? 1 - 1 / (2 * blocks_per_sm) : 1; }

bool warps_leave_independently(const WarpWaits& waits) {
  if (waits.stall_cycles.empty()) return false;
  const auto barrier = waits.stall_cycles.find("barrier");
  return barrier == waits.stall_cycles.end() || barrier->second <= 0;
}

double steady_busy_slot_share(const LaunchShape& shape, const DeviceProfile& device) {
  if (device.sm_count <= 0) return 0;
  const int resident = occupancy_of(shape, device.occupancy).blocks_per_sm;
  if (resident <= 0 || shape.blocks() <= device.sm_count * static_cast<double>(resident)) return 0;
  return busy_slot_share(resident);
}

double profiled_busy_slot_share(const KernelRecord& kernel, const DeviceProfile& device) {
  if (kernel.profiled_busy_slot_share) return *kernel.profiled_busy_slot_share;
  double share = 0, blocks = 0;
  for (const auto& shape : kernel.launch_shapes) {
    const double s = steady_busy_slot_share(shape, device);
    if (s <= 0) continue;
    const double weight = shape.blocks() * static_cast<double>(std::max<int64_t>(shape.invocations, 1));
    share += weight * s;
    blocks += weight;
  }
  return blocks > 0 ? share / blocks : 0;
}

}  // namespace roofcast
