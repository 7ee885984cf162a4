#pragma once

#include <map>
#include <string>
#include <vector>

#include "roofcast/model/kernel_profile.hpp"

namespace roofcast {

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
  double dram_read_bytes = 0;
  double dram_write_bytes = 0;
  bool dram_direction_known = true;  // false when only the read + write total is known
  double l2_bytes = 0;  // requested by the SMs; 0 when not recorded
  double l1_bytes = 0;  // 0 when not recorded
  // Memory parallelism: the share of an SM's warp slots in use on the reference (achieved
  // occupancy, 0..1) and the L1 bytes one global load or store instruction moves; 0 when not recorded.
  double achieved_occupancy = 0;
  double bytes_per_global_instruction = 0;
  // True when the pipe counts were measured; false when derived from the thesis' counters
  // or published parameters (then `notes` says how).
  bool measured_pipes = false;
  std::vector<std::string> notes;
};

KernelWork kernel_work_of(const KernelRecord& kernel);

}  // namespace roofcast
