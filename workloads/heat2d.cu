// A time-stepping solver at application scale: the 2-D heat equation, explicit (FTCS) on an
// N x N grid with fixed edges and a heat source, 6,500 steps of three kernels each (source,
// stencil, edges) and a two-kernel residual reduction every 10 steps, read back every 100:
// 20,802 launches of 6 distinct kernels, each a few microseconds, as in the CFD solvers and
// training loops `roofcast profile` must keep up with (issue 15). Checked against the same
// steps on the host.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr float kAlpha = 0.2f;         // diffusion number dt * k / dx^2 (stable below 0.25)
constexpr float kSourceHeat = 0.01f;   // added per step inside the source square
constexpr float kEdgeValue = 0.0f;     // Dirichlet edges
constexpr int kResidualEvery = 10;
constexpr int kReadEvery = 100;
constexpr unsigned kReduceThreads = 256;

__global__ void heat_init(float* __restrict__ u, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n * n) return;
  const int x = i % n, y = i / n;
  u[i] = (x > n / 4 && x < 3 * n / 4 && y > n / 4 && y < 3 * n / 4) ? 1.0f : 0.0f;
}

__global__ void heat_source(float* __restrict__ u, int n, int x0, int width) {
  const int x = x0 + static_cast<int>(threadIdx.x), y = x0 + static_cast<int>(blockIdx.x);
  if (threadIdx.x < static_cast<unsigned>(width)) u[y * n + x] += kSourceHeat;
}

__global__ void heat_step(const float* __restrict__ u, float* __restrict__ next, int n) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= n - 1 || y >= n - 1) return;
  const int i = y * n + x;
  const float laplacian = u[i - 1] + u[i + 1] + u[i - n] + u[i + n] - 4.0f * u[i];
  next[i] = u[i] + kAlpha * laplacian;
}

__global__ void heat_edges(float* __restrict__ u, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  u[i] = kEdgeValue;
  u[(n - 1) * n + i] = kEdgeValue;
  u[i * n] = kEdgeValue;
  u[i * n + n - 1] = kEdgeValue;
}

// Per block: the sum of squared changes over its slice of the grid.
__global__ void heat_residual_partial(const float* __restrict__ u, const float* __restrict__ previous,
                                      float* __restrict__ partial, int cells) {
  __shared__ float sums[kReduceThreads];
  float sum = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < cells; i += gridDim.x * blockDim.x) {
    const float d = u[i] - previous[i];
    sum += d * d;
  }
  sums[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) sums[threadIdx.x] += sums[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sums[0];
}

__global__ void heat_residual_final(const float* __restrict__ partial, int blocks, float* __restrict__ residual) {
  __shared__ float sums[kReduceThreads];
  float sum = 0;
  for (int i = threadIdx.x; i < blocks; i += blockDim.x) sum += partial[i];
  sums[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) sums[threadIdx.x] += sums[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) *residual = sqrtf(sums[0]);
}

// The same steps on the host (float, the same order of operations up to contraction).
std::vector<float> host_solution(int n, int steps, int x0, int width) {
  std::vector<float> u(static_cast<size_t>(n) * n), next;
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) u[y * n + x] = (x > n / 4 && x < 3 * n / 4 && y > n / 4 && y < 3 * n / 4) ? 1.0f : 0.0f;
  next = u;
  for (int step = 0; step < steps; ++step) {
    for (int y = x0; y < x0 + width; ++y)
      for (int x = x0; x < x0 + width; ++x) u[y * n + x] += kSourceHeat;
    for (int y = 1; y < n - 1; ++y)
      for (int x = 1; x < n - 1; ++x) {
        const int i = y * n + x;
        next[i] = u[i] + kAlpha * (u[i - 1] + u[i + 1] + u[i - n] + u[i + n] - 4.0f * u[i]);
      }
    std::swap(u, next);
    for (int i = 0; i < n; ++i) u[i] = u[(n - 1) * n + i] = u[i * n] = u[i * n + n - 1] = kEdgeValue;
  }
  return u;
}

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "heat2d", "a 2-D heat solver: 20,802 launches of 6 kernels");
  const int n = options.small ? 64 : 256;
  const int steps = options.small ? 200 : 6500;
  const int width = n / 8, x0 = n / 2 - width / 2;
  const int cells = n * n;
  const int reduce_blocks = std::min(64, (cells + static_cast<int>(kReduceThreads) - 1) / static_cast<int>(kReduceThreads));
  print_header("heat2d", std::to_string(n) + " x " + std::to_string(n) + " grid, " + std::to_string(steps) + " steps");

  DeviceBuffer<float> u_d(cells), next_d(cells), partial_d(reduce_blocks), residual_d(1);
  heat_init<<<(cells + 255) / 256, 256>>>(u_d.get(), n);
  heat_init<<<(cells + 255) / 256, 256>>>(next_d.get(), n);
  ROOFCAST_CHECK_LAUNCH();
  float* u = u_d.get();
  float* next = next_d.get();
  const dim3 block(32, 8), grid((n + 31) / 32, (n + 7) / 8);
  const auto start = std::chrono::steady_clock::now();
  long launches = 2;
  std::vector<float> residuals;
  for (int step = 0; step < steps; ++step) {
    heat_source<<<width, 32 * ((width + 31) / 32)>>>(u, n, x0, width);
    heat_step<<<grid, block>>>(u, next, n);
    std::swap(u, next);
    heat_edges<<<(n + 127) / 128, 128>>>(u, n);
    launches += 3;
    if ((step + 1) % kResidualEvery == 0) {
      heat_residual_partial<<<reduce_blocks, kReduceThreads>>>(u, next, partial_d.get(), cells);
      heat_residual_final<<<1, kReduceThreads>>>(partial_d.get(), reduce_blocks, residual_d.get());
      launches += 2;
    }
    if ((step + 1) % kReadEvery == 0) residuals.push_back(residual_d.download()[0]);  // the solver's convergence check
  }
  ROOFCAST_CHECK_LAUNCH();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("solver %ld launches %.3f s residual %.3g\n", launches, seconds, residuals.empty() ? 0.0 : residuals.back());

  std::vector<float> got(cells);
  ROOFCAST_CUDA(cudaMemcpy(got.data(), u, cells * sizeof(float), cudaMemcpyDeviceToHost));
  const std::vector<float> want = host_solution(n, steps, x0, width);
  double worst = 0;
  for (int i = 0; i < cells; ++i) worst = std::max(worst, static_cast<double>(std::fabs(got[i] - want[i])));
  return report_check("heat2d", worst < 1e-3, "largest difference from the host " + std::to_string(worst)) ? 0 : 1;
}
