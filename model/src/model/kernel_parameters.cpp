#include "roofcast/model/kernel_parameters.hpp"

#include <cmath>
#include <limits>

namespace roofcast {

namespace {

constexpr double kThreadsPerWarp = 32;
constexpr double kBytesPerDramSector = 32;
// Published parameters are rounded to 0.01 %; their shares may sum slightly past 100 %.
constexpr double kShareTolerance = 1e-3;

struct TypedCounts {
  double operations;  // M_fp32 | M_fp64 | M_int
  double fmas;        // M_fma32 | M_fma64 | 0
};

TypedCounts typed_counts(const ThesisCounters& c, KernelType type) {
  switch (type) {
    case KernelType::fp64: return {c.inst_fp_64, c.flop_count_dp_fma};
    case KernelType::fp32: return {c.inst_fp_32, c.flop_count_sp_fma};
    case KernelType::int32: return {c.inst_integer, 0};
  }
  return {0, 0};
}

}  // namespace

double KernelParameters::O_krn() const {
  if (W_traf == 0) return std::numeric_limits<double>::infinity();
  return W_comp / W_traf;
}

KernelType kernel_type_of(const ThesisCounters& counters) {
  if (counters.inst_fp_64 > 0) return KernelType::fp64;
  if (counters.inst_fp_32 > 0) return KernelType::fp32;
  return KernelType::int32;
}

KernelParameters kernel_parameters_from_counters(const ThesisCounters& c) {
  KernelParameters p;
  p.type = kernel_type_of(c);
  const TypedCounts counts = typed_counts(c, p.type);
  p.W_comp = counts.operations + counts.fmas;
  p.W_traf = kBytesPerDramSector * (c.dram_read_transactions + c.dram_write_transactions);
  p.E_mix = p.type == KernelType::int32 ? 0.5 : (counts.operations + counts.fmas) / (2 * counts.operations);
  const double I_total = kThreadsPerWarp * c.inst_executed;
  p.D_ops = counts.operations / I_total;
  p.D_ldst = c.inst_compute_ld_st / I_total;
  return p;
}

const std::array<double ThesisCounters::*, 9>& thesis_counter_totals() {
  static const std::array<double ThesisCounters::*, 9> totals{
      &ThesisCounters::flop_count_sp_fma, &ThesisCounters::flop_count_dp_fma, &ThesisCounters::inst_compute_ld_st,
      &ThesisCounters::inst_executed,     &ThesisCounters::inst_fp_32,        &ThesisCounters::inst_fp_64,
      &ThesisCounters::inst_integer,      &ThesisCounters::dram_read_transactions,
      &ThesisCounters::dram_write_transactions};
  return totals;
}

std::optional<std::string> find_problem(const ThesisCounters& c) {
  const std::pair<const char*, double> all[] = {
      {"flop_count_sp_fma", c.flop_count_sp_fma}, {"flop_count_dp_fma", c.flop_count_dp_fma},
      {"inst_compute_ld_st", c.inst_compute_ld_st}, {"inst_executed", c.inst_executed},
      {"inst_fp_32", c.inst_fp_32},               {"inst_fp_64", c.inst_fp_64},
      {"inst_integer", c.inst_integer},           {"dram_read_transactions", c.dram_read_transactions},
      {"dram_write_transactions", c.dram_write_transactions}};
  for (const auto& [name, value] : all) {
    if (!std::isfinite(value) || value < 0)
      return std::string(name) + ": must be a finite count >= 0";
  }
  if (c.inst_executed == 0) return "inst_executed: is 0, but every kernel executes instructions";
  if (c.flop_count_sp_fma > c.inst_fp_32)
    return "flop_count_sp_fma: exceeds inst_fp_32, but every FMA is an fp32 instruction";
  if (c.flop_count_dp_fma > c.inst_fp_64)
    return "flop_count_dp_fma: exceeds inst_fp_64, but every FMA is an fp64 instruction";
  const KernelType type = kernel_type_of(c);
  const TypedCounts counts = typed_counts(c, type);
  if (counts.operations + c.inst_compute_ld_st > kThreadsPerWarp * c.inst_executed * (1 + 1e-9))
    return "inst_executed: thread instructions of the kernel's type plus loads/stores exceed "
           "32 x inst_executed";
  if (counts.operations == 0 && c.dram_read_transactions + c.dram_write_transactions == 0)
    return "inst_integer: the kernel has no operations and no DRAM traffic, nothing to predict";
  return std::nullopt;
}

std::optional<std::string> find_problem(const KernelParameters& p) {
  const std::pair<const char*, double> all[] = {
      {"W_comp", p.W_comp}, {"W_traf", p.W_traf}, {"E_mix", p.E_mix}, {"D_ops", p.D_ops}, {"D_ldst", p.D_ldst}};
  for (const auto& [name, value] : all) {
    if (!std::isfinite(value) || value < 0) return std::string(name) + ": must be a finite number >= 0";
  }
  if (p.E_mix == 0 || p.E_mix > 1) return "E_mix: must be in (0, 1] (a fraction, not percent)";
  if (p.D_ops > 1) return "D_ops: must be in [0, 1] (a fraction, not percent)";
  if (p.D_ldst > 1) return "D_ldst: must be in [0, 1] (a fraction, not percent)";
  if (p.D_ops + p.D_ldst > 1 + kShareTolerance) return "D_ldst: D_ops + D_ldst exceeds 1";
  if (p.W_comp > 0 && p.D_ops == 0) return "D_ops: is 0, but W_comp says the kernel does operations";
  if (p.W_comp == 0 && p.W_traf == 0) return "W_comp: the kernel has no operations and no DRAM traffic";
  return std::nullopt;
}

}  // namespace roofcast
