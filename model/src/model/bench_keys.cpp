#include "roofcast/model/bench_keys.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include <fmt/format.h>

namespace roofcast {

namespace {

constexpr std::array<BenchKey, 45> kPipesBenchKeys{{
    // Pipe issue rates; without one, the rate comes from a thesis throughput where one gives it.
    {"pipe_fma_gwips", "measured pipe rates (derived from the thesis throughputs)"},
    {"pipe_fp64_gwips", "measured pipe rates (derived from the thesis throughputs)"},
    {"pipe_fmaheavy_gwips", "measured pipe rates (derived from the thesis throughputs)"},
    {"pipe_alu_gwips", "measured pipe rates (derived from the thesis throughputs)"},
    {"pipe_lsu_gwips", "measured pipe rates (derived from the thesis throughputs)"},
    {"pipe_fp16_gwips", "FP16 pipe"},
    {"half2_gflops", "FP16 pipe"},
    {"pipe_xu_gwips", "XU (MUFU) pipe"},
    {"pipe_issue_gwips", "measured issue limit (taken as the FMA pipe's)"},
    {"tensor_fp16_gflops", "tensor cores", false},
    {"tensor_bf16_gflops", "tensor cores", false},
    {"tensor_tf32_gflops", "tensor cores", false},
    {"tensor_fp64_gflops", "tensor cores", false},
    {"tensor_int8_giops", "tensor cores", false},
    {"tensor_wgmma_fp16_gflops", "wgmma tensor cores", false},
    {"tensor_wgmma_bf16_gflops", "wgmma tensor cores", false},
    {"tensor_wgmma_tf32_gflops", "wgmma tensor cores", false},
    {"tensor_wgmma_int8_giops", "wgmma tensor cores", false},
    {"atomic_global_gops", "global atomics"},
    {"atomic_global_same_address_gops", "global atomics on one line"},
    {"atomic_global_scattered_gops", "scattered global atomics"},
    {"atomic_global_same_word_gops", "global atomics on one word"},
    {"atomic_global_same_word_f32_gops", "global atomics on one word"},
    {"atomic_shared_gops", "shared atomics"},
    {"dram_read_gbps", "DRAM read/write mix"},
    {"dram_write_gbps", "DRAM read/write mix"},
    {"dram_copy_gbps", "DRAM read/write mix"},
    {"dram_elementwise_add_gbps", "DRAM read/write mix"},
    {"l2_gbps", "L2"},
    {"l1_gbps", "L1"},
    {"kernel_floor_us", "launch time"},
    {"dram_latency_ns", "memory parallelism"},
    {"dram_probe_gbps", "DRAM latency under load"},
    {"block_dispatch_gblocks", "block dispatch"},
    {"warp_issue_interval_ns", "latency"},
    {"latency_ffma_ns", "latency"},
    {"latency_dfma_ns", "latency"},
    {"latency_imad_ns", "latency"},
    {"latency_hfma2_ns", "latency"},
    {"latency_mufu_ns", "latency"},
    {"latency_shared_load_ns", "latency"},
    {"latency_l1_hit_ns", "latency"},
    {"latency_l2_hit_ns", "latency"},
    {"latency_dram_ns", "latency"},
    {"latency_dram_warp_ns", "latency"},
}};

bool has_value(const DeviceProfile& device, std::string_view key) {
  const auto it = device.extra_throughput.find(std::string(key));
  return it != device.extra_throughput.end() && it->second > 0;
}

}  // namespace

std::span<const BenchKey> pipes_bench_keys() { return kPipesBenchKeys; }

double bench_value(const DeviceProfile& device, std::string_view key) {
  if (std::none_of(kPipesBenchKeys.begin(), kPipesBenchKeys.end(), [&](const BenchKey& k) { return k.key == key; }))
    throw std::logic_error(fmt::format("the pipes model reads \"{}\", which pipes_bench_keys() does not list", key));
  const auto it = device.extra_throughput.find(std::string(key));
  return it == device.extra_throughput.end() ? 0 : it->second;
}

std::vector<std::string> missing_bench_keys(const DeviceProfile& device) {
  std::vector<std::string> missing;
  for (const auto& k : kPipesBenchKeys)
    if (k.every_gpu && !has_value(device, k.key) &&
        std::find(missing.begin(), missing.end(), k.key) == missing.end())
      missing.emplace_back(k.key);
  return missing;
}

std::string missing_bench_keys_note(const DeviceProfile& device) {
  const std::vector<std::string> missing = missing_bench_keys(device);
  if (missing.empty()) return "";
  std::vector<std::string_view> terms;
  for (const auto& k : kPipesBenchKeys)
    if (std::find(missing.begin(), missing.end(), k.key) != missing.end() &&
        std::find(terms.begin(), terms.end(), k.term) == terms.end())
      terms.push_back(k.term);
  const bool none = std::none_of(kPipesBenchKeys.begin(), kPipesBenchKeys.end(),
                                 [&](const BenchKey& k) { return has_value(device, k.key); });
  if (none)
    return fmt::format("the device profile has none of the {} bench keys the pipes model reads (the thesis' six "
                       "throughputs only): without them it goes without {}; a profile from `roofcast bench` on that "
                       "GPU has them (`--model thesis` is the thesis' model)",
                       missing.size(), fmt::join(terms, ", "));
  const std::string file = device.source.empty() ? "FILE" : device.source;
  return fmt::format("the device profile lacks {}: the pipes model goes without {}; `roofcast bench --complete {}` "
                     "on that GPU measures them",
                     fmt::join(missing, ", "), fmt::join(terms, ", "), file);
}

}  // namespace roofcast
