#pragma once

#include <map>
#include <string>
#include <vector>

#include "roofcast/model/kernel_profile.hpp"

namespace roofcast {

// What the kernel's warps waited for on the reference GPU (the latency term,
// docs/pipes-model.md), from counters `roofcast profile` records since issue 13. Zero or
// empty when the profile predates them.
struct WarpWaits {
  double warps_launched = 0;
  // Warp-cycles stalled per reason, summed over the SM sub-partitions, in the reference's SM
  // cycles: "wait", "long_scoreboard", "short_scoreboard", "barrier", "not_selected"...
  std::map<std::string, double> stall_cycles;
  double reference_clock_mhz = 0;  // the SM clock those cycles ran at
  // Warp instructions a long-scoreboard wait can wait for: global and local loads, atomics
  // that return a value.
  double memory_load_instructions = 0;
  double shared_load_instructions = 0;  // < 0 when not recorded
  // Shares of global-load sectors that hit L1, and of the SMs' L2 sectors that hit L2; < 0 unknown.
  double l1_hit_share = -1;
  // Sectors one global load instruction touches (1-4 coalesced, 32 when every lane reads its own line); 0 when not recorded.
  double sectors_per_global_load = 0;
  double l2_hit_share = -1;
  // Lines one global load touches (from its sectors and the access width); 0 when not recorded.
  double lines_per_global_load = 0;
  // Share of the SMs' L2 read sectors that hit L2 (1 - DRAM reads / L2 reads); < 0 unknown.
  double l2_read_hit_share = -1;
};

// What a kernel asks of each part of an SM and of the memory system, totals over its
// invocations: the kernel side of the multi-pipeline model (docs/pipes-model.md).
struct KernelWork {
  // Warp instructions executed per pipe: "fma", "fmaheavy", "alu", "fp64", "fp16", "xu", "lsu".
  std::map<std::string, double> pipe_instructions;
  double warp_instructions = 0;          // every warp instruction issued
  std::map<std::string, double> tensor_ops;  // tensor-core operations by source type: "fp16", "bf16", "tf32", "fp64", "int8", "fp8"
  // True when the kernel's tensor work is Hopper wgmma (GMMA) rather than mma.sync (HMMA/IMMA/
  // DMMA): wgmma reaches a higher peak, measured separately.
  bool tensor_via_wgmma = false;
  double shared_wavefronts = 0;          // shared-memory wavefronts, bank conflicts included
  double global_atomic_instructions = 0;  // warp-level atomics and reductions to global memory
  double shared_atomic_instructions = 0;
  // Contention: cycles the busiest L2 slice's atomic unit was busy (one per atomic sector;
  // all of them on one slice when every thread hits one word); 0 when not recorded.
  double atomic_busiest_l2_slice_cycles = 0;
  // L2 sectors the SMs' global atomics and reductions asked for (one per line part they
  // touch: 1 per thread when every lane is on its own line); 0 when not recorded.
  double global_atomic_l2_sectors = 0;
  double global_atomic_l2_requests = 0;  // the L2 requests they came in; 0 when not recorded
  // Global-memory bytes moved by the TMA (bulk copies, past L1 and the threads' registers).
  double bulk_copy_bytes = 0;
  double dram_read_bytes = 0;
  double dram_write_bytes = 0;
  bool dram_direction_known = true;  // false when only the read + write total is known
  double l2_bytes = 0;  // requested by the SMs; 0 when not recorded
  // The same by crossbar direction: L2 -> SM (loads, and atomics that return a value) and
  // SM -> L2 (stores, atomics and reductions with their operands); `l2_store_bytes` is the
  // stores alone (lines the kernel writes whole).
  double l2_to_sm_bytes = 0, l2_from_sm_bytes = 0, l2_store_bytes = 0;
  double l1_bytes = 0;  // 0 when not recorded
  // Memory parallelism: the share of an SM's warp slots in use on the reference (achieved
  // occupancy, 0..1) and the L1 bytes one global load or store instruction moves; 0 when not recorded.
  double achieved_occupancy = 0;
  double bytes_per_global_instruction = 0;
  double global_load_instructions = 0, global_store_instructions = 0;  // warp-level; 0 when not recorded
  // True when the pipe counts were measured; false when derived from the thesis' counters
  // or published parameters (then `notes` says how).
  bool measured_pipes = false;
  WarpWaits waits;
  std::vector<std::string> notes;
};

KernelWork kernel_work_of(const KernelRecord& kernel);

}  // namespace roofcast
