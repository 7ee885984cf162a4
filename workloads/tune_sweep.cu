// Kernels for `roofcast tune` and the diagnostics (scripts/tune-validate.sh): six whose
// block size is an argument (a triad stream, independent FMA chains over a problem of 1.1
// H100 waves, a shared-memory tree reduction, a 5-point stencil, a float4 scale, and two SGEMMs
// whose 64 x 64 output tile is shared by 64 to 1024 threads: a column each, or 2-D micro-tiles),
// and three
// good/bad pairs at one block size
// (contiguous vs strided loads, uniform vs divergent branches, padded vs conflicting shared
// tiles in a transpose).
//   roofcast-workload-tune_sweep --kernel NAME [--blocks 64,128,...] [--fma-threads N] [--small] [--warmups N] [--repeats N]
// prints one timing line per block size, named NAME@THREADS.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr int kFmaSteps = 2048;  // per chain; 4 independent chains per thread

__global__ void sweep_triad(float* __restrict__ a, const float* __restrict__ b, const float* __restrict__ c,
                            size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) a[i] = b[i] + 3.0f * c[i];
}

__host__ __device__ inline float fma_chains(float x) {
  float y0 = x, y1 = x + 1.0f, y2 = x + 2.0f, y3 = x + 3.0f;
  for (int s = 0; s < kFmaSteps; ++s) {
    y0 = fmaf(y0, 0.999f, 0.001f);
    y1 = fmaf(y1, 0.998f, 0.002f);
    y2 = fmaf(y2, 0.997f, 0.003f);
    y3 = fmaf(y3, 0.996f, 0.004f);
  }
  return y0 + y1 + y2 + y3;
}

__global__ void sweep_fma(float* __restrict__ out, const float* __restrict__ in, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = fma_chains(in[i]);
}

// A 5-point Jacobi step on a kStencilWidth-wide grid, one point per thread over the flattened
// grid (a 1-D launch, as `roofcast tune` assumes): the neighbours come from L1/L2, each point is
// read once from DRAM. Border points are copied.
constexpr size_t kStencilWidth = 8192;
__host__ __device__ inline bool stencil_border(size_t i, size_t n) {
  const size_t x = i % kStencilWidth;
  return x == 0 || x == kStencilWidth - 1 || i < kStencilWidth || i >= n - kStencilWidth;
}

__global__ void sweep_stencil(float* __restrict__ out, const float* __restrict__ in, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  if (stencil_border(i, n)) out[i] = in[i];
  else out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - kStencilWidth] + in[i + kStencilWidth]);
}

// out = s * in over float4s: 16 bytes loaded and stored per thread.
__global__ void sweep_scale4(float4* __restrict__ out, const float4* __restrict__ in, float s, size_t n4) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i >= n4) return;
  const float4 v = in[i];
  out[i] = make_float4(s * v.x, s * v.y, s * v.z, s * v.w);
}

// C = A x B for square row-major matrices, one 64 x 64 tile of C per block over k-steps of 16,
// the steps' A and B tiles staged in shared memory. kThreads threads share the tile: each
// computes 4096 / kThreads outputs of one column (64 columns x kThreads / 64 row groups), so the
// block's work and shared memory stay while its threads change (`roofcast tune --fixed-tile`).
constexpr int kSgemmTile = 64, kSgemmStep = 16;
template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    sweep_sgemm(float* __restrict__ c, const float* __restrict__ a, const float* __restrict__ b, int n) {
  constexpr int kRowGroups = kThreads / kSgemmTile;
  constexpr int kRowsPerThread = kSgemmTile / kRowGroups;
  __shared__ float a_tile[kSgemmTile][kSgemmStep];
  __shared__ float b_tile[kSgemmStep][kSgemmTile];
  const int col = threadIdx.x % kSgemmTile, group = threadIdx.x / kSgemmTile;
  const size_t tile_row = blockIdx.y * size_t{kSgemmTile}, tile_col = blockIdx.x * size_t{kSgemmTile};
  float acc[kRowsPerThread] = {};
  for (int k0 = 0; k0 < n; k0 += kSgemmStep) {
    for (int i = threadIdx.x; i < kSgemmTile * kSgemmStep; i += kThreads) {
      a_tile[i / kSgemmStep][i % kSgemmStep] = a[(tile_row + i / kSgemmStep) * n + k0 + i % kSgemmStep];
      b_tile[i / kSgemmTile][i % kSgemmTile] = b[(k0 + i / kSgemmTile) * size_t(n) + tile_col + i % kSgemmTile];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kSgemmStep; ++k) {
      const float bk = b_tile[k][col];
#pragma unroll
      for (int r = 0; r < kRowsPerThread; ++r) acc[r] = fmaf(a_tile[group + r * kRowGroups][k], bk, acc[r]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < kRowsPerThread; ++r) c[(tile_row + group + r * kRowGroups) * n + tile_col + col] = acc[r];
}

// The same product with 2-D micro-tiles, as tuned SGEMMs compute it: each thread owns a
// kRows x kCols block of outputs (8 x 8 at 64 threads, 2 x 2 at 1024) and at each k loads kRows
// values of A and kCols of B for kRows x kCols FMAs, so a block's shared loads per k grow with
// the square root of its threads, not with them. (A check of `tune --second-profile` on a
// kernel whose work was not the one it was designed on.)
__host__ __device__ constexpr int micro_tile_cols(int outputs) {
  int cols = 1;
  while ((2 * cols) * (2 * cols) <= outputs) cols *= 2;
  return cols;
}
template <int kThreads>
__global__ void __launch_bounds__(kThreads)
    sweep_sgemm_micro(float* __restrict__ c, const float* __restrict__ a, const float* __restrict__ b, int n) {
  constexpr int kOutputs = kSgemmTile * kSgemmTile / kThreads;
  constexpr int kCols = micro_tile_cols(kOutputs), kRows = kOutputs / kCols;
  constexpr int kThreadsPerRow = kSgemmTile / kCols;
  __shared__ float a_tile[kSgemmStep][kSgemmTile];  // A's tile transposed: a_tile[k][row]
  __shared__ float b_tile[kSgemmStep][kSgemmTile];
  const int tx = threadIdx.x % kThreadsPerRow, ty = threadIdx.x / kThreadsPerRow;
  const size_t tile_row = blockIdx.y * size_t{kSgemmTile}, tile_col = blockIdx.x * size_t{kSgemmTile};
  float acc[kRows][kCols] = {};
  for (int k0 = 0; k0 < n; k0 += kSgemmStep) {
    for (int i = threadIdx.x; i < kSgemmTile * kSgemmStep; i += kThreads) {
      a_tile[i % kSgemmStep][i / kSgemmStep] = a[(tile_row + i / kSgemmStep) * n + k0 + i % kSgemmStep];
      b_tile[i / kSgemmTile][i % kSgemmTile] = b[(k0 + i / kSgemmTile) * size_t(n) + tile_col + i % kSgemmTile];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < kSgemmStep; ++k) {
      float a_values[kRows], b_values[kCols];
#pragma unroll
      for (int r = 0; r < kRows; ++r) a_values[r] = a_tile[k][ty * kRows + r];
#pragma unroll
      for (int col = 0; col < kCols; ++col) b_values[col] = b_tile[k][tx + col * kThreadsPerRow];
#pragma unroll
      for (int r = 0; r < kRows; ++r)
#pragma unroll
        for (int col = 0; col < kCols; ++col) acc[r][col] = fmaf(a_values[r], b_values[col], acc[r][col]);
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < kRows; ++r)
#pragma unroll
    for (int col = 0; col < kCols; ++col)
      c[(tile_row + ty * kRows + r) * n + tile_col + tx + col * kThreadsPerRow] = acc[r][col];
}

template <int kThreads>
void launch_sgemm(bool micro, dim3 grid, float* c, const float* a, const float* b, int n) {
  if (micro) sweep_sgemm_micro<kThreads><<<grid, kThreads>>>(c, a, b, n);
  else sweep_sgemm<kThreads><<<grid, kThreads>>>(c, a, b, n);
}

// One element per thread, a tree in shared memory (blockDim.x floats), one atomic per block.
__global__ void sweep_reduce(const float* __restrict__ in, float* __restrict__ sum, size_t n) {
  extern __shared__ float partial[];
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned half = (blockDim.x + 1) / 2, width = blockDim.x; width > 1; width = half, half = (half + 1) / 2) {
    if (threadIdx.x < width - half) partial[threadIdx.x] += partial[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(sum, partial[0]);
}

// Reads in a permutation: contiguous (lane i reads element i) or strided (lane i reads
// element i x 32 of its column: every lane its own 128-byte line).
__global__ void access_contiguous(float* __restrict__ out, const float* __restrict__ in, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[i];
}
__host__ __device__ inline size_t strided_index(size_t i, size_t n) {
  const size_t rows = n / 32;
  return (i % rows) * 32 + i / rows;
}
__global__ void access_strided(float* __restrict__ out, const float* __restrict__ in, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[strided_index(i, n)];
}

__host__ __device__ inline float fma_steps(float x, int steps) {
  for (int s = 0; s < steps; ++s) x = fmaf(x, 0.99f, 0.01f);
  return x;
}
__host__ __device__ inline float branch_path(float x, std::uint32_t selector) {
  switch (selector & 3u) {
    case 0: return fma_steps(x, 32);
    case 1: return fma_steps(x, 64);
    case 2: return fma_steps(x, 128);
    default: return fma_steps(x, 256);
  }
}
// Divergent: each thread its own path. Uniform: the same paths, chosen per warp.
__global__ void branch_divergent(float* __restrict__ out, const float* __restrict__ in,
                                 const std::uint32_t* __restrict__ selector, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = branch_path(in[i], selector[i]);
}
__global__ void branch_uniform(float* __restrict__ out, const float* __restrict__ in,
                               const std::uint32_t* __restrict__ selector, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = branch_path(in[i], selector[i & ~size_t{31}]);
}

// A 32x32 tile transpose (blocks of 32x8 threads): Pad 0 reads the tile's columns from one
// bank (32-way conflicts), Pad 1 spreads them over all 32.
template <int Pad>
__device__ void transpose_tile(float* __restrict__ out, const float* __restrict__ in, int width) {
  __shared__ float tile[32][32 + Pad];
  const int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[static_cast<size_t>(y + j) * width + x];
  __syncthreads();
  const int tx = blockIdx.y * 32 + threadIdx.x, ty = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8) out[static_cast<size_t>(ty + j) * width + tx] = tile[threadIdx.x][threadIdx.y + j];
}
__global__ void transpose_conflicting(float* out, const float* in, int width) { transpose_tile<0>(out, in, width); }
__global__ void transpose_padded(float* out, const float* in, int width) { transpose_tile<1>(out, in, width); }

namespace {

std::vector<unsigned> parse_blocks(const char* text) {
  std::vector<unsigned> blocks;
  for (const char* p = text; *p;) {
    char* end = nullptr;
    const long value = std::strtol(p, &end, 10);
    if (end == p || value < 1 || value > 1024) {
      std::fprintf(stderr, "error: --blocks: expected threads per block from 1 to 1024, found \"%s\"\n", text);
      std::exit(2);
    }
    blocks.push_back(static_cast<unsigned>(value));
    p = *end == ',' ? end + 1 : end;
    if (*end != ',' && *end != '\0') {
      std::fprintf(stderr, "error: --blocks: a comma-separated list, found \"%s\"\n", text);
      std::exit(2);
    }
  }
  return blocks;
}

bool close_to(float got, float want, float tolerance) {
  return std::abs(got - want) <= tolerance * std::max(1.0f, std::abs(want));
}

// Checks sampled elements of `got` against `want(i)`, and that none is NaN (unwritten).
template <typename Want>
bool check_elements(const std::string& name, const std::vector<float>& got, Want want, float tolerance) {
  size_t wrong = static_cast<size_t>(std::count_if(got.begin(), got.end(), [](float v) { return std::isnan(v); }));
  const auto checked = elements_to_check(got.size(), size_t{1} << 16);
  for (const size_t i : checked) wrong += !close_to(got[i], want(i), tolerance);
  return report_check(name, wrong == 0,
                      std::to_string(wrong) + " of " + std::to_string(checked.size()) + " checked elements wrong");
}

}  // namespace

int main(int argc, char** argv) {
  std::string kernel;
  std::vector<unsigned> blocks{256};
  size_t fma_threads = 300000;  // sweep_fma's problem: 1.1 waves of full-occupancy blocks on a 132-SM H100
  std::vector<char*> rest{argv[0]};
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--kernel") == 0 && i + 1 < argc) kernel = argv[++i];
    else if (std::strcmp(argv[i], "--blocks") == 0 && i + 1 < argc) blocks = parse_blocks(argv[++i]);
    else if (std::strcmp(argv[i], "--fma-threads") == 0 && i + 1 < argc) fma_threads = std::strtoull(argv[++i], nullptr, 10);
    else rest.push_back(argv[i]);
  }
  const Options options = parse_options(static_cast<int>(rest.size()), rest.data(), "tune_sweep",
                                        "block-size sweeps and good/bad access variants (--kernel NAME --blocks LIST)");
  const bool small = options.small;
  bool ok = true;
  auto timed = [&](const std::string& name, unsigned threads, const std::function<void(unsigned)>& launch) {
    time_kernel(name + "@" + std::to_string(threads), options, [&] { launch(threads); });
  };

  if (kernel == "sweep_triad" || kernel == "access_contiguous" || kernel == "access_strided") {
    const size_t n = small ? (size_t{1} << 16) : (size_t{1} << 25);
    print_header("tune_sweep", kernel + ", " + std::to_string(n) + " floats");
    std::vector<float> b(n), c(n);
    fill_uniform(b, 0.5f, 1.5f, fresh_seed());
    fill_uniform(c, 0.5f, 1.5f, fresh_seed() + 1);
    DeviceBuffer<float> a_d(n), b_d(n), c_d(n);
    b_d.upload(b);
    c_d.upload(c);
    auto launch = [&](unsigned threads) {
      const unsigned grid = blocks_for(n, threads);
      if (kernel == "sweep_triad") sweep_triad<<<grid, threads>>>(a_d.get(), b_d.get(), c_d.get(), n);
      else if (kernel == "access_contiguous") access_contiguous<<<grid, threads>>>(a_d.get(), b_d.get(), n);
      else access_strided<<<grid, threads>>>(a_d.get(), b_d.get(), n);
    };
    for (unsigned threads : blocks) {
      a_d.poison();
      launch(threads);
      ROOFCAST_CHECK_LAUNCH();
      const auto a = a_d.download();
      ok &= check_elements(kernel + "@" + std::to_string(threads), a, [&](size_t i) {
        if (kernel == "sweep_triad") return b[i] + 3.0f * c[i];
        return 2.0f * b[kernel == "access_strided" ? strided_index(i, n) : i];
      }, 1e-6f);
      timed(kernel, threads, launch);
    }
  } else if (kernel == "sweep_fma") {
    if (fma_threads < 1 || fma_threads > (size_t{1} << 30)) {
      std::fprintf(stderr, "error: --fma-threads: expected 1 to 2^30 threads\n");
      return 2;
    }
    const size_t n = small ? 4096 : fma_threads;
    print_header("tune_sweep", kernel + ", " + std::to_string(n) + " threads of 4 x " + std::to_string(kFmaSteps) + " FMAs");
    std::vector<float> in(n);
    fill_uniform(in, -1.0f, 1.0f, fresh_seed());
    DeviceBuffer<float> in_d(n), out_d(n);
    in_d.upload(in);
    auto launch = [&](unsigned threads) { sweep_fma<<<blocks_for(n, threads), threads>>>(out_d.get(), in_d.get(), n); };
    for (unsigned threads : blocks) {
      out_d.poison();
      launch(threads);
      ROOFCAST_CHECK_LAUNCH();
      ok &= check_elements(kernel + "@" + std::to_string(threads), out_d.download(),
                           [&](size_t i) { return fma_chains(in[i]); }, 1e-4f);
      timed(kernel, threads, launch);
    }
  } else if (kernel == "sweep_sgemm" || kernel == "sweep_sgemm_micro") {
    const int n = small ? 256 : 4096;
    print_header("tune_sweep", kernel + ", " + std::to_string(n) + "^2 floats, 64 x 64 tiles");
    const size_t elements = size_t(n) * n;
    std::vector<float> a(elements), b(elements);
    fill_uniform(a, -1.0f, 1.0f, fresh_seed());
    fill_uniform(b, -1.0f, 1.0f, fresh_seed() + 1);
    DeviceBuffer<float> a_d(elements), b_d(elements), c_d(elements);
    a_d.upload(a);
    b_d.upload(b);
    const dim3 grid(n / kSgemmTile, n / kSgemmTile);
    const bool micro = kernel == "sweep_sgemm_micro";
    auto launch = [&](unsigned threads) {
      switch (threads) {
        case 64: launch_sgemm<64>(micro, grid, c_d.get(), a_d.get(), b_d.get(), n); break;
        case 128: launch_sgemm<128>(micro, grid, c_d.get(), a_d.get(), b_d.get(), n); break;
        case 256: launch_sgemm<256>(micro, grid, c_d.get(), a_d.get(), b_d.get(), n); break;
        case 512: launch_sgemm<512>(micro, grid, c_d.get(), a_d.get(), b_d.get(), n); break;
        case 1024: launch_sgemm<1024>(micro, grid, c_d.get(), a_d.get(), b_d.get(), n); break;
      }
    };
    for (unsigned threads : blocks) {
      if (threads % kSgemmTile != 0 || (kSgemmTile * kSgemmTile) % threads != 0) {
        std::fprintf(stderr, "error: --blocks: %s runs 64, 128, 256, 512 or 1024 threads, not %u\n", kernel.c_str(),
                     threads);
        return 2;
      }
      c_d.poison();
      launch(threads);
      ROOFCAST_CHECK_LAUNCH();
      ok &= check_elements(kernel + "@" + std::to_string(threads), c_d.download(), [&](size_t i) {
        const size_t row = i / n, col = i % n;
        double sum = 0;
        for (int k = 0; k < n; ++k) sum += double(a[row * n + k]) * b[size_t(k) * n + col];
        return static_cast<float>(sum);
      }, 1e-3f);
      timed(kernel, threads, launch);
    }
  } else if (kernel == "sweep_reduce") {
    const size_t n = small ? (size_t{1} << 16) : (size_t{1} << 25);
    print_header("tune_sweep", kernel + ", " + std::to_string(n) + " floats");
    std::vector<float> in(n);
    fill_uniform(in, 0.0f, 1.0f, fresh_seed());
    double want = 0;
    for (float v : in) want += v;
    DeviceBuffer<float> in_d(n), sum_d(1);
    in_d.upload(in);
    auto launch = [&](unsigned threads) {
      sweep_reduce<<<blocks_for(n, threads), threads, threads * sizeof(float)>>>(in_d.get(), sum_d.get(), n);
    };
    for (unsigned threads : blocks) {
      ROOFCAST_CUDA(cudaMemset(sum_d.get(), 0, sizeof(float)));
      launch(threads);
      ROOFCAST_CHECK_LAUNCH();
      const double got = sum_d.download()[0];
      ok &= report_check(kernel + "@" + std::to_string(threads), std::abs(got - want) <= 1e-4 * want,
                         "sum " + scientific(got) + " vs host " + scientific(want));
      timed(kernel, threads, launch);
    }
  } else if (kernel == "sweep_stencil" || kernel == "sweep_scale4") {
    const size_t n = small ? 4 * kStencilWidth : (size_t{1} << 25);  // floats
    print_header("tune_sweep", kernel + ", " + std::to_string(n) + " floats");
    std::vector<float> in(n);
    fill_uniform(in, 0.5f, 1.5f, fresh_seed());
    DeviceBuffer<float> in_d(n), out_d(n);
    in_d.upload(in);
    const bool stencil = kernel == "sweep_stencil";
    constexpr float kScale = 1.5f;
    auto launch = [&](unsigned threads) {
      if (stencil) {
        sweep_stencil<<<blocks_for(n, threads), threads>>>(out_d.get(), in_d.get(), n);
      } else {
        sweep_scale4<<<blocks_for(n / 4, threads), threads>>>(reinterpret_cast<float4*>(out_d.get()),
                                                             reinterpret_cast<const float4*>(in_d.get()), kScale, n / 4);
      }
    };
    for (unsigned threads : blocks) {
      out_d.poison();
      launch(threads);
      ROOFCAST_CHECK_LAUNCH();
      ok &= check_elements(kernel + "@" + std::to_string(threads), out_d.download(), [&](size_t i) {
        if (!stencil) return kScale * in[i];
        if (stencil_border(i, n)) return in[i];
        return 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - kStencilWidth] + in[i + kStencilWidth]);
      }, 1e-5f);
      timed(kernel, threads, launch);
    }
  } else if (kernel == "branch_divergent" || kernel == "branch_uniform") {
    const size_t n = small ? (size_t{1} << 16) : (size_t{1} << 24);
    print_header("tune_sweep", kernel + ", " + std::to_string(n) + " floats, 4 paths");
    std::vector<float> in(n);
    std::vector<std::uint32_t> selector(n);
    fill_uniform(in, -1.0f, 1.0f, fresh_seed());
    fill_bits(selector, fresh_seed() + 3);
    DeviceBuffer<float> in_d(n), out_d(n);
    DeviceBuffer<std::uint32_t> selector_d(n);
    in_d.upload(in);
    selector_d.upload(selector);
    const bool uniform = kernel == "branch_uniform";
    auto launch = [&](unsigned threads) {
      const unsigned grid = blocks_for(n, threads);
      if (uniform) branch_uniform<<<grid, threads>>>(out_d.get(), in_d.get(), selector_d.get(), n);
      else branch_divergent<<<grid, threads>>>(out_d.get(), in_d.get(), selector_d.get(), n);
    };
    for (unsigned threads : blocks) {
      out_d.poison();
      launch(threads);
      ROOFCAST_CHECK_LAUNCH();
      ok &= check_elements(kernel + "@" + std::to_string(threads), out_d.download(), [&](size_t i) {
        return branch_path(in[i], selector[uniform ? (i & ~size_t{31}) : i]);
      }, 1e-5f);
      timed(kernel, threads, launch);
    }
  } else if (kernel == "transpose_conflicting" || kernel == "transpose_padded") {
    const int width = small ? 256 : 8192;
    const size_t n = static_cast<size_t>(width) * width;
    print_header("tune_sweep", kernel + ", " + std::to_string(width) + "^2 floats");
    std::vector<float> in(n);
    fill_uniform(in, -1.0f, 1.0f, fresh_seed());
    DeviceBuffer<float> in_d(n), out_d(n);
    in_d.upload(in);
    const bool padded = kernel == "transpose_padded";
    auto launch = [&](unsigned) {
      const dim3 grid(width / 32, width / 32), block(32, 8);
      if (padded) transpose_padded<<<grid, block>>>(out_d.get(), in_d.get(), width);
      else transpose_conflicting<<<grid, block>>>(out_d.get(), in_d.get(), width);
    };
    out_d.poison();
    launch(256);
    ROOFCAST_CHECK_LAUNCH();
    ok &= check_elements(kernel + "@256", out_d.download(), [&](size_t i) {
      return in[(i % width) * width + i / width];
    }, 0.0f);
    timed(kernel, 256, launch);
  } else {
    std::fprintf(stderr,
                 "error: --kernel: one of sweep_triad, sweep_fma, sweep_reduce, sweep_stencil, sweep_scale4, sweep_sgemm, access_contiguous, access_strided, "
                 "branch_divergent, branch_uniform, transpose_conflicting, transpose_padded\n");
    return 2;
  }
  return ok ? 0 : 1;
}
