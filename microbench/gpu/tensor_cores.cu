// Tensor-core throughput through WMMA (16x16x16 tiles, fp32 accumulation): each warp keeps
// kAccumulators independent accumulators and multiplies the same A and B tiles into them.
// tf32, fp64 and int8 through mma.sync (inline PTX, sm_80 and later).
// CUDA only: HIP has no WMMA without rocWMMA, and no mma.sync.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "characterizers.hpp"

#if ROOFCAST_BACKEND_CUDA
#include <cuda_bf16.h>
#include <mma.h>
#endif

namespace roofcast::gpu {

#if ROOFCAST_BACKEND_CUDA
namespace {

constexpr int kThreads = 128;
constexpr int kAccumulators = 4;
constexpr int kStepsPerTrip = 8;
constexpr int kTile = 16;
#if defined(__CUDA_ARCH__)
constexpr int kDeviceArch = __CUDA_ARCH__;
#else
constexpr int kDeviceArch = 0;
#endif

constexpr long long kMaxSteps = 100000;  // keeps every partial sum exact in fp32

uint32_t float_bits(float f) {
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}
uint64_t double_bits(double d) {
  uint64_t bits;
  std::memcpy(&bits, &d, sizeof bits);
  return bits;
}

// Multiples of 1/4 whose products and sums stay exact in fp32.
float a_value(int row, int k) { return static_cast<float>((row + k) % 3 + 1) / 4; }
float b_value(int k, int col) { return static_cast<float>((2 * k + col) % 2 + 1) / 4; }

template <typename In>
__global__ void __launch_bounds__(kThreads) wmma_kernel(const In* a, const In* b, float* out, int trips,
                                                        BlockClock* clocks) {
  record_block_start(clocks);
  using namespace nvcuda;
  // fp16 WMMA needs sm_70, bf16 sm_80; the host pass and older targets compile an empty body.
  constexpr bool supported = std::is_same_v<In, __half> ? kDeviceArch >= 700 : kDeviceArch >= 800;
  if constexpr (supported) {
    wmma::fragment<wmma::matrix_a, kTile, kTile, kTile, In, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, kTile, kTile, kTile, In, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, kTile, kTile, kTile, float> acc[kAccumulators];
    wmma::load_matrix_sync(fa, a, kTile);
    wmma::load_matrix_sync(fb, b, kTile);
#pragma unroll
    for (int i = 0; i < kAccumulators; ++i) wmma::fill_fragment(acc[i], static_cast<float>(i));
    for (int trip = 0; trip < trips; ++trip) {
#pragma unroll
      for (int s = 0; s < kStepsPerTrip; ++s)
#pragma unroll
        for (int i = 0; i < kAccumulators; ++i) wmma::mma_sync(acc[i], fa, fb, acc[i]);
    }
    const unsigned warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
#pragma unroll
    for (int i = 0; i < kAccumulators; ++i)
      wmma::store_matrix_sync(out + (static_cast<size_t>(warp) * kAccumulators + i) * kTile * kTile, acc[i], kTile,
                              wmma::mem_row_major);
  }
  record_block_end(clocks);
}

template <typename In>
std::vector<In> tile(float (*value)(int, int), bool column_major) {
  std::vector<In> t(kTile * kTile);
  for (int r = 0; r < kTile; ++r)
    for (int c = 0; c < kTile; ++c) t[column_major ? c * kTile + r : r * kTile + c] = In(value(r, c));
  return t;
}

template <typename In>
Measurement measure_tensor(const Context& context, const char* key, const char* label) {
  int blocks_per_sm = 0;
  ROOFCAST_GPU_CHECK(max_active_blocks(&blocks_per_sm, wmma_kernel<In>, kThreads, 0));
  const int blocks = context.sm_count * blocks_per_sm;
  const size_t warps = static_cast<size_t>(blocks) * kThreads / 32;
  DeviceBuffer<In> a(kTile * kTile), b(kTile * kTile);
  a.from_host(tile<In>(a_value, false));
  b.from_host(tile<In>(b_value, true));
  DeviceBuffer<float> out(warps * kAccumulators * kTile * kTile);
  DeviceBuffer<BlockClock> clocks(blocks);
  auto launch = [&](long long n) {
    wmma_kernel<In><<<blocks, kThreads>>>(a.data(), b.data(), out.data(), static_cast<int>(n), clocks.data());
    ROOFCAST_GPU_CHECK_LAUNCH("wmma_kernel");
  };
  const int trips =
      static_cast<int>(calibrate_iterations(launch, 16, context.target_ms, kMaxSteps / kStepsPerTrip));
  out.poison();

  Workload w;
  w.key = key;
  w.label = label;
  w.unit = "GFLOP/s";
  w.work_per_launch = static_cast<double>(warps) * kAccumulators * trips * kStepsPerTrip * 2.0 * kTile * kTile * kTile;
  w.launch = [&] { launch(trips); };
  w.verify = [&]() -> std::string {
    const auto host = out.to_host();
    const double steps = static_cast<double>(trips) * kStepsPerTrip;
    double product[kTile][kTile] = {};
    for (int r = 0; r < kTile; ++r)
      for (int c = 0; c < kTile; ++c)
        for (int k = 0; k < kTile; ++k) product[r][c] += a_value(r, k) * b_value(k, c);
    for (size_t warp = 0; warp < warps; ++warp)
      for (int i = 0; i < kAccumulators; ++i)
        for (int r = 0; r < kTile; ++r)
          for (int c = 0; c < kTile; ++c) {
            const double expected = i + steps * product[r][c];
            const float got = host[((warp * kAccumulators + i) * kTile + r) * kTile + c];
            if (!(std::fabs(got - expected) <= 1e-6 * expected))
              return fmt::format("warp {} accumulator {} element ({}, {}): got {}, expected {}", warp, i, r, c, got,
                                 expected);
          }
    return "";
  };
  w.clocks = &clocks;
  w.details = fmt::format("WMMA 16x16x16, {} blocks x {} threads ({}/SM), {} accumulators/warp, {} x {} steps", blocks,
                          kThreads, blocks_per_sm, kAccumulators, trips, kStepsPerTrip);
  return measure(w, context.policy);
}


// mma.sync through inline PTX for the data types WMMA's float accumulators do not cover:
// every element of A and B holds the same value, so every element of D after n steps is
// c + n * K * a * b, checked for every element the kernel wrote.
struct MmaTf32 {  // m16n8k8, tf32 inputs, f32 accumulate: SASS HMMA.1688.F32.TF32
  static constexpr int kAccumulators = ::roofcast::gpu::kAccumulators;
  static constexpr const char* kKey = "tensor_tf32_gflops";
  static constexpr const char* kLabel = "Tensor tf32 (mma.sync m16n8k8)";
  static constexpr const char* kUnit = "GFLOP/s";
  static constexpr int kM = 16, kN = 8, kK = 8, kAccRegs = 4;
  using Acc = float;
  static constexpr double kA = 0.25, kB = 0.5;
  static constexpr long long kMaxSteps = 1 << 20;  // c + n stays exact in fp32
  __device__ static void step(Acc (&d)[kAccRegs], uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
#endif
  }
  static uint32_t a_bits() { return float_bits(static_cast<float>(kA)); }
  static uint32_t b_bits() { return float_bits(static_cast<float>(kB)); }
};

struct MmaFp64 {  // m8n8k4, f64: SASS DMMA.884
  static constexpr int kAccumulators = ::roofcast::gpu::kAccumulators;
  static constexpr const char* kKey = "tensor_fp64_gflops";
  static constexpr const char* kLabel = "Tensor fp64 (mma.sync m8n8k4)";
  static constexpr const char* kUnit = "GFLOP/s";
  static constexpr int kM = 8, kN = 8, kK = 4, kAccRegs = 2;
  using Acc = double;
  static constexpr double kA = 0.25, kB = 0.5;
  static constexpr long long kMaxSteps = 1 << 20;
  __device__ static void step(Acc (&d)[kAccRegs], uint64_t a, uint64_t b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%0,%1};"
                 : "+d"(d[0]), "+d"(d[1])
                 : "d"(__longlong_as_double(static_cast<long long>(a))),
                   "d"(__longlong_as_double(static_cast<long long>(b))));
#endif
  }
  static uint64_t a_bits() { return double_bits(kA); }
  static uint64_t b_bits() { return double_bits(kB); }
};

// sm_90 adds f64 shapes of 16 x 8 (PTX 7.8); m8n8k4 reaches only half the DMMA rate there.
struct MmaFp64Sm90 {  // m16n8k16, f64: SASS DMMA.16816 (or a sequence of DMMA)
  static constexpr int kAccumulators = 8;  // DMMA's latency wants more independent chains
  static constexpr const char* kKey = "tensor_fp64_gflops";
  static constexpr const char* kLabel = "Tensor fp64 (mma.sync m16n8k16)";
  static constexpr const char* kUnit = "GFLOP/s";
  static constexpr int kM = 16, kN = 8, kK = 16, kAccRegs = 4;
  using Acc = double;
  static constexpr double kA = 0.25, kB = 0.5;
  static constexpr long long kMaxSteps = 1 << 20;
  __device__ static void step(Acc (&d)[kAccRegs], uint64_t a_bits, uint64_t b_bits) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    const double a = __longlong_as_double(static_cast<long long>(a_bits));
    const double b = __longlong_as_double(static_cast<long long>(b_bits));
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, "
                 "{%12,%13,%14,%15}, {%0,%1,%2,%3};"
                 : "+d"(d[0]), "+d"(d[1]), "+d"(d[2]), "+d"(d[3])
                 : "d"(a), "d"(a), "d"(a), "d"(a), "d"(a), "d"(a), "d"(a), "d"(a), "d"(b), "d"(b), "d"(b), "d"(b));
#else
    (void)d, (void)a_bits, (void)b_bits;
#endif
  }
  static uint64_t a_bits() { return double_bits(kA); }
  static uint64_t b_bits() { return double_bits(kB); }
};

struct MmaInt8 {  // m16n8k32, s8 inputs, s32 accumulate: SASS IMMA.16832.S8.S8
  static constexpr int kAccumulators = ::roofcast::gpu::kAccumulators;
  static constexpr const char* kKey = "tensor_int8_giops";
  static constexpr const char* kLabel = "Tensor int8 (mma.sync m16n8k32)";
  static constexpr const char* kUnit = "GIOP/s";
  static constexpr int kM = 16, kN = 8, kK = 32, kAccRegs = 4;
  using Acc = int;
  static constexpr double kA = 3, kB = -2;
  static constexpr long long kMaxSteps = 1 << 20;  // |c + n * 32 * 6| stays far below 2^31
  __device__ static void step(Acc (&d)[kAccRegs], uint32_t a, uint32_t b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
                 "{%0,%1,%2,%3};"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
                 : "r"(a), "r"(a), "r"(a), "r"(a), "r"(b), "r"(b));
#endif
  }
  static uint32_t a_bits() { return 0x03030303u; }  // four s8 lanes of 3
  static uint32_t b_bits() { return 0xFEFEFEFEu; }  // four s8 lanes of -2
};

template <typename Mma, typename Bits>
__global__ void __launch_bounds__(kThreads) mma_kernel(Bits a, Bits b, typename Mma::Acc* out, int trips,
                                                       BlockClock* clocks) {
  record_block_start(clocks);
  typename Mma::Acc d[Mma::kAccumulators][Mma::kAccRegs];
#pragma unroll
  for (int i = 0; i < Mma::kAccumulators; ++i)
#pragma unroll
    for (int r = 0; r < Mma::kAccRegs; ++r) d[i][r] = static_cast<typename Mma::Acc>(i);
  for (int trip = 0; trip < trips; ++trip) {
#pragma unroll
    for (int s = 0; s < kStepsPerTrip; ++s)
#pragma unroll
      for (int i = 0; i < Mma::kAccumulators; ++i) Mma::step(d[i], a, b);
  }
  const size_t thread = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
#pragma unroll
  for (int i = 0; i < Mma::kAccumulators; ++i)
#pragma unroll
    for (int r = 0; r < Mma::kAccRegs; ++r) out[(thread * Mma::kAccumulators + i) * Mma::kAccRegs + r] = d[i][r];
  record_block_end(clocks);
}

template <typename Mma>
Measurement measure_mma(const Context& context) {
  using Bits = decltype(Mma::a_bits());
  int blocks_per_sm = 0;
  ROOFCAST_GPU_CHECK(max_active_blocks(&blocks_per_sm, mma_kernel<Mma, Bits>, kThreads, 0));
  const int blocks = context.sm_count * blocks_per_sm;
  const size_t threads = static_cast<size_t>(blocks) * kThreads;
  const size_t warps = threads / 32;
  DeviceBuffer<typename Mma::Acc> out(threads * Mma::kAccumulators * Mma::kAccRegs);
  DeviceBuffer<BlockClock> clocks(blocks);
  auto launch = [&](long long n) {
    mma_kernel<Mma, Bits><<<blocks, kThreads>>>(Mma::a_bits(), Mma::b_bits(), out.data(), static_cast<int>(n),
                                                clocks.data());
    ROOFCAST_GPU_CHECK_LAUNCH("mma_kernel");
  };
  const int trips =
      static_cast<int>(calibrate_iterations(launch, 16, context.target_ms, Mma::kMaxSteps / kStepsPerTrip));
  out.poison();

  Workload w;
  w.key = Mma::kKey;
  w.label = Mma::kLabel;
  w.unit = Mma::kUnit;
  w.work_per_launch =
      static_cast<double>(warps) * Mma::kAccumulators * trips * kStepsPerTrip * 2.0 * Mma::kM * Mma::kN * Mma::kK;
  w.launch = [&] { launch(trips); };
  w.verify = [&]() -> std::string {
    const auto host = out.to_host();
    const double steps = static_cast<double>(trips) * kStepsPerTrip;
    for (size_t e = 0; e < host.size(); ++e) {
      const int accumulator = static_cast<int>(e / Mma::kAccRegs % Mma::kAccumulators);
      const double expected = accumulator + steps * Mma::kK * Mma::kA * Mma::kB;
      if (!(static_cast<double>(host[e]) == expected))
        return fmt::format("thread {} accumulator {}: got {}, expected {}", e / Mma::kAccRegs / Mma::kAccumulators,
                           accumulator, static_cast<double>(host[e]), expected);
    }
    return "";
  };
  w.clocks = &clocks;
  w.details = fmt::format("mma.sync m{}n{}k{}, {} blocks x {} threads ({}/SM), {} accumulators/warp, {} x {} steps",
                          Mma::kM, Mma::kN, Mma::kK, blocks, kThreads, blocks_per_sm, Mma::kAccumulators, trips,
                          kStepsPerTrip);
  return measure(w, context.policy);
}

}  // namespace

std::vector<Measurement> characterize_tensor_cores(const Context& context) {
  std::vector<Measurement> results;
  if (context.compute_major >= 7)
    results.push_back(measure_tensor<__half>(context, "tensor_fp16_gflops", "Tensor fp16 (WMMA, fp32 acc)"));
  if (context.compute_major >= 8)
    results.push_back(measure_tensor<__nv_bfloat16>(context, "tensor_bf16_gflops", "Tensor bf16 (WMMA, fp32 acc)"));
  if (context.compute_major >= 8) {
    results.push_back(measure_mma<MmaTf32>(context));
    results.push_back(context.compute_major >= 9 ? measure_mma<MmaFp64Sm90>(context) : measure_mma<MmaFp64>(context));
    results.push_back(measure_mma<MmaInt8>(context));
  }
  return results;
}
#else
std::vector<Measurement> characterize_tensor_cores(const Context&) { return {}; }
#endif

}  // namespace roofcast::gpu
