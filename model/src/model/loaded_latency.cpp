#include "roofcast/model/loaded_latency.hpp"

#include <algorithm>
#include <cmath>

namespace roofcast {

namespace {

constexpr double kSectorBytes = 32;
constexpr double kLinesPerWarpLoad = 32;  // every lane on its own line: the DRAM warp chase

// The DRAM chase's latency for a warp load on `lines` lines: from one line (the single-thread
// chase) to 32 (the warp chase).
double dram_latency_for(double lines, const DeviceRates& rates) {
  if (rates.latency_dram_warp_ns <= 0) return rates.latency_dram_ns;
  const double spread = (std::clamp(lines, 1.0, kLinesPerWarpLoad) - 1) / (kLinesPerWarpLoad - 1);
  return rates.latency_dram_ns * (1 + spread * (rates.latency_dram_warp_ns / rates.latency_dram_ns - 1));
}

// A warp load on n lines is back when its slowest line is: in L1 only if all n hit there (l1^n,
// lines independent), else at least one L2 round trip with the missed sectors coming back one
// after another through the SM's share, and a DRAM one if any of the m missed lines misses L2
// (1 - l2^m, with the reads' own L2 hit share), spread over the lines that do.
double slowest_line_ns(const WarpWaits& waits, const DeviceRates& rates, double sm_bytes_per_ns) {
  const double lines = std::min(waits.lines_per_global_load, kLinesPerWarpLoad);
  const double sectors = std::min(waits.sectors_per_global_load, kLinesPerWarpLoad);
  const double l1 = waits.l1_hit_share, l2 = waits.l2_read_hit_share;
  const double missed_lines = lines * (1 - l1);
  const double all_in_l1 = std::pow(l1, lines);
  const double any_in_dram = 1 - std::pow(l2, missed_lines);
  const double dram_lines = any_in_dram > 0 ? missed_lines * (1 - l2) / any_in_dram : 1;
  const double l2_ns =
      rates.latency_l2_hit_ns + std::max(sectors * (1 - l1) - 1, 0.0) * kSectorBytes / sm_bytes_per_ns;
  return all_in_l1 * rates.latency_l1_hit_ns +
         (1 - all_in_l1) * ((1 - any_in_dram) * l2_ns + any_in_dram * dram_latency_for(dram_lines, rates));
}

}  // namespace

LoadedLatency loaded_load_latency(const WarpWaits& waits, const DeviceRates& rates, double sm_count,
                                  double resident_warps_per_sm, const LaunchLoad& launch) {
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
  const double dram_ns = dram_latency_for(sectors, rates);
  const double l1 = waits.l1_hit_share, l2 = waits.l2_hit_share;
  l.unloaded_ns = l1 * rates.latency_l1_hit_ns + (1 - l1) * (l2 * l2_ns + (1 - l2) * dram_ns);
  const double bytes_in_flight = resident_warps_per_sm * sectors * kSectorBytes * (1 - l1);
  l.bandwidth_ns = bytes_in_flight / sm_bytes_per_ns;
  l.ns = std::max(l.unloaded_ns, l.bandwidth_ns);

  if (waits.lines_per_global_load <= 0 || waits.l2_read_hit_share < 0) return l;
  l.slowest_ns = slowest_line_ns(waits, rates, sm_bytes_per_ns);
  // Little's law both ways: what the busy SMs' warps keep in flight against what the SM's path
  // to L2 and the DRAM hold at their unloaded latencies.
  const double l2_load = bytes_in_flight / (sm_bytes_per_ns * rates.latency_l2_hit_ns);
  const double dram_load = rates.dram_read_gbps > 0 && launch.busy_sms > 0
                               ? launch.busy_sms * bytes_in_flight * (1 - l2) / (rates.dram_read_gbps * rates.latency_dram_ns)
                               : 0;
  l.load = std::max(l2_load, dram_load);
  l.slowest_applies = launch.one_wave && l.load < 1;
  if (l.slowest_applies) l.ns = std::max(l.slowest_ns, l.bandwidth_ns);
  return l;
}

}  // namespace roofcast
