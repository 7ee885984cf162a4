// LMSOR, double precision: red/black SOR with a local relaxation factor for every point
// (Konstantinidis & Cotronis' local modified SOR for variable-coefficient stencils). Each
// point has its own four stencil coefficients, and its omega is computed from them in the
// kernel (two square roots and a division per point), so it moves five times the bytes of
// plain red/black SOR and does far more double-precision work per point.
#include <cmath>
#include <string>
#include <vector>

#include "common/sor_layout.hpp"
#include "common/workload_support.hpp"

using namespace roofcast::workloads;

// Stencil coefficients of one color's points (left, right, up, down), summing to 1 at every
// point, so that the local Jacobi spectral radius mu stays below cos(pi h) < 1.
struct Coefficients {
  const double* left;
  const double* right;
  const double* up;
  const double* down;
};

__host__ __device__ inline double lmsor_point(double u, double l, double r, double t, double b, double west,
                                              double east, double north, double south, double cos_pi_h) {
  const double mu = 2.0 * (sqrt(l * r) + sqrt(t * b)) * cos_pi_h;
  const double omega = 2.0 / (1.0 + sqrt(1.0 - mu * mu));
  const double sum = l * west + r * east + t * north + b * south;
  return (1.0 - omega) * u + omega * sum;
}

__device__ void lmsor_update(double* __restrict__ mine, const double* __restrict__ other, Coefficients c, int n,
                             int first_parity, double cos_pi_h) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  const int half = n / 2;
  if (i < 1 || i >= n - 1 || k >= half) return;
  const int parity = (i + first_parity) & 1;
  const int j = 2 * k + parity;
  if (j < 1 || j >= n - 1) return;
  const size_t at = static_cast<size_t>(i) * half + k;
  mine[at] = lmsor_point(mine[at], c.left[at], c.right[at], c.up[at], c.down[at], other[at - 1 + parity],
                         other[at + parity], other[at - half], other[at + half], cos_pi_h);
}

__global__ void lmsor_red(double* red, const double* black, Coefficients c, int n, double cos_pi_h) {
  lmsor_update(red, black, c, n, 0, cos_pi_h);
}
__global__ void lmsor_black(double* black, const double* red, Coefficients c, int n, double cos_pi_h) {
  lmsor_update(black, red, c, n, 1, cos_pi_h);
}

struct HostColor {
  std::vector<double> u, left, right, up, down;
};

HostColor random_color(size_t points, std::uint64_t seed) {
  HostColor color{std::vector<double>(points), std::vector<double>(points), std::vector<double>(points),
                  std::vector<double>(points), std::vector<double>(points)};
  fill_uniform(color.u, 0.0, 1.0, seed);
  fill_uniform(color.left, 0.5, 1.5, seed + 1);
  fill_uniform(color.right, 0.5, 1.5, seed + 2);
  fill_uniform(color.up, 0.5, 1.5, seed + 3);
  fill_uniform(color.down, 0.5, 1.5, seed + 4);
  for (size_t p = 0; p < points; ++p) {
    const double sum = color.left[p] + color.right[p] + color.up[p] + color.down[p];
    color.left[p] /= sum;
    color.right[p] /= sum;
    color.up[p] /= sum;
    color.down[p] /= sum;
  }
  return color;
}

void host_sweep(HostColor& mine, const std::vector<double>& other, int n, int first_parity, double cos_pi_h) {
  const int half = n / 2;
  for (int i = 1; i < n - 1; ++i) {
    const int parity = (i + first_parity) & 1;
    for (int k = 0; k < half; ++k) {
      const int j = 2 * k + parity;
      if (j < 1 || j >= n - 1) continue;
      const size_t at = static_cast<size_t>(i) * half + k;
      mine.u[at] = lmsor_point(mine.u[at], mine.left[at], mine.right[at], mine.up[at], mine.down[at],
                               other[at - 1 + parity], other[at + parity], other[at - half], other[at + half], cos_pi_h);
    }
  }
}

struct DeviceColor {
  explicit DeviceColor(const HostColor& host)
      : u(host.u.size()), left(host.u.size()), right(host.u.size()), up(host.u.size()), down(host.u.size()) {
    u.upload(host.u);
    left.upload(host.left);
    right.upload(host.right);
    up.upload(host.up);
    down.upload(host.down);
  }
  Coefficients coefficients() const { return {left.get(), right.get(), up.get(), down.get()}; }
  DeviceBuffer<double> u, left, right, up, down;
};

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "lmsor", "local modified red/black SOR, fp64");
  const int n = options.small ? 512 : 8192;
  print_header("lmsor", std::to_string(n) + "x" + std::to_string(n) + " fp64");
  const size_t points = static_cast<size_t>(n) * (n / 2);
  const double cos_pi_h = std::cos(std::acos(-1.0) / (n - 1));

  const std::uint64_t seed = fresh_seed();
  HostColor red = random_color(points, seed), black = random_color(points, seed + 100);
  DeviceColor red_d(red), black_d(black);

  const dim3 block(32, 8);
  const dim3 grid = sor_grid(n, block);
  auto launch_red = [&] {
    lmsor_red<<<grid, block>>>(red_d.u.get(), black_d.u.get(), red_d.coefficients(), n, cos_pi_h);
  };
  auto launch_black = [&] {
    lmsor_black<<<grid, block>>>(black_d.u.get(), red_d.u.get(), black_d.coefficients(), n, cos_pi_h);
  };
  launch_red();
  ROOFCAST_CHECK_LAUNCH();
  launch_black();
  ROOFCAST_CHECK_LAUNCH();
  host_sweep(red, black.u, n, 0, cos_pi_h);
  host_sweep(black, red.u, n, 1, cos_pi_h);
  const double error =
      std::max(max_relative_error(red_d.u.download(), red.u, 1e-2), max_relative_error(black_d.u.download(), black.u, 1e-2));
  const bool ok = report_check("lmsor", error < 1e-10,
                               "max relative error " + scientific(error) + " after one sweep vs host");

  time_kernel("lmsor_red", options, launch_red);
  time_kernel("lmsor_black", options, launch_black);
  return ok ? 0 : 1;
}
