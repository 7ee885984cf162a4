#include "roofcast/model/loaded_latency.hpp"

#include <algorithm>

namespace roofcast {

namespace {

constexpr double kSectorBytes = 32;
constexpr double kLinesPerWarpLoad = 32;  // every lane on its own line: the DRAM warp chase

}  // namespace

LoadedLatency loaded_load_latency(const WarpWaits& waits, const DeviceRates& rates, double sm_count,
                                  double resident_warps_per_sm) {
  LoadedLatency l;
  if (sm_count <= 0 || rates.l2_gbps <= 0 || rates.latency_l1_hit_ns <= 0 || rates.latency_l2_hit_ns <= 0 ||
      rates.latency_dram_ns <= 0 || waits.l1_hit_share < 0 || waits.l2_hit_share < 0 ||
      waits.sectors_per_global_load <= 0)
    return l;
  // The SM's share of the L2 bandwidth, bytes per ns. A partition's SMs each draw more than a
  // whole GPU's (the L2 is not partitioned): this is where the two differ.
  const double sm_bytes_per_ns = rates.l2_gbps / sm_count;
  const double sectors = std::min(waits.sectors_per_global_load, kLinesPerWarpLoad);
  const double l2_ns = rates.latency_l2_hit_ns + (sectors - 1) * kSectorBytes / sm_bytes_per_ns;
  double dram_ns = rates.latency_dram_ns;
  if (rates.latency_dram_warp_ns > 0)
    dram_ns *= 1 + (sectors - 1) / (kLinesPerWarpLoad - 1) * (rates.latency_dram_warp_ns / rates.latency_dram_ns - 1);
  const double l1 = waits.l1_hit_share, l2 = waits.l2_hit_share;
  l.unloaded_ns = l1 * rates.latency_l1_hit_ns + (1 - l1) * (l2 * l2_ns + (1 - l2) * dram_ns);
  const double bytes_in_flight = resident_warps_per_sm * sectors * kSectorBytes * (1 - l1);
  l.bandwidth_ns = bytes_in_flight / sm_bytes_per_ns;
  l.ns = std::max(l.unloaded_ns, l.bandwidth_ns);
  return l;
}

}  // namespace roofcast
