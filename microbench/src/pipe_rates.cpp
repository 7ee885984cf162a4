#include "roofcast/microbench/pipe_rates.hpp"

#include <array>

namespace roofcast::microbench {

namespace {

// CUDA C++ Programming Guide, "Arithmetic Instructions" throughput table (results per clock per
// SM) / 32: FP32 add/mul/FMA 64 (7.x, 8.0) or 128 (8.6 and later); FP64 32 (7.0, 8.0), 64
// (9.0, 10.0), 2 (consumer parts); 32-bit bitwise logic 64; 32-bit integer multiply-add 64;
// reciprocal/rsqrt/exp2/log2/sin/cos (MUFU) 16; half2 FMA as in peak_table.cpp's fp16 column (two
// results per instruction). LDS: 32 banks x 4 bytes, one conflict-free LDS.32 per clock.
// Issue: one warp instruction per clock per SM sub-partition, four sub-partitions per SM
// (Volta to Blackwell whitepapers). Tensor (dense, per SM per clock, from the datasheets' peaks
// over SMs x boost clock): A100 tf32 156 TF, fp64 19.5 TF, int8 624 TOPS at 108 SMs x 1410 MHz;
// H100 SXM tf32 495 TF, fp64 67 TF, int8 1979 TOPS at 132 SMs x 1830 MHz (fp64: 1980 MHz).
constexpr double kNoTensor = 0;
constexpr std::array kPipeRates = {
    //        arch       fma alu fmahv fp64    fp16 xu   lsu issue tf32    fp64 tensor int8
    PipeRates{"sm_70", 2, 2, 2, 1, 2, 0.5, 1, 4, kNoTensor, kNoTensor, kNoTensor},
    PipeRates{"sm_75", 2, 2, 2, 1.0 / 16, 2, 0.5, 1, 4, kNoTensor, kNoTensor, kNoTensor},
    PipeRates{"sm_80", 2, 2, 2, 1, 4, 0.5, 1, 4, 1024, 128, 4096},
    PipeRates{"sm_86", 4, 2, 2, 1.0 / 16, 2, 0.5, 1, 4, kNoTensor, kNoTensor, kNoTensor},
    PipeRates{"sm_87", 4, 2, 2, 1.0 / 16, 2, 0.5, 1, 4, kNoTensor, kNoTensor, kNoTensor},
    PipeRates{"sm_89", 4, 2, 2, 1.0 / 16, 2, 0.5, 1, 4, kNoTensor, kNoTensor, kNoTensor},
    PipeRates{"sm_90", 4, 2, 2, 2, 4, 0.5, 1, 4, 2048, 256, 8192},
    PipeRates{"sm_100", 4, 2, 2, 2, 4, 0.5, 1, 4, kNoTensor, kNoTensor, kNoTensor},
    PipeRates{"sm_120", 4, 2, 2, 1.0 / 16, 2, 0.5, 1, 4, kNoTensor, kNoTensor, kNoTensor},
};

}  // namespace

std::optional<PipeRates> pipe_rates(std::string_view arch) {
  for (const auto& rates : kPipeRates)
    if (rates.arch == arch) return rates;
  return std::nullopt;
}

std::optional<double> pipe_warp_instructions_per_clock(std::string_view arch, std::string_view pipe) {
  const auto r = pipe_rates(arch);
  if (!r) return std::nullopt;
  double value = 0;
  if (pipe == "fma") value = r->fma;
  else if (pipe == "alu") value = r->alu;
  else if (pipe == "fmaheavy") value = r->fmaheavy;
  else if (pipe == "fp64") value = r->fp64;
  else if (pipe == "fp16") value = r->fp16;
  else if (pipe == "xu") value = r->xu;
  else if (pipe == "lsu") value = r->lsu;
  else if (pipe == "issue") value = r->issue;
  if (value <= 0) return std::nullopt;
  return value;
}

std::optional<AllocationUnits> allocation_units(int compute_major) {
  // cuda_occupancy.h: registers are allocated per warp in units of 256 (3.x to 12.x); shared
  // memory in units of 256 bytes up to 7.x and 128 bytes from 8.x. The programming guide's
  // "maximum number of 32-bit registers per thread" is 255 (the calculator rounds it to 256).
  if (compute_major < 7 || compute_major > 12) return std::nullopt;
  return AllocationUnits{255, 256, compute_major >= 8 ? 128 : 256};
}

}  // namespace roofcast::microbench
