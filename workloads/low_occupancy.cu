// Low-occupancy loop kernels in FP32 and FP64: big blocks whose shared-memory table
// (128 KiB) leaves room for one block per SM, so only 8 (FP32) or 12 (FP64) of an SM's 64
// warps are resident (12.5 % and 18.75 % occupancy). Each loop iteration is a chain: a
// global load from an L2-resident table at an index that depends on the last value, a
// shared-memory load, then four dependent FMAs. Too few warps to hide those latencies.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr unsigned kBlocks = 264;               // two waves on a 132-SM GPU
constexpr unsigned kSharedBytes = 128u << 10;   // one block per SM on Hopper (228 KiB per SM)
constexpr unsigned kTableCount = 1u << 20;      // 4 MiB (FP32) or 8 MiB (FP64): in L2, not in L1

__host__ __device__ inline float fused(float a, float b, float c) { return fmaf(a, b, c); }
__host__ __device__ inline double fused(double a, double b, double c) { return fma(a, b, c); }

__host__ __device__ inline unsigned low_bits(float x) {
  unsigned bits;
  memcpy(&bits, &x, sizeof bits);
  return bits;
}
__host__ __device__ inline unsigned low_bits(double x) {
  unsigned long long bits;
  memcpy(&bits, &x, sizeof bits);
  return static_cast<unsigned>(bits);
}

// One thread's loop; `coefficients` is in shared memory on the device. Values stay within
// [-3, 3]: every step scales by at most 1/2 before adding a bounded term.
template <typename Real>
__host__ __device__ Real dependent_loop(Real x, unsigned index, const Real* table, const Real* coefficients,
                                        unsigned coefficient_mask, int iterations) {
  for (int k = 0; k < iterations; ++k) {
    index = index * 1664525u + 1013904223u + low_bits(x);
    const Real y = table[index & (kTableCount - 1)];
    const Real c = coefficients[(index >> 12) & coefficient_mask];
    x = fused(x, Real(0.5), y);
    x = fused(x, c, Real(0.125));
    x = fused(x, Real(0.75), Real(-0.0625));
    x = fused(x, Real(0.875), Real(0.03125));
  }
  return x;
}

template <typename Real>
__device__ void low_occupancy_body(Real* out, const Real* in, const Real* table, const Real* coefficients,
                                   int iterations) {
  extern __shared__ unsigned char shared_bytes[];
  Real* stage = reinterpret_cast<Real*>(shared_bytes);
  constexpr unsigned count = kSharedBytes / sizeof(Real);
  for (unsigned j = threadIdx.x; j < count; j += blockDim.x) stage[j] = coefficients[j];
  __syncthreads();
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = dependent_loop(in[i], i, table, stage, count - 1, iterations);
}

__global__ void lowocc_fp32_loop(float* __restrict__ out, const float* __restrict__ in,
                                 const float* __restrict__ table, const float* __restrict__ coefficients,
                                 int iterations) {
  low_occupancy_body(out, in, table, coefficients, iterations);
}

__global__ void lowocc_fp64_loop(double* __restrict__ out, const double* __restrict__ in,
                                 const double* __restrict__ table, const double* __restrict__ coefficients,
                                 int iterations) {
  low_occupancy_body(out, in, table, coefficients, iterations);
}

namespace {

template <typename Real, typename Kernel>
bool run(const char* name, Kernel kernel, unsigned threads, const Options& options) {
  const int iterations = options.small ? 64 : 8192;
  const size_t n = size_t{kBlocks} * threads;
  constexpr unsigned coefficient_count = kSharedBytes / sizeof(Real);
  std::vector<Real> in(n), table(kTableCount), coefficients(coefficient_count);
  fill_uniform(in, Real(-1), Real(1), fresh_seed());
  fill_uniform(table, Real(-1), Real(1), fresh_seed() + 1);
  fill_uniform(coefficients, Real(0.25), Real(0.5), fresh_seed() + 2);
  DeviceBuffer<Real> in_d(n), out_d(n), table_d(kTableCount), coefficients_d(coefficient_count);
  in_d.upload(in);
  table_d.upload(table);
  coefficients_d.upload(coefficients);
  out_d.poison();
  ROOFCAST_CUDA(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
  auto launch = [&] {
    kernel<<<kBlocks, threads, kSharedBytes>>>(out_d.get(), in_d.get(), table_d.get(), coefficients_d.get(), iterations);
  };
  launch();
  ROOFCAST_CHECK_LAUNCH();
  const std::vector<Real> out = out_d.download();
  const auto checked = elements_to_check(n, 64);
  size_t wrong = 0;
  for (const size_t i : checked) {
    const Real want = dependent_loop(in[i], static_cast<unsigned>(i), table.data(), coefficients.data(),
                                     coefficient_count - 1, iterations);
    wrong += out[i] != want;  // the same fused operations in the same order: bit-exact
  }
  const bool ok = report_check(name, wrong == 0,
                               std::to_string(wrong) + " of " + std::to_string(checked.size()) +
                                   " checked threads differ from host after " + std::to_string(iterations) +
                                   " iterations");
  time_kernel(name, options, launch);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "low_occupancy", "FP32/FP64 dependent loops at 12-19 % occupancy");
  print_header("low_occupancy", std::to_string(kBlocks) + " blocks of 256 (FP32) / 384 (FP64) threads, 128 KiB shared each, " +
                                    (options.small ? "64" : "8192") + " iterations");
  const bool fp32_ok = run<float>("lowocc_fp32_loop", lowocc_fp32_loop, 256, options);
  const bool fp64_ok = run<double>("lowocc_fp64_loop", lowocc_fp64_loop, 384, options);
  return fp32_ok && fp64_ok ? 0 : 1;
}
