// Kernels of the test app that exercise the pipes group of the metric set (issue 7): the XU
// pipe (MUFU), atomics and reductions (global and shared), packed fp16 FMA (HFMA2) and the
// tensor pipe through mma.sync of each type (fp16, bf16, tf32, int8, fp64). Every kernel writes
// one float per thread whose value the host knows; run_pipe_kernels launches each three times
// and checks the results on the host. Included by profiler_test_app.cu after its CHECK macro.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <set>
#include <vector>

// XU pipe: MUFU.SIN, MUFU.EX2 (via __expf) and MUFU.RSQ per iteration.
__global__ void mufu_kernel(float* out, const float* in, int iterations) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = 1e-3f * float(int(in[i]) % 97), acc = 0.0f;
  for (int k = 0; k < iterations; ++k) {
    acc += __sinf(x) + __expf(-x) + rsqrtf(1.0f + x);
    x += 1e-3f;
  }
  out[i] = acc;
}

// Sets every word to zero (the atomics kernel counts from zero).
__global__ void zero_kernel(unsigned* x, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x) x[i] = 0;
}

constexpr int kAtomicBins = 64;

// Shared atomics (ATOMS) build a per-block histogram of (in[i] + k) mod 64 over `iterations`;
// each block adds it to the global histogram with reductions (REDG: result unused); lane 0 of
// each warp takes a ticket with a global atomic whose result is used (ATOMG).
__global__ void atomics_kernel(unsigned* bins, unsigned* tickets, float* out, const int* in, int iterations) {
  __shared__ unsigned block_bins[kAtomicBins];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  if (t < kAtomicBins) block_bins[t] = 0;
  __syncthreads();
  const int value = in[i];
  for (int k = 0; k < iterations; ++k) atomicAdd(&block_bins[(value + k) & (kAtomicBins - 1)], 1u);
  __syncthreads();
  if (t < kAtomicBins) atomicAdd(&bins[t], block_bins[t]);
  unsigned ticket = 0;
  if ((t & 31) == 0) ticket = atomicAdd(tickets, 1u);
  out[i] = float(__shfl_sync(0xffffffffu, ticket, 0));
}

// Packed half FMA (HFMA2): four chains, each adding `step` per iteration through a multiply by
// `scale` (1 at run time, so the compiler keeps the FMA).
__global__ void hfma2_kernel(float* out, float scale, float step, int iterations) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const __half2 m = __float2half2_rn(scale), s = __float2half2_rn(step);
  __half2 a = __float2half2_rn(0.0f), b = __float2half2_rn(1.0f), c = __float2half2_rn(2.0f),
          d = __float2half2_rn(3.0f);
  for (int k = 0; k < iterations; ++k) {
    a = __hfma2(a, m, s);
    b = __hfma2(b, m, s);
    c = __hfma2(c, m, s);
    d = __hfma2(d, m, s);
  }
  const __half2 sum = __hadd2(__hadd2(a, b), __hadd2(c, d));
  out[i] = __low2float(sum) + __high2float(sum);
}

// Tensor-core mma.sync, one type per instantiation. Every element of a warp's A fragment is
// a = warp % 3 + 1 and of B is b = warp % 5 + 1 (small integers: exact in every type), so
// every accumulator element grows by K x a x b per mma, whatever the fragment layout.
enum class MmaType { fp16, bf16, tf32, int8, fp64 };

struct MmaShape {
  int k;            // the K of the shape (m16n8k16, m16n8k16, m16n8k8, m16n8k32, m8n8k4)
  int accumulators; // accumulator registers per thread
};

__host__ __device__ constexpr MmaShape mma_shape(MmaType type) {
  switch (type) {
    case MmaType::fp16: return {16, 4};
    case MmaType::bf16: return {16, 4};
    case MmaType::tf32: return {8, 4};
    case MmaType::int8: return {32, 4};
    case MmaType::fp64: return {4, 2};
  }
  return {0, 0};
}

template <MmaType type>
__global__ void mma_kernel(float* out, int iterations) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int warp = i / 32;
  const float a = float(warp % 3 + 1), b = float(warp % 5 + 1);
  float result = 0.0f;
  if constexpr (type == MmaType::fp16 || type == MmaType::bf16) {
    uint32_t ra, rb;
    if constexpr (type == MmaType::fp16) {
      const __half2 ha = __float2half2_rn(a), hb = __float2half2_rn(b);
      ra = reinterpret_cast<const uint32_t&>(ha);
      rb = reinterpret_cast<const uint32_t&>(hb);
    } else {
      const __nv_bfloat162 ha = __float2bfloat162_rn(a), hb = __float2bfloat162_rn(b);
      ra = reinterpret_cast<const uint32_t&>(ha);
      rb = reinterpret_cast<const uint32_t&>(hb);
    }
    float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    for (int k = 0; k < iterations; ++k) {
      if constexpr (type == MmaType::fp16)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(ra), "r"(ra), "r"(ra), "r"(ra), "r"(rb), "r"(rb));
      else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                     : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(ra), "r"(ra), "r"(ra), "r"(ra), "r"(rb), "r"(rb));
    }
    result = d0 + d1 + d2 + d3;
  } else if constexpr (type == MmaType::tf32) {
    uint32_t ra, rb;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(ra) : "f"(a));
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(rb) : "f"(b));
    float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    for (int k = 0; k < iterations; ++k)
      asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                   : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "r"(ra), "r"(ra), "r"(ra), "r"(ra), "r"(rb), "r"(rb));
    result = d0 + d1 + d2 + d3;
  } else if constexpr (type == MmaType::int8) {
    const uint32_t ra = 0x01010101u * uint32_t(warp % 3 + 1), rb = 0x01010101u * uint32_t(warp % 5 + 1);
    int d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    for (int k = 0; k < iterations; ++k)
      asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
                   : "+r"(d0), "+r"(d1), "+r"(d2), "+r"(d3) : "r"(ra), "r"(ra), "r"(ra), "r"(ra), "r"(rb), "r"(rb));
    result = float(d0 + d1 + d2 + d3);
  } else {
    const double da = a, db = b;
    double d0 = 0, d1 = 0;
    for (int k = 0; k < iterations; ++k)
      asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};\n"
                   : "+d"(d0), "+d"(d1) : "d"(da), "d"(db));
    result = float(d0 + d1);
  }
  out[i] = result;
#else
  (void)out;
  (void)iterations;
#endif
}

// The results of the last of `launches` launches, copied back (pageable, n floats).
inline std::vector<float> copy_back(const float* device, size_t n) {
  std::vector<float> host(n);
  CHECK(cudaMemcpy(host.data(), device, n * sizeof(float), cudaMemcpyDeviceToHost));
  return host;
}

inline bool report(const char* kernel, size_t bad, size_t n) {
  if (bad > 0) std::fprintf(stderr, "%s: %zu of %zu results wrong\n", kernel, bad, n);
  return bad == 0;
}

template <MmaType type>
bool run_mma(float* out, int blocks, int threads, int iterations, const char* name) {
  for (int repeat = 0; repeat < 3; ++repeat) mma_kernel<type><<<blocks, threads>>>(out, iterations);
  CHECK(cudaGetLastError());
  const size_t n = size_t(blocks) * threads;
  const auto result = copy_back(out, n);
  const MmaShape shape = mma_shape(type);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    const size_t warp = i / 32;
    const double expected = double(shape.accumulators) * iterations * shape.k * double(warp % 3 + 1) * double(warp % 5 + 1);
    if (result[i] != expected) ++bad;
  }
  return report(name, bad, n);
}

// Launches every pipe kernel three times (blocks x threads, as the other kernels) and checks the
// last launch's results on the host. `f_in`/`i_in` hold `hf`/`hi`. Returns 0 when all agree.
inline int run_pipe_kernels(int blocks, int threads, int iterations, const float* f_in, const int* i_in,
                            const std::vector<float>& hf, const std::vector<int>& hi) {
  const size_t n = size_t(blocks) * threads;
  float* out = nullptr;
  unsigned *bins = nullptr, *tickets = nullptr;
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMalloc(&bins, (kAtomicBins + 1) * sizeof(unsigned)));
  tickets = bins + kAtomicBins;
  bool ok = true;

  // XU pipe.
  const int mufu_iterations = iterations / 4;
  for (int repeat = 0; repeat < 3; ++repeat) mufu_kernel<<<blocks, threads>>>(out, f_in, mufu_iterations);
  CHECK(cudaGetLastError());
  {
    const auto result = copy_back(out, n);
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) {
      float x = 1e-3f * float(int(hf[i]) % 97);
      double expected = 0;
      for (int k = 0; k < mufu_iterations; ++k) {
        expected += std::sin(double(x)) + std::exp(-double(x)) + 1.0 / std::sqrt(1.0 + double(x));
        x += 1e-3f;
      }
      if (std::fabs(result[i] - expected) > 1e-4 * expected) ++bad;
    }
    ok = report("mufu_kernel", bad, n) && ok;
  }

  // Atomics: histogram counts and tickets over the three launches.
  const int atomic_iterations = iterations / 16;
  zero_kernel<<<1, 128>>>(bins, kAtomicBins + 1);
  for (int repeat = 0; repeat < 3; ++repeat) atomics_kernel<<<blocks, threads>>>(bins, tickets, out, i_in, atomic_iterations);
  CHECK(cudaGetLastError());
  {
    std::vector<unsigned> counts(kAtomicBins + 1);
    CHECK(cudaMemcpy(counts.data(), bins, counts.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    std::vector<unsigned> expected(kAtomicBins, 0);
    for (size_t i = 0; i < n; ++i)
      for (int k = 0; k < atomic_iterations; ++k) expected[(hi[i] + k) & (kAtomicBins - 1)] += 3;
    size_t bad = 0;
    for (int b = 0; b < kAtomicBins; ++b) bad += counts[b] != expected[b];
    const unsigned warps = unsigned(n / 32);
    if (counts[kAtomicBins] != 3 * warps) ++bad;
    const auto result = copy_back(out, n);  // the last launch's tickets: 2W..3W-1, one per warp
    std::set<unsigned> seen;
    for (size_t w = 0; w < warps; ++w) {
      const float ticket = result[w * 32];
      for (int lane = 1; lane < 32; ++lane) bad += result[w * 32 + lane] != ticket;
      if (ticket < 2.0f * warps || ticket >= 3.0f * warps || !seen.insert(unsigned(ticket)).second) ++bad;
    }
    ok = report("atomics_kernel", bad, n) && ok;
  }

  // Packed fp16 FMA: four chains from 0, 1, 2, 3 in steps of 1/64 (exact in fp16).
  for (int repeat = 0; repeat < 3; ++repeat) hfma2_kernel<<<blocks, threads>>>(out, 1.0f, 1.0f / 64, iterations);
  CHECK(cudaGetLastError());
  {
    const auto result = copy_back(out, n);
    const float expected = 2.0f * (6.0f + 4.0f * iterations / 64.0f);
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i) bad += result[i] != expected;
    ok = report("hfma2_kernel", bad, n) && ok;
  }

  // Tensor cores (mma.sync needs sm_80 or newer).
  int device = 0, major = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  if (major >= 8) {
    const int mma_iterations = iterations / 4;
    ok = run_mma<MmaType::fp16>(out, blocks, threads, mma_iterations, "mma_kernel<fp16>") && ok;
    ok = run_mma<MmaType::bf16>(out, blocks, threads, mma_iterations, "mma_kernel<bf16>") && ok;
    ok = run_mma<MmaType::tf32>(out, blocks, threads, mma_iterations, "mma_kernel<tf32>") && ok;
    ok = run_mma<MmaType::int8>(out, blocks, threads, mma_iterations, "mma_kernel<int8>") && ok;
    ok = run_mma<MmaType::fp64>(out, blocks, threads, mma_iterations, "mma_kernel<fp64>") && ok;
  } else {
    std::fprintf(stderr, "profiler test app: compute capability %d.x < 8.0, no mma.sync kernels\n", major);
  }
  CHECK(cudaFree(out));
  CHECK(cudaFree(bins));
  return ok ? 0 : 1;
}
