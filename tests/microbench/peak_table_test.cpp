#include <catch2/catch.hpp>

#include "roofcast/microbench/peak_table.hpp"

using namespace roofcast::microbench;

TEST_CASE("the peak table knows the architectures roofcast builds for") {
  for (const char* arch : {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120", "gfx90a", "gfx1030"})
    CHECK(architecture_rates(arch).has_value());
  CHECK(architecture_rates("gfx90a:sramecc+:xnack-").has_value());
  CHECK_FALSE(architecture_rates("sm_99").has_value());
}

TEST_CASE("H100 SXM peaks at its boost clock match the datasheet") {
  const auto hopper = *architecture_rates("sm_90");
  auto peak = [&](const char* key) { return *theoretical_peak(key, hopper, 132, 1980, 2619, 5120); };
  CHECK(peak("fp32_gflops") == Approx(66908).epsilon(0.001));  // 132 SMs x 128 lanes x 2 x 1.98 GHz
  CHECK(peak("fp64_gflops") == Approx(33454).epsilon(0.001));
  CHECK(peak("half2_gflops") == Approx(133816).epsilon(0.001));
  CHECK(peak("int32_mad_giops") == Approx(33454).epsilon(0.001));
  CHECK(peak("int32_add_giops") == Approx(33454).epsilon(0.001));  // IADD3 and IMAD.IADD pipes together
  CHECK(peak("shared_ldst_gops") == Approx(8363.5).epsilon(0.001));  // 32 words/clock/SM
  CHECK(peak("shared_ldst128_gops") == Approx(8363.5 / 4).epsilon(0.001));
  CHECK(peak("dram_read_gbps") == Approx(3352).epsilon(0.001));     // 5120-bit HBM3 at 2619 MHz
  CHECK(peak("memcpy_d2d_gbps") == Approx(3352).epsilon(0.001));
  CHECK_FALSE(theoretical_peak("l2_gbps", hopper, 132, 1980, 2619, 5120).has_value());
  CHECK_FALSE(theoretical_peak("launch_overhead_us", hopper, 132, 1980, 2619, 5120).has_value());
  CHECK_FALSE(theoretical_peak("dram_latency_ns", hopper, 132, 1980, 2619, 5120).has_value());
  CHECK_FALSE(theoretical_peak("dram_probe_gbps", hopper, 132, 1980, 2619, 5120).has_value());
  CHECK_FALSE(theoretical_peak("fp32_gflops", hopper, 132, 0, 2619, 5120).has_value());
}

TEST_CASE("theoretical peaks use the clock measured in each kernel and the SMs actually in use") {
  SuiteResult result;
  result.device.arch = "sm_90";
  result.device.sm_count = 132;
  result.device.sm_count_observed = 66;  // an MPS partition
  result.device.memory_clock_mhz_attribute = 2619;
  result.device.memory_bus_bits = 5120;
  result.clocks.sm_clock_mhz_in_kernel = 1500;
  Measurement fp32;
  fp32.key = "fp32_gflops";
  fp32.sm_clock_mhz = 1000;
  Measurement fp64;
  fp64.key = "fp64_gflops";  // no clock of its own: the suite's median
  result.measurements = {fp32, fp64};
  apply_theoretical_peaks(result);
  CHECK(*result.measurements[0].theoretical == Approx(66 * 256 * 1.0));
  CHECK(*result.measurements[1].theoretical == Approx(66 * 128 * 1.5));

  result.device.arch = "unknown";
  apply_theoretical_peaks(result);
  CHECK_FALSE(result.measurements[0].theoretical.has_value());
}
