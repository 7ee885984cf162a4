// Tensor-core throughput through WMMA (16x16x16 tiles, fp32 accumulation): each warp keeps
// kAccumulators independent accumulators and multiplies the same A and B tiles into them.
// CUDA only: HIP has no WMMA without rocWMMA.
#include <fmt/format.h>

#include <cmath>
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

}  // namespace

std::vector<Measurement> characterize_tensor_cores(const Context& context) {
  std::vector<Measurement> results;
  if (context.compute_major >= 7)
    results.push_back(measure_tensor<__half>(context, "tensor_fp16_gflops", "Tensor fp16 (WMMA, fp32 acc)"));
  if (context.compute_major >= 8)
    results.push_back(measure_tensor<__nv_bfloat16>(context, "tensor_bf16_gflops", "Tensor bf16 (WMMA, fp32 acc)"));
  return results;
}
#else
std::vector<Measurement> characterize_tensor_cores(const Context&) { return {}; }
#endif

}  // namespace roofcast::gpu
