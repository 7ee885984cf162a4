#pragma once

#include <optional>
#include <string_view>

#include "roofcast/microbench/suite_result.hpp"

namespace roofcast::microbench {

// What one multiprocessor (CUDA SM, AMD compute unit) of an architecture completes per clock:
// the numerators of every "theoretical" peak. Lanes count per-thread results per clock.
struct ArchitectureRates {
  std::string_view arch;               // "sm_90", "gfx90a"
  double fp32_lanes = 0;               // FP32 FMA results per clock
  double fp64_lanes = 0;
  double fp16_lanes = 0;               // half results per clock (a half2 FMA gives two)
  double int32_mad_lanes = 0;
  double int32_add_lanes = 0;
  double shared_bytes_per_clock = 0;   // shared memory (LDS) bandwidth
  double l1_bytes_per_clock = 0;
  double tensor_fp16_flops_per_clock = 0;  // dense, fp32 accumulate; 0 = no tensor cores
  double tensor_bf16_flops_per_clock = 0;
};

// nullopt for an architecture the table does not know (percentages are then left out).
std::optional<ArchitectureRates> architecture_rates(std::string_view arch);

// The theoretical value of a measurement key (see suite_result.hpp) for `sm_count` SMs at
// `sm_clock_mhz`; DRAM keys use the memory clock and bus width. nullopt when the key has
// no theoretical peak (L2, launch overhead) or the inputs are unknown.
std::optional<double> theoretical_peak(std::string_view key, const ArchitectureRates& rates, int sm_count,
                                       double sm_clock_mhz, double memory_clock_mhz, int memory_bus_bits);

// Fills every measurement's `theoretical` from the table, each at the SM clock measured
// during it (or the suite's median in-kernel clock when it has none).
void apply_theoretical_peaks(SuiteResult& result);

}  // namespace roofcast::microbench
