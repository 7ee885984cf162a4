#include "roofcast/microbench/peak_table.hpp"

#include <algorithm>
#include <array>
#include <string>

#include "roofcast/microbench/pipe_rates.hpp"

namespace roofcast::microbench {

namespace {

// Per-SM (per-CU) results per clock. NVIDIA: the CUDA C++ Programming Guide's arithmetic
// instruction throughput table and the datasheets' dense tensor rates (fp32 accumulate,
// data-centre parts; consumer parts of 8.6/8.9/12.0 run fp32-accumulate MMA at half that).
// AMD: CDNA2/RDNA2 instruction set guides and datasheets (vector units, no packed FP32).
// Shared memory is 32 banks x 4 bytes on every listed NVIDIA architecture.
// Integer add on sm_90/sm_100: ptxas issues half of an add-heavy loop as IADD3 (ALU pipe) and
// half as IMAD.IADD (FMA pipe), 64 lanes each: 128 adds per clock, measured on an H200
// (data/devices/). Other architectures keep the programming guide's 64.
constexpr std::array kRates = {
    //                  arch     fp32 fp64 fp16 imad iadd  smem  l1   tensor fp16  bf16
    ArchitectureRates{"sm_70", 64, 32, 128, 64, 64, 128, 128, 1024, 0},
    ArchitectureRates{"sm_75", 64, 2, 128, 64, 64, 128, 64, 1024, 0},
    ArchitectureRates{"sm_80", 64, 32, 256, 64, 64, 128, 128, 2048, 2048},
    ArchitectureRates{"sm_86", 128, 2, 128, 64, 64, 128, 128, 1024, 1024},
    ArchitectureRates{"sm_87", 128, 2, 128, 64, 64, 128, 128, 1024, 1024},
    ArchitectureRates{"sm_89", 128, 2, 128, 64, 64, 128, 128, 1024, 1024},
    ArchitectureRates{"sm_90", 128, 64, 256, 64, 128, 128, 128, 4096, 4096},
    ArchitectureRates{"sm_100", 128, 64, 256, 64, 128, 128, 128, 8192, 8192},
    ArchitectureRates{"sm_120", 128, 2, 128, 64, 64, 128, 128, 1024, 1024},
    ArchitectureRates{"gfx90a", 64, 64, 128, 64, 64, 128, 64, 1024, 1024},
    ArchitectureRates{"gfx1030", 64, 4, 128, 64, 64, 128, 64, 0, 0},
};

bool starts_with(std::string_view text, std::string_view prefix) {
  return text.substr(0, prefix.size()) == prefix;
}

}  // namespace

std::optional<ArchitectureRates> architecture_rates(std::string_view arch) {
  // AMD names carry feature suffixes ("gfx90a:sramecc+:xnack-").
  arch = arch.substr(0, arch.find(':'));
  for (const auto& rates : kRates)
    if (rates.arch == arch) return rates;
  return std::nullopt;
}

std::optional<double> theoretical_peak(std::string_view key, const ArchitectureRates& r, int sm_count,
                                       double sm_clock_mhz, double memory_clock_mhz, int memory_bus_bits) {
  // The latency probe runs far below the bandwidth on purpose: no peak applies to it.
  if (key == "dram_probe_gbps" || key == "dram_latency_ns") return std::nullopt;
  if (starts_with(key, "dram_") || key == "memcpy_d2d_gbps") {
    if (memory_clock_mhz <= 0 || memory_bus_bits <= 0) return std::nullopt;
    // Double data rate: two transfers per memory clock over the whole bus.
    return 2.0 * memory_clock_mhz * 1e6 * memory_bus_bits / 8.0 / 1e9;
  }
  if (sm_count <= 0 || sm_clock_mhz <= 0) return std::nullopt;
  const double per_clock_to_giga = sm_count * sm_clock_mhz * 1e6 / 1e9;
  double per_sm_per_clock = 0;
  if (key == "fp32_gflops") per_sm_per_clock = 2 * r.fp32_lanes;
  else if (key == "fp64_gflops") per_sm_per_clock = 2 * r.fp64_lanes;
  else if (key == "half2_gflops") per_sm_per_clock = 2 * r.fp16_lanes;
  else if (key == "int32_mad_giops") per_sm_per_clock = 2 * r.int32_mad_lanes;
  else if (key == "int32_add_giops") per_sm_per_clock = r.int32_add_lanes;
  else if (key == "shared_ldst_gops") per_sm_per_clock = r.shared_bytes_per_clock / 4;
  else if (key == "shared_ldst64_gops") per_sm_per_clock = r.shared_bytes_per_clock / 8;
  else if (key == "shared_ldst128_gops") per_sm_per_clock = r.shared_bytes_per_clock / 16;
  else if (key == "l1_gbps") per_sm_per_clock = r.l1_bytes_per_clock;
  // The wgmma keys (sm_90) compare against the same dense rates as the mma.sync ones.
  else if (key == "tensor_fp16_gflops" || key == "tensor_wgmma_fp16_gflops")
    per_sm_per_clock = r.tensor_fp16_flops_per_clock;
  else if (key == "tensor_bf16_gflops" || key == "tensor_wgmma_bf16_gflops")
    per_sm_per_clock = r.tensor_bf16_flops_per_clock;
  else if (const auto pipes = pipe_rates(r.arch)) {
    if (key == "tensor_tf32_gflops" || key == "tensor_wgmma_tf32_gflops") per_sm_per_clock = pipes->tensor_tf32_flops;
    else if (key == "tensor_fp64_gflops") per_sm_per_clock = pipes->tensor_fp64_flops;
    else if (key == "tensor_int8_giops" || key == "tensor_wgmma_int8_giops") per_sm_per_clock = pipes->tensor_int8_ops;
    // "pipe_<name>_gwips": warp instructions per clock per SM
    else if (starts_with(key, "pipe_") && key.size() > 11 && key.substr(key.size() - 6) == "_gwips")
      per_sm_per_clock = pipe_warp_instructions_per_clock(r.arch, key.substr(5, key.size() - 11)).value_or(0);
  }
  if (per_sm_per_clock <= 0) return std::nullopt;
  return per_sm_per_clock * per_clock_to_giga;
}

void apply_theoretical_peaks(SuiteResult& result) {
  const auto rates = architecture_rates(result.device.arch);
  const int sm_count = effective_sm_count(result.device);
  for (auto& m : result.measurements) {
    m.theoretical.reset();
    if (!rates) continue;
    const double clock = m.sm_clock_mhz > 0 ? m.sm_clock_mhz : result.clocks.sm_clock_mhz_in_kernel;
    m.theoretical = theoretical_peak(m.key, *rates, sm_count, clock, result.clocks.memory_clock_mhz(result.device),
                                     result.device.memory_bus_bits);
  }
}

}  // namespace roofcast::microbench
