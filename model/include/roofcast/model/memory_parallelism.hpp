#pragma once

#include "roofcast/model/device_rates.hpp"
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

// DRAM latency under load (the `dram-latency-line` term): the round trip a warp waits for grows
// with the DRAM's utilization u (its throughput over the bandwidth of the kernel's mix). The
// bench measures it at two loads: unloaded (`latency_dram_ns`, a pointer chase, u = 0) and
// under its probe's load (a round trip of 2 x `dram_latency_ns` at u = `dram_probe_gbps` /
// `dram_copy_gbps`); the line through the two is
//     latency(u) = unloaded_ns x (1 + slope x u).
struct DramLatencyLine {
  double unloaded_ns = 0;  // u = 0
  double probe_ns = 0;     // the probe's round trip
  double probe_load = 0;   // the probe's u
  double slope = 0;        // per unit of u, relative to unloaded_ns (>= 0)
  bool known = false;      // false: a bench value is missing
};
DramLatencyLine dram_latency_line(const DeviceRates& rates);

// The time DRAM needs for the kernel's bytes when its warps keep a fixed number of bytes in
// flight, by Little's law with the latency of the line: throughput X = bytes in flight /
// latency(X / bandwidth). `bandwidth_ms`: the bytes at the bandwidth of the kernel's mix;
// `parallelism_ms`: at the probe's round trip (the DRAM-parallelism cost). With
// a = parallelism_ms x unloaded / probe (the time at the unloaded latency) the time T solves
// T = a x (1 + slope x bandwidth_ms / T), and DRAM cannot go faster than its bandwidth:
//     max(bandwidth_ms, (a + sqrt(a^2 + 4 a slope bandwidth_ms)) / 2).
double dram_time_under_load(double bandwidth_ms, double parallelism_ms, const DramLatencyLine& line);

}  // namespace roofcast
