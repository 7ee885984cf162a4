// Predicts one made-up kernel on one made-up device with the installed roofcast::model.
#include <cstdio>

#include "roofcast/model/thesis_prediction.hpp"

int main() {
  roofcast::DeviceThroughput device;
  device.fp32_gflops = 1000;
  device.fp64_gflops = 100;
  device.int32_mad_giops = 500;
  device.int32_add_giops = 1000;
  device.shared_ldst_gops = 500;
  device.dram_gbps = 100;

  roofcast::KernelParameters kernel;  // one flop per byte: memory-bound on this device
  kernel.W_comp = 1e9;
  kernel.W_traf = 1e9;
  kernel.E_mix = 1;
  kernel.D_ops = 0.5;
  kernel.D_ldst = 0.25;

  const auto prediction = roofcast::predict_thesis(kernel, device);
  std::printf("%s-bound, %.3f ms\n", roofcast::to_string(prediction.bound), prediction.predicted_ms);
  return prediction.bound == roofcast::Bound::memory && prediction.predicted_ms > 0 ? 0 : 1;
}
