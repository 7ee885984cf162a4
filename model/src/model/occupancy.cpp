#include "roofcast/model/occupancy.hpp"

#include <cmath>
#include <limits>

namespace roofcast {

namespace {

double round_up(double value, double unit) { return unit > 0 ? std::ceil(value / unit) * unit : value; }

}  // namespace

Occupancy occupancy_of(const LaunchShape& shape, const OccupancyLimits& limits, double warp_size) {
  if (!limits.known()) return {};
  const double warps_per_block = std::ceil(shape.threads_per_block() / warp_size);
  Occupancy result;
  double best = std::numeric_limits<double>::infinity();
  auto limit = [&](double blocks, const char* name) {
    blocks = std::floor(blocks);
    if (blocks < best) {
      best = blocks;
      result.limiter = name;
    }
  };
  limit(limits.max_blocks_per_sm, "blocks");
  limit(limits.max_threads_per_sm / (warps_per_block * warp_size), "threads");
  if (shape.registers_per_thread > 0) {
    const double per_warp = round_up(shape.registers_per_thread * warp_size, limits.register_allocation_unit);
    limit(limits.registers_per_sm / (per_warp * warps_per_block), "registers");
  }
  const double shared = shape.shared_bytes_per_block();
  if (shared > 0) {
    const double per_block = round_up(shared + limits.reserved_shared_bytes_per_block, limits.shared_allocation_unit);
    limit(limits.shared_bytes_per_sm / per_block, "shared memory");
  }
  result.blocks_per_sm = static_cast<int>(std::max(0.0, best));
  return result;
}

}  // namespace roofcast
