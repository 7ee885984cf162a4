// Tiled single-precision matrix product C = A B (square, N a multiple of 32), the
// shared-memory kernel of the CUDA programming guide with 32x32 and 16x16 tiles: one
// thread per element of C, each tile of A and B staged through shared memory.
#include <cmath>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

template <int Tile>
__device__ void sgemm_tiled(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c, int n) {
  __shared__ float a_tile[Tile][Tile];
  __shared__ float b_tile[Tile][Tile];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * Tile + ty;
  const int col = blockIdx.x * Tile + tx;
  float sum = 0.0f;
  for (int t = 0; t < n; t += Tile) {
    a_tile[ty][tx] = a[static_cast<size_t>(row) * n + t + tx];
    b_tile[ty][tx] = b[static_cast<size_t>(t + ty) * n + col];
    __syncthreads();
#pragma unroll
    for (int k = 0; k < Tile; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();
  }
  c[static_cast<size_t>(row) * n + col] = sum;
}

__global__ void sgemm_tile32(const float* a, const float* b, float* c, int n) { sgemm_tiled<32>(a, b, c, n); }
__global__ void sgemm_tile16(const float* a, const float* b, float* c, int n) { sgemm_tiled<16>(a, b, c, n); }

// Checks that every element of C was written, and `sampled` of them (all when sampled >=
// n * n) against a double-precision host product. Float accumulation over n terms stays
// within about n x 2^-24 of sum |a_ik b_kj|; the bound allows twice that.
bool check_product(const std::string& name, const std::vector<float>& a, const std::vector<float>& b,
                   const std::vector<float>& c, int n, size_t sampled) {
  const size_t elements = static_cast<size_t>(n) * n;
  const size_t count = std::min(sampled, elements);
  std::vector<std::uint32_t> picks(count);
  fill_bits(picks, fresh_seed());
  for (const float value : c) {
    if (!std::isfinite(value)) return report_check(name, false, "an element of C is not finite (never written?)");
  }
  double worst = 0;
  for (size_t s = 0; s < count; ++s) {
    const size_t index = count == elements ? s : picks[s] % elements;
    const size_t i = index / n, j = index % n;
    double want = 0, magnitude = 0;
    for (int k = 0; k < n; ++k) {
      const double term = static_cast<double>(a[i * n + k]) * b[static_cast<size_t>(k) * n + j];
      want += term;
      magnitude += std::abs(term);
    }
    const double error = std::abs(c[index] - want) / magnitude;
    if (!(error <= worst)) worst = std::isnan(error) ? INFINITY : error;
  }
  return report_check(name, worst < 2.0 * n * std::ldexp(1.0, -24),
                      "max error " + scientific(worst) + " of sum|ab| over " + std::to_string(count) + " elements");
}

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "sgemm", "tiled SGEMM, 32x32 and 16x16 tiles");
  const int n = options.small ? 256 : 4096;
  print_header("sgemm", std::to_string(n) + "x" + std::to_string(n) + "x" + std::to_string(n) + " fp32");
  const size_t elements = static_cast<size_t>(n) * n;
  const size_t sampled = options.small ? elements : 2048;

  std::vector<float> a(elements), b(elements);
  fill_uniform(a, -1.0f, 1.0f, fresh_seed());
  fill_uniform(b, -1.0f, 1.0f, fresh_seed() + 7);
  DeviceBuffer<float> a_d(elements), b_d(elements), c_d(elements);
  a_d.upload(a);
  b_d.upload(b);

  const dim3 block32(32, 32), grid32(n / 32, n / 32);
  const dim3 block16(16, 16), grid16(n / 16, n / 16);
  auto launch32 = [&] { sgemm_tile32<<<grid32, block32>>>(a_d.get(), b_d.get(), c_d.get(), n); };
  auto launch16 = [&] { sgemm_tile16<<<grid16, block16>>>(a_d.get(), b_d.get(), c_d.get(), n); };

  bool ok = true;
  c_d.poison();
  launch32();
  ROOFCAST_CHECK_LAUNCH();
  ok &= check_product("sgemm_tile32", a, b, c_d.download(), n, sampled);
  c_d.poison();
  launch16();
  ROOFCAST_CHECK_LAUNCH();
  ok &= check_product("sgemm_tile16", a, b, c_d.download(), n, sampled);

  time_kernel("sgemm_tile32", options, launch32);
  time_kernel("sgemm_tile16", options, launch16);
  return ok ? 0 : 1;
}
