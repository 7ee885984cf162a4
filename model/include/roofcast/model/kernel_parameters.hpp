#pragma once

#include <algorithm>

#include "roofcast/model/kernel_type.hpp"

namespace roofcast {

// The thesis' nine counters of one kernel (totals over its invocations).
struct ThesisCounters {
  double flop_count_sp_fma = 0;        // M_fma32
  double flop_count_dp_fma = 0;        // M_fma64
  double inst_compute_ld_st = 0;       // M_ldst   (thread level)
  double inst_executed = 0;            // M_inst   (warp level)
  double inst_fp_32 = 0;               // M_fp32   (thread level)
  double inst_fp_64 = 0;               // M_fp64   (thread level)
  double inst_integer = 0;             // M_int    (thread level)
  double dram_read_transactions = 0;   // M_tran-r (32-byte sectors)
  double dram_write_transactions = 0;  // M_tran-w
};

// Kernel parameters, thesis eqs. 4.1-4.8. Fractions, not percent.
struct KernelParameters {
  KernelType type = KernelType::fp32;
  double W_comp = 0;  // useful operations
  double W_traf = 0;  // DRAM bytes
  double E_mix = 0;   // (M_fp + M_fma) / (2 M_fp); 0.5 for integer kernels
  double D_ops = 0;   // share of thread instructions that are operations of type K_type
  double D_ldst = 0;  // share that are load/store instructions

  // Never negative: D_ops + D_ldst may exceed 1 by rounding (find_problem allows kShareTolerance).
  double D_other() const { return std::max(0.0, 1.0 - D_ops - D_ldst); }
  // Operational intensity W_comp / W_traf; +infinity when the kernel moves no DRAM bytes.
  double O_krn() const;
};

KernelType kernel_type_of(const ThesisCounters& counters);
KernelParameters kernel_parameters_from_counters(const ThesisCounters& counters);

}  // namespace roofcast

#include <array>
#include <optional>
#include <string>

namespace roofcast {

// The thesis counters, each a total over the kernel's launches (all nine of them).
const std::array<double ThesisCounters::*, 9>& thesis_counter_totals();

// Why these values cannot describe a real kernel, or nullopt when they can.
// The message names the counter or parameter at fault.
std::optional<std::string> find_problem(const ThesisCounters& counters);
std::optional<std::string> find_problem(const KernelParameters& parameters);

}  // namespace roofcast
