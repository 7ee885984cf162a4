#pragma once

#include "roofcast/model/kernel_work.hpp"

namespace roofcast {

// What one warp keeps in flight to DRAM per round trip it waits for: the DRAM-parallelism
// cost's Little's law (docs/pipes-model.md, "DRAM parallelism"). An SM with W such warps
// draws at most W x bytes / latency_ns.
struct WarpMemoryRound {
  double bytes = 0;       // bytes of global loads and stores a warp moves per round trip
  double latency_ns = 0;  // one round trip
  bool per_warp = false;  // true: a warp's loads in flight together (below); false: one load or store instruction per round
  double rounds = 1;      // round trips per warp (per_warp only)
};

// `all_loads_before_wait` (the `warp-mlp` term): a warp issues all its global loads before it
// waits for the first (they are independent: a warp stalls only when an instruction needs a
// load's data), and its stores do not stall it, so one round trip moves all its loads' and
// stores' bytes: (loads + stores per warp) x `bytes_per_global_instruction`. The round trip is
// that of the bench's probe (`dram_latency_ns`, docs/bench.md): its warps move one 256-byte
// load and one 256-byte store per round trip, and the bench divides their combined bandwidth
// into 256 bytes, so `dram_latency_ns` is half a round trip.
// A load in flight holds its destination register until its data is back, so a thread keeps at
// most `registers_per_thread` loads in flight: a warp with more loads than that (a loop) needs
// loads / registers round trips at least (0 registers: not recorded, no such bound).
// Otherwise (the term off, or no warps-launched or global-load counts), the rule before
// 2026-11-25: `bytes_per_global_instruction` per `dram_latency_ns`, one load or store
// instruction of each warp in flight.
WarpMemoryRound warp_memory_round(const KernelWork& work, double dram_latency_ns, bool all_loads_before_wait,
                                  int registers_per_thread = 0);

}  // namespace roofcast
