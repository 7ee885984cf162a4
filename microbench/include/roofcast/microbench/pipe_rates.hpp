#pragma once
// Per-architecture rates of the multi-pipeline characterizers: warp instructions per clock per
// SM of each pipe, the mma.sync tensor rates beyond fp16/bf16, and the occupancy calculator's
// allocation units. Sources are named in pipe_rates.cpp; unknown architectures get nothing.

#include <optional>
#include <string_view>

namespace roofcast::microbench {

// Warp instructions issued per clock per SM (the programming guide's results per clock per
// SM divided by 32 lanes).
struct PipeRates {
  std::string_view arch;
  double fma = 0;       // FFMA
  double alu = 0;       // 32-bit logic (LOP3)
  double fmaheavy = 0;  // IMAD
  double fp64 = 0;      // DFMA
  double fp16 = 0;      // HFMA2 (one instruction, two results)
  double xu = 0;        // MUFU (rsqrt, ex2, lg2, sin, cos)
  double lsu = 0;       // LDS.32, conflict-free
  double issue = 0;     // dispatch: 1 per SM sub-partition (4 per SM)
  // Dense tensor rates through mma.sync, operations per clock per SM; 0 = not documented.
  double tensor_tf32_flops = 0;
  double tensor_fp64_flops = 0;
  double tensor_int8_ops = 0;
};

std::optional<PipeRates> pipe_rates(std::string_view arch);

// Warp instructions per clock per SM of one pipe ("fma", "alu", ... "issue"); nullopt when the
// architecture or pipe is unknown.
std::optional<double> pipe_warp_instructions_per_clock(std::string_view arch, std::string_view pipe);

// The pipes the bench measures, in report order: key "pipe_<name>_gwips".
inline constexpr std::string_view kPipeNames[] = {"fma", "alu", "fmaheavy", "fp64", "fp16", "xu", "lsu", "issue"};

// The CUDA occupancy calculator's constants for a compute-capability major version
// (cuda_occupancy.h); nullopt for an unknown one.
struct AllocationUnits {
  int max_registers_per_thread = 0;
  int register_allocation_unit = 0;  // registers per warp
  int shared_allocation_unit = 0;    // bytes
};
std::optional<AllocationUnits> allocation_units(int compute_major);

}  // namespace roofcast::microbench
