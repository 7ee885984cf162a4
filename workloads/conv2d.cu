// Held-out (docs/validation/heldout): a 2-D convolution of an fp32 image with a 7 x 7 filter
// (zero padding, output the size of the input), as image filters and the first layers of
// convolutional networks do it without a library. The filter sits in constant memory. The
// direct kernel gives each thread one pixel and reads its 49 inputs from global memory (L1
// hits, mostly). The tiled kernel loads a 38 x 38 tile with its halo into shared memory once,
// and each thread computes four pixels of a column, reading each input it needs once for all
// four (70 shared loads for 196 FMAs). The image is 8192 x 8192 (256 MiB).
#include <functional>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr int kRadius = 3;
constexpr int kFilterWidth = 2 * kRadius + 1;
constexpr int kTileX = 32, kTileY = 32;  // output pixels of a block of 32 x 8 threads
constexpr int kBlockY = 8;
constexpr int kRowsPerThread = kTileY / kBlockY;
constexpr int kHaloX = kTileX + 2 * kRadius, kHaloY = kTileY + 2 * kRadius;

__constant__ float filter[kFilterWidth * kFilterWidth];

__global__ void conv2d_direct(float* __restrict__ out, const float* __restrict__ in, int width, int height) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = 0;
#pragma unroll
  for (int fy = 0; fy < kFilterWidth; ++fy) {
    const int yy = y + fy - kRadius;
    if (yy < 0 || yy >= height) continue;
#pragma unroll
    for (int fx = 0; fx < kFilterWidth; ++fx) {
      const int xx = x + fx - kRadius;
      if (xx >= 0 && xx < width) sum += filter[fy * kFilterWidth + fx] * in[static_cast<size_t>(yy) * width + xx];
    }
  }
  out[static_cast<size_t>(y) * width + x] = sum;
}

__global__ void conv2d_tiled(float* __restrict__ out, const float* __restrict__ in, int width, int height) {
  __shared__ float tile[kHaloY][kHaloX];
  const int x0 = blockIdx.x * kTileX - kRadius, y0 = blockIdx.y * kTileY - kRadius;
  for (int i = threadIdx.y * blockDim.x + threadIdx.x; i < kHaloX * kHaloY; i += blockDim.x * blockDim.y) {
    const int gx = x0 + i % kHaloX, gy = y0 + i / kHaloX;
    tile[i / kHaloX][i % kHaloX] =
        gx >= 0 && gx < width && gy >= 0 && gy < height ? in[static_cast<size_t>(gy) * width + gx] : 0.0f;
  }
  __syncthreads();
  // This thread's pixels: rows first_row .. first_row + 3 of the tile, column threadIdx.x. Tile
  // row first_row + r feeds pixel k through filter row r - k.
  const int first_row = threadIdx.y * kRowsPerThread;
  float sum[kRowsPerThread] = {};
#pragma unroll
  for (int r = 0; r < kRowsPerThread + 2 * kRadius; ++r) {
#pragma unroll
    for (int fx = 0; fx < kFilterWidth; ++fx) {
      const float value = tile[first_row + r][threadIdx.x + fx];
#pragma unroll
      for (int k = 0; k < kRowsPerThread; ++k)
        if (r - k >= 0 && r - k < kFilterWidth) sum[k] += filter[(r - k) * kFilterWidth + fx] * value;
    }
  }
  const int x = blockIdx.x * kTileX + threadIdx.x;
#pragma unroll
  for (int k = 0; k < kRowsPerThread; ++k) {
    const int y = blockIdx.y * kTileY + first_row + k;
    if (x < width && y < height) out[static_cast<size_t>(y) * width + x] = sum[k];
  }
}

namespace {

double host_pixel(const std::vector<float>& in, const std::vector<float>& weights, int width, int height, int x,
                  int y) {
  double sum = 0;
  for (int fy = 0; fy < kFilterWidth; ++fy)
    for (int fx = 0; fx < kFilterWidth; ++fx) {
      const int xx = x + fx - kRadius, yy = y + fy - kRadius;
      if (xx >= 0 && xx < width && yy >= 0 && yy < height)
        sum += static_cast<double>(weights[fy * kFilterWidth + fx]) * in[static_cast<size_t>(yy) * width + xx];
    }
  return sum;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "conv2d", "2-D convolution with a 7 x 7 filter, fp32");
  // Not multiples of the tile at the small size (and every pixel checked), so the edges are too.
  const int width = options.small ? 300 : 8192;
  const int height = options.small ? 200 : 8192;
  const size_t n = static_cast<size_t>(width) * height;
  print_header("conv2d", std::to_string(width) + " x " + std::to_string(height) + " image, 7 x 7 filter");

  std::vector<float> in(n), weights(kFilterWidth * kFilterWidth);
  fill_uniform(in, 0.5f, 1.5f, fresh_seed());
  fill_uniform(weights, 0.01f, 1.0f, fresh_seed() + 1);
  ROOFCAST_CUDA(cudaMemcpyToSymbol(filter, weights.data(), weights.size() * sizeof(float)));
  DeviceBuffer<float> in_d(n), out_d(n);
  in_d.upload(in);

  const dim3 direct_grid((width + 31) / 32, (height + kBlockY - 1) / kBlockY);
  const dim3 tiled_grid((width + kTileX - 1) / kTileX, (height + kTileY - 1) / kTileY);
  const dim3 block(32, kBlockY);
  auto direct = [&] { conv2d_direct<<<direct_grid, block>>>(out_d.get(), in_d.get(), width, height); };
  auto tiled = [&] { conv2d_tiled<<<tiled_grid, block>>>(out_d.get(), in_d.get(), width, height); };

  // Each kernel from a poisoned output, against the host in double on a sample of pixels.
  auto check = [&](const std::string& name, const std::function<void()>& launch) {
    out_d.poison();
    launch();
    ROOFCAST_CHECK_LAUNCH();
    const std::vector<float> out = out_d.download();
    std::vector<double> got, want;
    for (const size_t i : elements_to_check(n, 1 << 16)) {
      got.push_back(out[i]);
      want.push_back(host_pixel(in, weights, width, height, static_cast<int>(i % width), static_cast<int>(i / width)));
    }
    const double error = max_relative_error(got, want);
    return report_check(name, error < 1e-5,
                        "max relative error " + scientific(error) + " vs host, " + std::to_string(got.size()) +
                            " pixels");
  };
  bool ok = check("conv2d_direct", direct);
  ok &= check("conv2d_tiled", tiled);

  time_kernel("conv2d_direct", options, direct);
  time_kernel("conv2d_tiled", options, tiled);
  return ok ? 0 : 1;
}
