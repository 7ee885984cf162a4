#include "roofcast/model/memory_parallelism.hpp"

#include <algorithm>

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

}  // namespace roofcast
