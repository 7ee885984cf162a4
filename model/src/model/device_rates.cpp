#include "roofcast/model/device_rates.hpp"

#include <algorithm>
#include <array>
#include <string_view>
#include <vector>

#include "roofcast/model/bench_keys.hpp"

namespace roofcast {

namespace {

constexpr double kWarpSize = 32;

// Measured `pipe_<name>_gwips`, or the same rate from one of the thesis' throughputs.
void set_pipe_rate(const DeviceProfile& device, DeviceRates& rates, const std::string& pipe, double derived,
                   const char* derived_from) {
  const double measured = bench_value(device, "pipe_" + pipe + "_gwips");
  if (measured > 0) {
    rates.pipe_gwips[pipe] = measured;
  } else if (derived > 0) {
    rates.pipe_gwips[pipe] = derived;
    rates.notes.push_back("pipe " + pipe + " rate derived from " + derived_from);
  }
}

// Rates taken as measured (0 when the profile lacks them): the member and its throughput key.
constexpr std::array<std::pair<double DeviceRates::*, const char*>, 27> kMeasuredRates{{
    {&DeviceRates::global_atomics_gops, "atomic_global_gops"},
    {&DeviceRates::global_atomics_same_address_gops, "atomic_global_same_address_gops"},
    {&DeviceRates::global_atomics_scattered_gops, "atomic_global_scattered_gops"},
    {&DeviceRates::global_atomics_same_word_gops, "atomic_global_same_word_gops"},
    {&DeviceRates::global_atomics_same_word_f32_gops, "atomic_global_same_word_f32_gops"},
    {&DeviceRates::shared_atomics_gops, "atomic_shared_gops"},
    {&DeviceRates::dram_read_gbps, "dram_read_gbps"},
    {&DeviceRates::dram_write_gbps, "dram_write_gbps"},
    {&DeviceRates::dram_copy_gbps, "dram_copy_gbps"},
    {&DeviceRates::dram_elementwise_add_gbps, "dram_elementwise_add_gbps"},
    {&DeviceRates::l2_gbps, "l2_gbps"},
    {&DeviceRates::l1_gbps, "l1_gbps"},
    {&DeviceRates::kernel_floor_us, "kernel_floor_us"},
    {&DeviceRates::block_dispatch_gblocks, "block_dispatch_gblocks"},
    {&DeviceRates::dram_latency_ns, "dram_latency_ns"},
    {&DeviceRates::dram_probe_gbps, "dram_probe_gbps"},
    {&DeviceRates::warp_issue_interval_ns, "warp_issue_interval_ns"},
    {&DeviceRates::latency_ffma_ns, "latency_ffma_ns"},
    {&DeviceRates::latency_dfma_ns, "latency_dfma_ns"},
    {&DeviceRates::latency_imad_ns, "latency_imad_ns"},
    {&DeviceRates::latency_hfma2_ns, "latency_hfma2_ns"},
    {&DeviceRates::latency_mufu_ns, "latency_mufu_ns"},
    {&DeviceRates::latency_shared_load_ns, "latency_shared_load_ns"},
    {&DeviceRates::latency_l1_hit_ns, "latency_l1_hit_ns"},
    {&DeviceRates::latency_l2_hit_ns, "latency_l2_hit_ns"},
    {&DeviceRates::latency_dram_ns, "latency_dram_ns"},
    {&DeviceRates::latency_dram_warp_ns, "latency_dram_warp_ns"},
}};

}  // namespace

DeviceRates device_rates_of(const DeviceProfile& device) {
  DeviceRates rates;
  const DeviceThroughput& t = device.throughput;
  // An FMA counts 2 operations and a warp instruction 32 threads.
  set_pipe_rate(device, rates, "fma", t.fp32_gflops / (2 * kWarpSize), "T_SP");
  set_pipe_rate(device, rates, "fp64", t.fp64_gflops / (2 * kWarpSize), "T_DP");
  set_pipe_rate(device, rates, "fmaheavy", t.int32_mad_giops / (2 * kWarpSize), "T_int");
  set_pipe_rate(device, rates, "alu", t.int32_add_giops / kWarpSize, "T_add");
  set_pipe_rate(device, rates, "lsu", t.shared_ldst_gops / kWarpSize, "T_ldst");
  set_pipe_rate(device, rates, "fp16", bench_value(device, "half2_gflops") / (4 * kWarpSize), "half2 FMA throughput");
  set_pipe_rate(device, rates, "xu", 0, "");  // measured only: no thesis throughput gives it

  rates.issue_gwips = bench_value(device, "pipe_issue_gwips");
  if (rates.issue_gwips <= 0 && rates.pipe_gwips.contains("fma")) {
    rates.issue_gwips = rates.pipe_gwips["fma"];
    rates.notes.push_back("issue limit taken as the FMA pipe's rate");
  }

  // By source type: the mma.sync peak, and the wgmma peak where Hopper has one ("" none).
  constexpr std::array<std::array<std::string_view, 3>, 5> kTensorPeaks{{
      {"fp16", "tensor_fp16_gflops", "tensor_wgmma_fp16_gflops"},
      {"bf16", "tensor_bf16_gflops", "tensor_wgmma_bf16_gflops"},
      {"tf32", "tensor_tf32_gflops", "tensor_wgmma_tf32_gflops"},
      {"fp64", "tensor_fp64_gflops", ""},
      {"int8", "tensor_int8_giops", "tensor_wgmma_int8_giops"},
  }};
  for (const auto& [type, key, wgmma_key] : kTensorPeaks) {
    const double peak = bench_value(device, key);
    if (peak > 0) rates.tensor_gops[std::string(type)] = peak;
    const double wgmma = wgmma_key.empty() ? 0 : bench_value(device, wgmma_key);
    if (wgmma > 0) rates.tensor_wgmma_gops[std::string(type)] = wgmma;
  }

  // A conflict-free 32-bit shared load or store of a warp is one wavefront.
  rates.shared_wavefronts_gps = t.shared_ldst_gops / kWarpSize;
  rates.dram_mean_gbps = t.dram_gbps;
  for (const auto& [member, key] : kMeasuredRates) rates.*member = bench_value(device, key);
  rates.warps_per_sm = device.occupancy.max_threads_per_sm / kWarpSize;
  rates.sm_clock_mhz = device.sm_clock_mhz;
  if (const std::string missing = missing_bench_keys_note(device); !missing.empty()) rates.notes.push_back(missing);
  if (!rates.notes.empty()) rates.shared_notes = std::make_shared<const std::vector<std::string>>(rates.notes);
  return rates;
}

double dram_gbps_for_read_share(const DeviceRates& rates, double read_share) {
  if (rates.dram_read_gbps <= 0 || rates.dram_write_gbps <= 0 || rates.dram_copy_gbps <= 0) return rates.dram_mean_gbps;
  // (read share, GB/s) in order of share; in place, not a vector: called for every prediction.
  std::array<std::pair<double, double>, 4> mixes{{{0.0, rates.dram_write_gbps}, {0.5, rates.dram_copy_gbps}}};
  size_t count = 2;
  if (rates.dram_elementwise_add_gbps > 0) mixes[count++] = {2.0 / 3.0, rates.dram_elementwise_add_gbps};
  mixes[count++] = {1.0, rates.dram_read_gbps};
  read_share = std::clamp(read_share, 0.0, 1.0);
  for (size_t i = 1; i < count; ++i) {
    const auto [low_share, low_gbps] = mixes[i - 1];
    const auto [high_share, high_gbps] = mixes[i];
    if (read_share <= high_share)
      return low_gbps + (read_share - low_share) / (high_share - low_share) * (high_gbps - low_gbps);
  }
  return rates.dram_read_gbps;
}

}  // namespace roofcast
