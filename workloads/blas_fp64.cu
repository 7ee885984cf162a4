// Held-out (docs/validation/heldout): two memory-bound BLAS kernels in fp64, written as a
// hand-rolled BLAS writes them. ddot_partials: x . y with a fixed grid of 1,024 blocks that
// stride over the vectors (grid-stride loop), each block reducing its sums with warp shuffles
// and writing one partial sum (the host adds the 1,024 partials, as a second pass would).
// dgemv_warp_per_row: y = A x for a row-major A, one warp per row, the lanes reading the row
// side by side and summing with shuffles; x (32 KiB) stays in cache. 512 MiB each.
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr unsigned kThreads = 256;
constexpr unsigned kWarpsPerBlock = kThreads / 32;
constexpr unsigned kDotBlocks = 1024;

__device__ double warp_sum(double value) {
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xFFFFFFFFu, value, offset);
  return value;
}

__global__ void ddot_partials(double* __restrict__ partials, const double* __restrict__ x,
                              const double* __restrict__ y, size_t n) {
  __shared__ double warp_sums[kWarpsPerBlock];
  double sum = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    sum += x[i] * y[i];
  sum = warp_sum(sum);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = warp_sum(threadIdx.x < kWarpsPerBlock ? warp_sums[threadIdx.x] : 0.0);
    if (threadIdx.x == 0) partials[blockIdx.x] = sum;
  }
}

// y (rows) = A (rows x cols, row-major) x.
__global__ void dgemv_warp_per_row(double* __restrict__ y, const double* __restrict__ a,
                                   const double* __restrict__ x, int rows, int cols) {
  const int row = blockIdx.x * kWarpsPerBlock + threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  if (row >= rows) return;  // a whole warp leaves together
  const double* a_row = a + static_cast<size_t>(row) * cols;
  double sum = 0;
  for (int c = lane; c < cols; c += 32) sum += a_row[c] * x[c];
  sum = warp_sum(sum);
  if (lane == 0) y[row] = sum;
}

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "blas_fp64", "BLAS-1 dot and BLAS-2 gemv in fp64");
  const size_t n = options.small ? (size_t{1} << 16) : (size_t{1} << 25);
  // Columns not a multiple of the warp at the small size, so partial rows are checked too.
  const int rows = options.small ? 256 : 16384;
  const int cols = options.small ? 1000 : 4096;
  const size_t matrix = static_cast<size_t>(rows) * cols;
  print_header("blas_fp64", "dot of " + std::to_string(n) + " doubles, gemv " + std::to_string(rows) + " x " +
                                std::to_string(cols));

  // Positive values: no sum near zero, so relative errors mean something.
  std::vector<double> x(n), y(n), a(matrix), v(cols);
  fill_uniform(x, 0.5, 1.5, fresh_seed());
  fill_uniform(y, 0.5, 1.5, fresh_seed() + 1);
  fill_uniform(a, 0.5, 1.5, fresh_seed() + 2);
  fill_uniform(v, 0.5, 1.5, fresh_seed() + 3);
  DeviceBuffer<double> x_d(n), y_d(n), partials_d(kDotBlocks), a_d(matrix), v_d(cols), av_d(rows);
  x_d.upload(x);
  y_d.upload(y);
  a_d.upload(a);
  v_d.upload(v);

  auto dot = [&] { ddot_partials<<<kDotBlocks, kThreads>>>(partials_d.get(), x_d.get(), y_d.get(), n); };
  auto gemv = [&] {
    dgemv_warp_per_row<<<blocks_for(rows, kWarpsPerBlock), kThreads>>>(av_d.get(), a_d.get(), v_d.get(), rows, cols);
  };

  partials_d.poison();
  av_d.poison();
  dot();
  gemv();
  ROOFCAST_CHECK_LAUNCH();
  double got_dot = 0;
  for (const double p : partials_d.download()) got_dot += p;
  // In long double: a serial sum of 2^25 doubles would itself be off by about 1e-12.
  long double want_dot = 0;
  for (size_t i = 0; i < n; ++i) want_dot += static_cast<long double>(x[i]) * y[i];
  const double dot_error = max_relative_error({got_dot}, {static_cast<double>(want_dot)});
  std::vector<double> want_av(rows);
  for (int r = 0; r < rows; ++r) {
    double sum = 0;
    for (int c = 0; c < cols; ++c) sum += a[static_cast<size_t>(r) * cols + c] * v[c];
    want_av[r] = sum;
  }
  const double gemv_error = max_relative_error(av_d.download(), want_av);
  bool ok = report_check("ddot_partials", dot_error < 1e-12,
                         "relative error " + scientific(dot_error) + " vs host (sum of the partials)");
  ok &= report_check("dgemv_warp_per_row", gemv_error < 1e-13,
                     "max relative error " + scientific(gemv_error) + " vs host, every row");

  time_kernel("ddot_partials", options, dot);
  time_kernel("dgemv_warp_per_row", options, gemv);
  return ok ? 0 : 1;
}
