#include "roofcast/model/thesis_prediction.hpp"

namespace roofcast {

namespace {
// Throughputs are in G(FL)OP/s and GB/s: work / (rate x 1e9) seconds = work / rate x 1e-6 ms.
constexpr double kMillisecondsPerGigaRate = 1e-6;

double peak_of_type(const DeviceThroughput& device, KernelType type) {
  switch (type) {
    case KernelType::fp32: return device.fp32_gflops;
    case KernelType::fp64: return device.fp64_gflops;
    case KernelType::int32: return device.int32_mad_giops;
  }
  return 0;
}
}  // namespace

const char* to_string(Bound bound) { return bound == Bound::compute ? "compute" : "memory"; }

ThesisPrediction predict_thesis(const KernelParameters& kernel, const DeviceThroughput& device) {
  ThesisPrediction p;
  const double T_SP = device.fp32_gflops;
  p.T_op = peak_of_type(device, kernel.type);
  p.W_op = T_SP / p.T_op;
  p.W_ldst = (T_SP / 2) / device.shared_ldst_gops;
  p.W_other = (T_SP / 2) / device.int32_add_giops;
  p.C_op = kernel.D_ops * p.W_op;
  p.C_ldst = kernel.D_ldst * p.W_ldst;
  p.C_other = kernel.D_other() * p.W_other;
  p.E_instr = p.C_op / (p.C_op + p.C_ldst + p.C_other);
  p.T_op_adjusted = kernel.E_mix * p.E_instr * p.T_op;
  p.O_krn = kernel.O_krn();
  p.O_dev = p.T_op_adjusted / device.dram_gbps;
  p.bound = p.O_krn > p.O_dev ? Bound::compute : Bound::memory;
  if (p.bound == Bound::compute) {
    p.T_predicted = p.T_op_adjusted;
    p.predicted_ms = kernel.W_comp / p.T_op_adjusted * kMillisecondsPerGigaRate;
  } else {
    // W_comp / (O_krn x B_mem) = W_traf / B_mem, which also holds when W_comp is 0.
    p.T_predicted = p.O_krn * device.dram_gbps;
    p.predicted_ms = kernel.W_traf / device.dram_gbps * kMillisecondsPerGigaRate;
  }
  return p;
}

double utilization_factor(double measured_ms_on_reference, double predicted_ms_on_reference) {
  return measured_ms_on_reference / predicted_ms_on_reference;
}

double prediction_error(double predicted_ms, double measured_ms) {
  return (predicted_ms - measured_ms) / measured_ms;
}

}  // namespace roofcast
