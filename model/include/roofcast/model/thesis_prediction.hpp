#pragma once

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_parameters.hpp"

namespace roofcast {

enum class Bound { compute, memory };
const char* to_string(Bound bound);

// Every intermediate value of the thesis' prediction of one kernel on one device
// (eqs. 4.9-4.18), in the thesis' units (GFLOP/s or GIOP/s, GB/s, ops/byte).
struct ThesisPrediction {
  double T_op = 0;            // peak of the kernel's type on the device
  double W_op = 0, W_ldst = 0, W_other = 0;  // instruction weights relative to an SP FMA
  double C_op = 0, C_ldst = 0, C_other = 0;  // instruction costs
  double E_instr = 0;
  double T_op_adjusted = 0;   // T'_op = E_mix x E_instr x T_op
  double O_krn = 0;           // +infinity when the kernel moves no DRAM bytes
  double O_dev = 0;           // T'_op / B_mem
  Bound bound = Bound::compute;
  double T_predicted = 0;     // attained throughput: T'_op or O_krn x B_mem
  double predicted_ms = 0;
};

ThesisPrediction predict_thesis(const KernelParameters& kernel, const DeviceThroughput& device);

// Thesis eq. 5.13: E_util = measured / predicted time on the reference device.
double utilization_factor(double measured_ms_on_reference, double predicted_ms_on_reference);

// Thesis eq. 5.12: (predicted - measured) / measured. APE is its absolute value.
double prediction_error(double predicted_ms, double measured_ms);

}  // namespace roofcast
