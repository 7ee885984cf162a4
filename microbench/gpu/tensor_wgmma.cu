// Hopper tensor-core throughput through wgmma (sm_90a): each block is one warpgroup that
// keeps a 64 x K tile of A and a 256 x K tile of B in shared memory (loaded once) and issues
// wgmma.mma_async m64n256 on them, accumulating into 128 registers per thread. mma.sync
// reaches only about two thirds of Hopper's tensor rate; wgmma (SASS HGMMA/IGMMA) reaches it.
// Compiled only for sm_90a (microbench/CMakeLists.txt) and run only on compute capability 9.0.
#include <cuda_bf16.h>
#include <fmt/format.h>

#include <cstdint>
#include <exception>
#include <string>
#include <type_traits>
#include <vector>

#include "characterizers.hpp"

namespace roofcast::gpu {

namespace {

constexpr int kThreads = 128;  // one warpgroup
constexpr int kM = 64, kN = 256;
constexpr int kAccRegs = kM * kN / kThreads;
constexpr int kStepsPerTrip = 16;
constexpr int kTileRowBytes = 32;  // every wgmma reads 32 bytes of K per row of A and B

// The 128 accumulator operands %0..%127 of one wgmma, and their constraints.
#define ROOFCAST_WGMMA_D                                                                                  \
  "{%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15,%16,%17,%18,%19,%20,%21,%22,%23,%24,%25,%26,%27," \
  "%28,%29,%30,%31,%32,%33,%34,%35,%36,%37,%38,%39,%40,%41,%42,%43,%44,%45,%46,%47,%48,%49,%50,%51,%52,"    \
  "%53,%54,%55,%56,%57,%58,%59,%60,%61,%62,%63,%64,%65,%66,%67,%68,%69,%70,%71,%72,%73,%74,%75,%76,%77,"    \
  "%78,%79,%80,%81,%82,%83,%84,%85,%86,%87,%88,%89,%90,%91,%92,%93,%94,%95,%96,%97,%98,%99,%100,%101,"      \
  "%102,%103,%104,%105,%106,%107,%108,%109,%110,%111,%112,%113,%114,%115,%116,%117,%118,%119,%120,%121,"    \
  "%122,%123,%124,%125,%126,%127}"
#define ROOFCAST_D8(c, i) \
  c(d[i]), c(d[i + 1]), c(d[i + 2]), c(d[i + 3]), c(d[i + 4]), c(d[i + 5]), c(d[i + 6]), c(d[i + 7])
#define ROOFCAST_D128(c)                                                                                   \
  ROOFCAST_D8(c, 0), ROOFCAST_D8(c, 8), ROOFCAST_D8(c, 16), ROOFCAST_D8(c, 24), ROOFCAST_D8(c, 32),         \
      ROOFCAST_D8(c, 40), ROOFCAST_D8(c, 48), ROOFCAST_D8(c, 56), ROOFCAST_D8(c, 64), ROOFCAST_D8(c, 72),   \
      ROOFCAST_D8(c, 80), ROOFCAST_D8(c, 88), ROOFCAST_D8(c, 96), ROOFCAST_D8(c, 104), ROOFCAST_D8(c, 112), \
      ROOFCAST_D8(c, 120)

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define ROOFCAST_WGMMA_ENABLED 1
#endif

// One wgmma of the warpgroup into its accumulators d, A and B from the shared-memory
// descriptors a and b: `op` is the PTX instruction with its shape, `immediates` what follows the
// scale-d predicate (it differs by type), `acc` the accumulators' constraint.
#if ROOFCAST_WGMMA_ENABLED
#define ROOFCAST_WGMMA_ASM(op, immediates, acc)                                                             \
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n" op " " ROOFCAST_WGMMA_D ", %128, %129, p" immediates \
               ";\n}\n"                                                                                      \
               : ROOFCAST_D128(acc)                                                                        \
               : "l"(a), "l"(b), "r"(1))
#else
#define ROOFCAST_WGMMA_ASM(op, immediates, acc) ((void)d, (void)a, (void)b)
#endif

// scale-d is a predicate: 1 = D += A * B. Both operands K-major (no transpose).
struct WgmmaFp16 {  // SASS HGMMA.64x256x16.F32
  static constexpr const char* kKey = "tensor_wgmma_fp16_gflops";
  static constexpr const char* kLabel = "Tensor fp16 (wgmma m64n256k16, fp32 acc)";
  static constexpr const char* kUnit = "GFLOP/s";
  static constexpr const char* kShape = "m64n256k16.f32.f16.f16";
  using Element = __half;
  using Acc = float;
  static Element from_int(int v) { return __float2half(static_cast<float>(v)); }
  __device__ static void step(Acc (&d)[kAccRegs], uint64_t a, uint64_t b) {
    ROOFCAST_WGMMA_ASM("wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16", ", 1, 1, 0, 0", "+f");
  }
};

struct WgmmaBf16 {  // SASS HGMMA.64x256x16.F32.BF16
  static constexpr const char* kKey = "tensor_wgmma_bf16_gflops";
  static constexpr const char* kLabel = "Tensor bf16 (wgmma m64n256k16, fp32 acc)";
  static constexpr const char* kUnit = "GFLOP/s";
  static constexpr const char* kShape = "m64n256k16.f32.bf16.bf16";
  using Element = __nv_bfloat16;
  using Acc = float;
  static Element from_int(int v) { return __float2bfloat16(static_cast<float>(v)); }
  __device__ static void step(Acc (&d)[kAccRegs], uint64_t a, uint64_t b) {
    ROOFCAST_WGMMA_ASM("wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16", ", 1, 1, 0, 0", "+f");
  }
};

struct WgmmaTf32 {  // SASS HGMMA.64x256x8.F32.TF32; tf32 has no transpose operands
  static constexpr const char* kKey = "tensor_wgmma_tf32_gflops";
  static constexpr const char* kLabel = "Tensor tf32 (wgmma m64n256k8, fp32 acc)";
  static constexpr const char* kUnit = "GFLOP/s";
  static constexpr const char* kShape = "m64n256k8.f32.tf32.tf32";
  using Element = float;
  using Acc = float;
  static Element from_int(int v) { return static_cast<float>(v); }
  __device__ static void step(Acc (&d)[kAccRegs], uint64_t a, uint64_t b) {
    ROOFCAST_WGMMA_ASM("wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32", ", 1, 1", "+f");
  }
};

struct WgmmaInt8 {  // SASS IGMMA.64x256x32.S8.S8
  static constexpr const char* kKey = "tensor_wgmma_int8_giops";
  static constexpr const char* kLabel = "Tensor int8 (wgmma m64n256k32, s32 acc)";
  static constexpr const char* kUnit = "GIOP/s";
  static constexpr const char* kShape = "m64n256k32.s32.s8.s8";
  using Element = int8_t;
  using Acc = int;
  static Element from_int(int v) { return static_cast<int8_t>(v); }
  __device__ static void step(Acc (&d)[kAccRegs], uint64_t a, uint64_t b) {
    ROOFCAST_WGMMA_ASM("wgmma.mma_async.sync.aligned.m64n256k32.s32.s8.s8", "", "+r");
  }
};

// Tiles are stored K-major without swizzle as 8-row x 16-byte core matrices (128 contiguous
// bytes each): core matrix (row / 8, k-half) at ((row / 8) * 2 + k-half) * 128 bytes. In the
// descriptor the leading byte offset is the distance between the two K halves (128 bytes),
// the stride byte offset the distance between 8-row groups (256 bytes); both >> 4.
constexpr uint32_t kLeadingByteOffset = 128;
constexpr uint32_t kStrideByteOffset = 256;

template <typename Element>
size_t tile_index(int row, int k) {
  constexpr int per_16_bytes = 16 / sizeof(Element);
  return (static_cast<size_t>(row / 8) * 2 + k / per_16_bytes) * 8 * per_16_bytes + (row % 8) * per_16_bytes +
         k % per_16_bytes;
}

__device__ uint64_t shared_descriptor(const void* tile) {
  const auto address = static_cast<uint32_t>(__cvta_generic_to_shared(tile));
  return static_cast<uint64_t>((address & 0x3FFFF) >> 4) | static_cast<uint64_t>(kLeadingByteOffset >> 4) << 16 |
         static_cast<uint64_t>(kStrideByteOffset >> 4) << 32;  // bits 62-63 = 0: no swizzle
}

template <typename Acc>
__device__ __forceinline__ void keep_in_registers(Acc (&d)[kAccRegs]) {
#pragma unroll
  for (int i = 0; i < kAccRegs; ++i) {
    if constexpr (std::is_same_v<Acc, float>)
      asm volatile("" : "+f"(d[i])::"memory");
    else
      asm volatile("" : "+r"(d[i])::"memory");
  }
}

template <typename Wgmma>
__global__ void __launch_bounds__(kThreads) wgmma_kernel(const uint4* a, const uint4* b, typename Wgmma::Acc* out,
                                                         int trips, BlockClock* clocks) {
  record_block_start(clocks);
  __shared__ uint4 a_tile[kM * kTileRowBytes / 16];
  __shared__ uint4 b_tile[kN * kTileRowBytes / 16];
  for (int i = threadIdx.x; i < kM * kTileRowBytes / 16; i += kThreads) a_tile[i] = a[i];
  for (int i = threadIdx.x; i < kN * kTileRowBytes / 16; i += kThreads) b_tile[i] = b[i];
#if ROOFCAST_WGMMA_ENABLED
  // The tensor cores read shared memory through the async proxy.
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
  __syncthreads();
  const uint64_t a_desc = shared_descriptor(a_tile);
  const uint64_t b_desc = shared_descriptor(b_tile);

  typename Wgmma::Acc d[kAccRegs];
#pragma unroll
  for (int i = 0; i < kAccRegs; ++i) d[i] = 0;
  for (int trip = 0; trip < trips; ++trip) {
    keep_in_registers(d);
#if ROOFCAST_WGMMA_ENABLED
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
#pragma unroll
    for (int s = 0; s < kStepsPerTrip; ++s) Wgmma::step(d, a_desc, b_desc);
#if ROOFCAST_WGMMA_ENABLED
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#endif
    keep_in_registers(d);
  }

  // Accumulator fragment of m64nN: warp w holds rows 16w..16w+15; register i of lane l is
  // row 16w + l/4 + 8 * (i/2 % 2), column 8 * (i/4) + 2 * (l%4) + i%2.
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  typename Wgmma::Acc* tile = out + static_cast<size_t>(blockIdx.x) * kM * kN;
#pragma unroll
  for (int i = 0; i < kAccRegs; ++i) {
    const int row = 16 * warp + lane / 4 + 8 * (i / 2 % 2);
    const int col = 8 * (i / 4) + 2 * (lane % 4) + i % 2;
    tile[row * kN + col] = d[i];
  }
  record_block_end(clocks);
}

// Small integers in [-3, 3], scattered so that a misplaced row, column or K element shows.
int matrix_value(int row, int k, uint32_t salt) {
  uint32_t h = static_cast<uint32_t>(row) * 73856093u ^ static_cast<uint32_t>(k) * 19349663u ^ salt;
  h ^= h >> 13;
  h *= 0x5bd1e995u;
  h ^= h >> 15;
  return static_cast<int>(h % 7) - 3;
}

template <typename Wgmma>
Measurement measure_wgmma(const Context& context) {
  using Element = typename Wgmma::Element;
  using Acc = typename Wgmma::Acc;
  constexpr int kK = kTileRowBytes / sizeof(Element);
  // Every partial sum stays an integer below 2^24, exact in fp32: |sum| <= steps * K * 9.
  const long long max_steps = (1LL << 24) / (kK * 9);

  int blocks_per_sm = 0;
  ROOFCAST_GPU_CHECK(max_active_blocks(&blocks_per_sm, wgmma_kernel<Wgmma>, kThreads, 0));
  const int blocks = context.sm_count * blocks_per_sm;

  std::vector<Element> a_host(kM * kK), b_host(kN * kK);
  for (int r = 0; r < kM; ++r)
    for (int k = 0; k < kK; ++k) a_host[tile_index<Element>(r, k)] = Wgmma::from_int(matrix_value(r, k, 1));
  for (int n = 0; n < kN; ++n)
    for (int k = 0; k < kK; ++k) b_host[tile_index<Element>(n, k)] = Wgmma::from_int(matrix_value(n, k, 2));
  DeviceBuffer<Element> a(a_host.size()), b(b_host.size());
  a.from_host(a_host);
  b.from_host(b_host);
  DeviceBuffer<Acc> out(static_cast<size_t>(blocks) * kM * kN);
  DeviceBuffer<BlockClock> clocks(blocks);
  auto launch = [&](long long n) {
    wgmma_kernel<Wgmma><<<blocks, kThreads>>>(reinterpret_cast<const uint4*>(a.data()),
                                              reinterpret_cast<const uint4*>(b.data()), out.data(),
                                              static_cast<int>(n), clocks.data());
    ROOFCAST_GPU_CHECK_LAUNCH("wgmma_kernel");
  };
  const int trips = static_cast<int>(calibrate_iterations(launch, 4, context.target_ms, max_steps / kStepsPerTrip));
  out.poison();

  Workload w;
  w.key = Wgmma::kKey;
  w.label = Wgmma::kLabel;
  w.unit = Wgmma::kUnit;
  w.work_per_launch = static_cast<double>(blocks) * trips * kStepsPerTrip * 2.0 * kM * kN * kK;
  w.launch = [&] { launch(trips); };
  w.verify = [&]() -> std::string {
    // Host GEMM of the same tiles: D[m][n] = steps * sum_k A[m][k] * B[n][k], every block.
    const long long steps = static_cast<long long>(trips) * kStepsPerTrip;
    std::vector<long long> product(kM * kN, 0);
    for (int m = 0; m < kM; ++m)
      for (int n = 0; n < kN; ++n)
        for (int k = 0; k < kK; ++k) product[m * kN + n] += matrix_value(m, k, 1) * matrix_value(n, k, 2);
    const auto host = out.to_host();
    size_t wrong = 0;
    std::string first;
    for (int block = 0; block < blocks; ++block)
      for (int e = 0; e < kM * kN; ++e) {
        const double expected = static_cast<double>(steps * product[e]);
        const double got = static_cast<double>(host[static_cast<size_t>(block) * kM * kN + e]);
        if (!(got == expected) && wrong++ == 0)
          first = fmt::format("block {} element ({}, {}): got {}, expected {}", block, e / kN, e % kN, got, expected);
      }
    if (wrong == 0) return "";
    return fmt::format("{}: {} of {} elements wrong, first at {}", Wgmma::kKey, wrong, host.size(), first);
  };
  w.clocks = &clocks;
  w.details = fmt::format(
      "wgmma.mma_async {}, A and B in shared memory (K-major, no swizzle), {} blocks x {} threads ({}/SM, one "
      "warpgroup each), {} x {} steps; every element of every block's 64x256 result equals steps x the host GEMM of "
      "the same pseudo-random [-3, 3] tiles",
      Wgmma::kShape, blocks, kThreads, blocks_per_sm, trips, kStepsPerTrip);
  return measure(w, context.policy);
}

}  // namespace

std::vector<Measurement> characterize_wgmma_tensor_cores(const Context& context, std::vector<std::string>& problems) {
  int major = 0, minor = 0;
  ROOFCAST_GPU_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, context.device));
  ROOFCAST_GPU_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, context.device));
  if (major != 9 || minor != 0) return {};  // sm_90a code runs on compute capability 9.0 only
  std::vector<Measurement> results;
  // One failing precision does not lose the others.
  auto run = [&](auto measure_one) {
    try {
      results.push_back(measure_one());
    } catch (const std::exception& error) {
      problems.push_back(std::string("tensor cores (wgmma): ") + error.what());
    }
  };
  run([&] { return measure_wgmma<WgmmaFp16>(context); });
  run([&] { return measure_wgmma<WgmmaBf16>(context); });
  run([&] { return measure_wgmma<WgmmaTf32>(context); });
  run([&] { return measure_wgmma<WgmmaInt8>(context); });
  return results;
}

}  // namespace roofcast::gpu
