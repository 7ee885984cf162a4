#include "roofcast/model/memory_parallelism.hpp"

#include <algorithm>
#include <cmath>

namespace roofcast {

namespace {

// The bench's probe (microbench/gpu/memory_parallelism.cu) moves a load's and a store's bytes
// per round trip and reports the latency per load's bytes: a round trip is two of its latencies.
constexpr double kProbeInstructionsPerRound = 2;

}  // namespace

WarpMemoryRound warp_memory_round(const KernelWork& work, double dram_latency_ns, bool all_loads_before_wait,
                                  int registers_per_thread) {
  WarpMemoryRound round{work.bytes_per_global_instruction, dram_latency_ns, false};
  const double warps = work.waits.warps_launched;
  if (!all_loads_before_wait || warps <= 0 || work.global_load_instructions < warps) return round;
  // At least one load per warp: each warp waits for a round trip at least once.
  const double loads_per_warp = work.global_load_instructions / warps;
  if (registers_per_thread > 0) round.rounds = std::max(1.0, loads_per_warp / registers_per_thread);
  const double instructions_per_warp = (work.global_load_instructions + work.global_store_instructions) / warps;
  round.bytes = work.bytes_per_global_instruction * instructions_per_warp / round.rounds;
  round.latency_ns = kProbeInstructionsPerRound * dram_latency_ns;
  round.per_warp = true;
  return round;
}

DramLatencyLine dram_latency_line(const DeviceRates& rates) {
  DramLatencyLine line;
  if (rates.latency_dram_ns <= 0 || rates.dram_latency_ns <= 0 || rates.dram_probe_gbps <= 0 || rates.dram_copy_gbps <= 0)
    return line;
  line.unloaded_ns = rates.latency_dram_ns;
  line.probe_ns = kProbeInstructionsPerRound * rates.dram_latency_ns;
  line.probe_load = rates.dram_probe_gbps / rates.dram_copy_gbps;
  line.slope = std::max(0.0, (line.probe_ns / line.unloaded_ns - 1) / line.probe_load);
  line.known = true;
  return line;
}

double dram_time_under_load(double bandwidth_ms, double parallelism_ms, const DramLatencyLine& line) {
  const double a = parallelism_ms * line.unloaded_ns / line.probe_ns;
  const double t = (a + std::sqrt(a * a + 4 * a * line.slope * bandwidth_ms)) / 2;
  return std::max(bandwidth_ms, t);
}

}  // namespace roofcast
