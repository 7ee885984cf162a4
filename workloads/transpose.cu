// Held-out (docs/validation/heldout): an out-of-place matrix transpose in fp32, the two kernels of
// NVIDIA's "An Efficient Matrix Transpose in CUDA C/C++" (Harris, 2013). Both move 32 x 32
// tiles with blocks of 32 x 8 threads, four rows per thread. The naive kernel reads rows
// (coalesced) and writes columns: each warp's store touches 32 lines, 4 bytes of each. The
// tiled kernel stages the tile in shared memory (33 columns, so that reading a column hits 32
// banks) and writes rows. The matrix is 8192 x 8192 (256 MiB each way), far larger than L2.
#include <functional>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr int kTile = 32;
constexpr int kBlockRows = 8;

// out (cols x rows) = transpose of in (rows x cols).
__global__ void transpose_naive(float* __restrict__ out, const float* __restrict__ in, int rows, int cols) {
  const int x = blockIdx.x * kTile + threadIdx.x;
  const int y = blockIdx.y * kTile + threadIdx.y;
  if (x >= cols) return;
  for (int j = 0; j < kTile; j += kBlockRows)
    if (y + j < rows) out[static_cast<size_t>(x) * rows + y + j] = in[static_cast<size_t>(y + j) * cols + x];
}

__global__ void transpose_tiled(float* __restrict__ out, const float* __restrict__ in, int rows, int cols) {
  __shared__ float tile[kTile][kTile + 1];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kBlockRows)
    if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[static_cast<size_t>(y + j) * cols + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;  // a column of the input is a row of the output
  y = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kBlockRows)
    if (x < rows && y + j < cols) out[static_cast<size_t>(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char** argv) {
  const Options options =
      parse_options(argc, argv, "transpose", "out-of-place matrix transpose, naive and tiled, fp32");
  // Not multiples of the tile at the small size, so that the edges are checked too.
  const int rows = options.small ? 200 : 8192;
  const int cols = options.small ? 328 : 8192;
  const size_t n = static_cast<size_t>(rows) * cols;
  print_header("transpose", std::to_string(rows) + " x " + std::to_string(cols) + " floats (" +
                                std::to_string(n * sizeof(float) >> 20) + " MiB)");

  std::vector<float> in(n);
  fill_uniform(in, 0.5f, 1.5f, fresh_seed());
  DeviceBuffer<float> in_d(n), out_d(n);
  in_d.upload(in);

  const dim3 block(kTile, kBlockRows);
  const dim3 grid((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
  auto naive = [&] { transpose_naive<<<grid, block>>>(out_d.get(), in_d.get(), rows, cols); };
  auto tiled = [&] { transpose_tiled<<<grid, block>>>(out_d.get(), in_d.get(), rows, cols); };

  // Each kernel from a poisoned output; every element must be its input exactly.
  auto check = [&](const std::string& name, const std::function<void()>& launch) {
    out_d.poison();
    launch();
    ROOFCAST_CHECK_LAUNCH();
    const std::vector<float> out = out_d.download();
    size_t wrong = 0;
    for (size_t r = 0; r < static_cast<size_t>(rows); ++r)
      for (size_t c = 0; c < static_cast<size_t>(cols); ++c) wrong += out[c * rows + r] != in[r * cols + c];
    return report_check(name, wrong == 0, std::to_string(wrong) + " of " + std::to_string(n) + " elements differ");
  };
  bool ok = check("transpose_naive", naive);
  ok &= check("transpose_tiled", tiled);

  time_kernel("transpose_naive", options, naive);
  time_kernel("transpose_tiled", options, tiled);
  return ok ? 0 : 1;
}
