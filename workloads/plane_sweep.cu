// Issue 28, class (i): a 3-D stencil's plane sweep, each thread marching over z. A star
// stencil of radius 1 (7 points) or 2 (13 points) over a 3-D grid: each thread owns one
// (x, y) column and walks it from bottom to top, keeping the column's 2R + 1 values around z
// in registers (one new load per plane). Its x and y neighbours come either straight from
// global memory (the L1 catching the reuse between neighbouring threads) or from a tile of
// the plane in shared memory with its halo, loaded between two barriers per plane. Four
// kernels: 7 and 13 points, fp32 (516 x 516 x 260) and fp64 (392 x 392 x 200), global or
// shared (workloads/latency_classes.json says which half each belongs to).
#include <cmath>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr int kBlockX = 32, kBlockY = 8;

__host__ __device__ inline float fused(float a, float b, float c) { return fmaf(a, b, c); }
__host__ __device__ inline double fused(double a, double b, double c) { return fma(a, b, c); }

// The stencil at one point from its star sums at distance 1 and (radius 2) 2: the same
// operations in the same order on the device and the host, so results are bit-exact.
template <typename Real, int R>
__host__ __device__ inline Real stencil_value(Real centre, Real ring1, Real ring2) {
  const Real inner = fused(Real(0.1), ring1, Real(0.4) * centre);
  return R == 1 ? inner : fused(Real(0.05), ring2, inner);
}

template <typename Real, int R>
__device__ void sweep_global_body(Real* __restrict__ out, const Real* __restrict__ in, int nx, int ny, int nz) {
  const int x = blockIdx.x * kBlockX + threadIdx.x + R, y = blockIdx.y * kBlockY + threadIdx.y + R;
  if (x >= nx - R || y >= ny - R) return;
  const size_t plane = size_t(nx) * ny, column = size_t(y) * nx + x;
  Real window[2 * R + 1];  // the column at z - R .. z + R
#pragma unroll
  for (int k = 0; k < 2 * R; ++k) window[k] = in[k * plane + column];
  for (int z = R; z < nz - R; ++z) {
    window[2 * R] = in[(z + R) * plane + column];
    const size_t at = z * plane + column;
    const Real ring1 = ((((in[at - 1] + in[at + 1]) + in[at - nx]) + in[at + nx]) + window[R - 1]) + window[R + 1];
    Real ring2 = 0;
    if constexpr (R == 2)
      ring2 = ((((in[at - 2] + in[at + 2]) + in[at - 2 * nx]) + in[at + 2 * nx]) + window[0]) + window[4];
    out[at] = stencil_value<Real, R>(window[R], ring1, ring2);
#pragma unroll
    for (int k = 0; k < 2 * R; ++k) window[k] = window[k + 1];
  }
}

template <typename Real, int R>
__device__ void sweep_shared_body(Real* __restrict__ out, const Real* __restrict__ in, int nx, int ny, int nz) {
  __shared__ Real tile[kBlockY + 2 * R][kBlockX + 2 * R];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * kBlockX + tx + R, y = blockIdx.y * kBlockY + ty + R;
  const bool inside = x < nx - R && y < ny - R;
  // Threads past the interior's edge still load (clamped) and pass the barriers.
  const int xc = min(x, nx - 1), yc = min(y, ny - 1);
  const size_t plane = size_t(nx) * ny, column = size_t(yc) * nx + xc;
  Real window[2 * R + 1];
#pragma unroll
  for (int k = 0; k < 2 * R; ++k) window[k] = in[k * plane + column];
  for (int z = R; z < nz - R; ++z) {
    window[2 * R] = in[(z + R) * plane + column];
    const Real* layer = in + z * plane;
    __syncthreads();  // everyone has read the last plane's tile
    tile[ty + R][tx + R] = window[R];
    if (tx < R) {
      tile[ty + R][tx] = layer[size_t(yc) * nx + (x - R)];
      tile[ty + R][tx + kBlockX + R] = layer[size_t(yc) * nx + min(x + kBlockX, nx - 1)];
    }
    if (ty < R) {
      tile[ty][tx + R] = layer[size_t(y - R) * nx + xc];
      tile[ty + kBlockY + R][tx + R] = layer[size_t(min(y + kBlockY, ny - 1)) * nx + xc];
    }
    __syncthreads();
    if (inside) {
      const int i = ty + R, j = tx + R;
      const Real ring1 = ((((tile[i][j - 1] + tile[i][j + 1]) + tile[i - 1][j]) + tile[i + 1][j]) + window[R - 1]) + window[R + 1];
      Real ring2 = 0;
      if constexpr (R == 2) ring2 = ((((tile[i][j - 2] + tile[i][j + 2]) + tile[i - 2][j]) + tile[i + 2][j]) + window[0]) + window[4];
      out[z * plane + size_t(y) * nx + x] = stencil_value<Real, R>(window[R], ring1, ring2);
    }
#pragma unroll
    for (int k = 0; k < 2 * R; ++k) window[k] = window[k + 1];
  }
}

#define PLANE_SWEEP_KERNEL(name, body, type, radius)                                                  \
  __global__ void name(type* __restrict__ out, const type* __restrict__ in, int nx, int ny, int nz) { \
    body<type, radius>(out, in, nx, ny, nz);                                                          \
  }
PLANE_SWEEP_KERNEL(plane_sweep_7pt_f32_global, sweep_global_body, float, 1)
PLANE_SWEEP_KERNEL(plane_sweep_13pt_f64_shared, sweep_shared_body, double, 2)
PLANE_SWEEP_KERNEL(plane_sweep_13pt_f32_global, sweep_global_body, float, 2)
PLANE_SWEEP_KERNEL(plane_sweep_7pt_f64_shared, sweep_shared_body, double, 1)

namespace {

template <typename Real>
using SweepKernel = void (*)(Real*, const Real*, int, int, int);

struct Grid {
  int nx, ny, nz;
  size_t points() const { return size_t(nx) * ny * nz; }
};

template <typename Real, int R>
Real host_point(const std::vector<Real>& in, const Grid& g, int x, int y, int z) {
  const size_t nx = g.nx, at = (size_t(z) * g.ny + y) * nx + x, plane = nx * g.ny;
  const Real ring1 = ((((in[at - 1] + in[at + 1]) + in[at - nx]) + in[at + nx]) + in[at - plane]) + in[at + plane];
  Real ring2 = 0;
  if constexpr (R == 2)
    ring2 = ((((in[at - 2] + in[at + 2]) + in[at - 2 * nx]) + in[at + 2 * nx]) + in[at - 2 * plane]) + in[at + 2 * plane];
  return stencil_value<Real, R>(in[at], ring1, ring2);
}

template <typename Real, int R>
bool run(const char* name, SweepKernel<Real> kernel, const Grid& g, const std::vector<Real>& in,
         const DeviceBuffer<Real>& in_d, DeviceBuffer<Real>& out_d, const Options& options) {
  const dim3 block(kBlockX, kBlockY), grid((g.nx - 2 * R + kBlockX - 1) / kBlockX, (g.ny - 2 * R + kBlockY - 1) / kBlockY);
  auto launch = [&] { kernel<<<grid, block>>>(out_d.get(), in_d.get(), g.nx, g.ny, g.nz); };
  out_d.poison();
  launch();
  ROOFCAST_CHECK_LAUNCH();
  const std::vector<Real> out = out_d.download();
  const size_t ix = g.nx - 2 * R, iy = g.ny - 2 * R, iz = g.nz - 2 * R;
  const auto checked = elements_to_check(ix * iy * iz, 4096);
  size_t wrong = 0;
  for (const size_t k : checked) {
    const int x = int(k % ix) + R, y = int(k / ix % iy) + R, z = int(k / (ix * iy)) + R;
    wrong += out[(size_t(z) * g.ny + y) * g.nx + x] != host_point<Real, R>(in, g, x, y, z);
  }
  const bool ok = report_check(name, wrong == 0,
                               std::to_string(wrong) + " of " + std::to_string(checked.size()) +
                                   " sampled interior points differ from host (bit-exact)");
  time_kernel(name, options, launch);
  return ok;
}

template <typename Real>
struct Field {
  Grid grid;
  std::vector<Real> values;
  DeviceBuffer<Real> in_d, out_d;
  explicit Field(const Grid& g) : grid(g), values(g.points()), in_d(g.points()), out_d(g.points()) {
    fill_uniform(values, Real(0.5), Real(1.5), fresh_seed());
    in_d.upload(values);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "plane_sweep", "3-D star stencils, each thread marching over z");
  const Grid single = options.small ? Grid{68, 68, 20} : Grid{516, 516, 260};
  const Grid twice = options.small ? Grid{52, 52, 16} : Grid{392, 392, 200};
  print_header("plane_sweep", "fp32 " + std::to_string(single.nx) + "x" + std::to_string(single.ny) + "x" +
                                  std::to_string(single.nz) + ", fp64 " + std::to_string(twice.nx) + "x" +
                                  std::to_string(twice.ny) + "x" + std::to_string(twice.nz));
  bool ok = true;
  {
    Field<float> f(single);
    ok = run<float, 1>("plane_sweep_7pt_f32_global", plane_sweep_7pt_f32_global, f.grid, f.values, f.in_d, f.out_d, options) && ok;
    ok = run<float, 2>("plane_sweep_13pt_f32_global", plane_sweep_13pt_f32_global, f.grid, f.values, f.in_d, f.out_d, options) && ok;
  }
  {
    Field<double> f(twice);
    ok = run<double, 2>("plane_sweep_13pt_f64_shared", plane_sweep_13pt_f64_shared, f.grid, f.values, f.in_d, f.out_d, options) && ok;
    ok = run<double, 1>("plane_sweep_7pt_f64_shared", plane_sweep_7pt_f64_shared, f.grid, f.values, f.in_d, f.out_d, options) && ok;
  }
  return ok ? 0 : 1;
}
