// Red/black SOR with color reordering, double precision (the thesis' case study of
// chapter 4): the grid's red and black points are stored in two compact N x N/2 arrays,
// and each sweep updates one color from its four neighbours of the other color.
#include <cmath>
#include <string>
#include <vector>

#include "common/workload_support.hpp"
#include "common/sor_layout.hpp"

using namespace roofcast::workloads;

constexpr double kOmega = 1.5;

__device__ void sor_update(double* __restrict__ mine, const double* __restrict__ other, int n, int first_parity) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  const int half = n / 2;
  if (i < 1 || i >= n - 1 || k >= half) return;
  const int parity = (i + first_parity) & 1;  // this row's points of this color are at columns 2k + parity
  const int j = 2 * k + parity;
  if (j < 1 || j >= n - 1) return;
  const size_t at = static_cast<size_t>(i) * half + k;
  const double sum = other[at - half] + other[at + half] + other[at - 1 + parity] + other[at + parity];
  mine[at] = (1.0 - kOmega) * mine[at] + kOmega * 0.25 * sum;
}

__global__ void sor_red(double* red, const double* black, int n) { sor_update(red, black, n, 0); }
__global__ void sor_black(double* black, const double* red, int n) { sor_update(black, red, n, 1); }

// The same sweep on the host, in the same order of operations.
void host_sweep(std::vector<double>& mine, const std::vector<double>& other, int n, int first_parity) {
  const int half = n / 2;
  for (int i = 1; i < n - 1; ++i) {
    const int parity = (i + first_parity) & 1;
    for (int k = 0; k < half; ++k) {
      const int j = 2 * k + parity;
      if (j < 1 || j >= n - 1) continue;
      const size_t at = static_cast<size_t>(i) * half + k;
      const double sum = other[at - half] + other[at + half] + other[at - 1 + parity] + other[at + parity];
      mine[at] = (1.0 - kOmega) * mine[at] + kOmega * 0.25 * sum;
    }
  }
}

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "redblack_sor", "red/black SOR, fp64, color-reordered");
  const int n = options.small ? 512 : 8192;
  print_header("redblack_sor", std::to_string(n) + "x" + std::to_string(n) + " fp64");
  const size_t points = static_cast<size_t>(n) * (n / 2);

  std::vector<double> red(points), black(points);
  fill_uniform(red, 0.0, 1.0, fresh_seed());
  fill_uniform(black, 0.0, 1.0, fresh_seed() + 1);
  DeviceBuffer<double> red_d(points), black_d(points);
  red_d.upload(red);
  black_d.upload(black);

  const dim3 block(32, 8);
  const dim3 grid = sor_grid(n, block);
  sor_red<<<grid, block>>>(red_d.get(), black_d.get(), n);
  ROOFCAST_CHECK_LAUNCH();
  sor_black<<<grid, block>>>(black_d.get(), red_d.get(), n);
  ROOFCAST_CHECK_LAUNCH();
  host_sweep(red, black, n, 0);
  host_sweep(black, red, n, 1);
  const double error = std::max(max_relative_error(red_d.download(), red, 1e-2), max_relative_error(black_d.download(), black, 1e-2));
  const bool ok = report_check("redblack_sor", error < 1e-12,
                               "max relative error " + scientific(error) + " after one sweep vs host");

  time_kernel("sor_red", options, [&] { sor_red<<<grid, block>>>(red_d.get(), black_d.get(), n); });
  time_kernel("sor_black", options, [&] { sor_black<<<grid, block>>>(black_d.get(), red_d.get(), n); });
  return ok ? 0 : 1;
}
