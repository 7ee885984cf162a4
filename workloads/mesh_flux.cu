// Issue 28, class (h): unstructured-mesh flux kernels: each thread gathers from 4 neighbours
// through an index list, at high occupancy, over thousands of launches. A finite-volume
// diffusion step on a periodic quadrilateral mesh stored as an unstructured one: each cell's
// four neighbours come from an index list (16 bytes per cell) and each face has a weight
// (four floats per cell, the same on both sides of a face); a cell's new value is its value
// plus the weighted differences with its neighbours. The cells are numbered tile by tile in
// a random tile order and at random within a tile, as a mesh partitioner and a bandwidth
// reordering leave them: most gathers stay in a small region, those across a tile's border
// land anywhere. Four kernels, each run for 500 steps (2,000 launches in all): one scalar
// value per cell, or two (a double2), on meshes of 5 to 6.5 M cells in tiles of 8 to 32
// cells a side (workloads/latency_classes.json says which half each belongs to).
//
// Checks: the first step of each, cell by cell against the host (bit-exact: the same fused
// operations in the same order); after all steps, the total (a conservative scheme keeps it,
// up to rounding) and the bounds (each step is a convex combination of a cell and its
// neighbours: no value leaves the initial range).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

// A cell's new value: its value plus the weighted differences across its four faces.
__host__ __device__ inline double diffused(double centre, double east, double north, double west, double south,
                                           float w_east, float w_north, float w_west, float w_south) {
  double flux = fma(static_cast<double>(w_east), east - centre, 0.0);
  flux = fma(static_cast<double>(w_north), north - centre, flux);
  flux = fma(static_cast<double>(w_west), west - centre, flux);
  flux = fma(static_cast<double>(w_south), south - centre, flux);
  return centre + flux;
}

__device__ void flux_scalar_body(double* __restrict__ out, const double* __restrict__ u,
                                 const uint4* __restrict__ neighbours, const float4* __restrict__ weights, unsigned cells) {
  const unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cells) return;
  const uint4 nb = neighbours[c];
  const float4 w = weights[c];
  out[c] = diffused(u[c], u[nb.x], u[nb.y], u[nb.z], u[nb.w], w.x, w.y, w.z, w.w);
}

// Two values per cell; the second diffuses at half the rate.
__device__ void flux_pair_body(double2* __restrict__ out, const double2* __restrict__ u,
                               const uint4* __restrict__ neighbours, const float4* __restrict__ weights, unsigned cells) {
  const unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c >= cells) return;
  const uint4 nb = neighbours[c];
  const float4 w = weights[c];
  const double2 centre = u[c], east = u[nb.x], north = u[nb.y], west = u[nb.z], south = u[nb.w];
  out[c] = double2{diffused(centre.x, east.x, north.x, west.x, south.x, w.x, w.y, w.z, w.w),
                   diffused(centre.y, east.y, north.y, west.y, south.y, 0.5f * w.x, 0.5f * w.y, 0.5f * w.z, 0.5f * w.w)};
}

#define MESH_FLUX_KERNEL(name, body, type)                                                                      \
  __global__ void name(type* __restrict__ out, const type* __restrict__ u, const uint4* __restrict__ neighbours,  \
                       const float4* __restrict__ weights, unsigned cells) {                                     \
    body(out, u, neighbours, weights, cells);                                                                    \
  }
MESH_FLUX_KERNEL(mesh_flux_scalar_t16, flux_scalar_body, double)
MESH_FLUX_KERNEL(mesh_flux_pair_t32, flux_pair_body, double2)
MESH_FLUX_KERNEL(mesh_flux_scalar_t8, flux_scalar_body, double)
MESH_FLUX_KERNEL(mesh_flux_pair_t16, flux_pair_body, double2)

namespace {

constexpr unsigned kFluxThreads = 256;

struct Mesh {
  unsigned cells = 0;
  std::vector<uint4> neighbours;  // east, north, west, south
  std::vector<float4> weights;    // the same four faces
};

// A periodic width x height grid of cells numbered tile by tile (tiles of tile x tile cells
// in a random order, cells at random within their tile), with random face weights in
// [0.02, 0.24]: at most 0.96 around a cell, so every step is a convex combination.
Mesh tiled_mesh(unsigned width, unsigned height, unsigned tile, std::uint64_t seed) {
  const unsigned tiles_x = width / tile, tiles = tiles_x * (height / tile), per_tile = tile * tile;
  std::vector<std::uint32_t> draws(size_t{width} * height + tiles);
  fill_bits(draws, seed);
  std::vector<unsigned> tile_rank(tiles), local(per_tile);
  for (unsigned t = 0; t < tiles; ++t) tile_rank[t] = t;
  for (unsigned t = tiles - 1; t > 0; --t) std::swap(tile_rank[t], tile_rank[draws[t] % (t + 1)]);
  std::vector<unsigned> number(size_t{width} * height);  // grid position -> cell number
  for (unsigned t = 0; t < tiles; ++t) {
    for (unsigned k = 0; k < per_tile; ++k) local[k] = k;
    for (unsigned k = per_tile - 1; k > 0; --k) std::swap(local[k], local[draws[tiles + t * per_tile + k] % (k + 1)]);
    const unsigned x0 = t % tiles_x * tile, y0 = t / tiles_x * tile;
    for (unsigned k = 0; k < per_tile; ++k)
      number[size_t{y0 + k / tile} * width + x0 + k % tile] = tile_rank[t] * per_tile + local[k];
  }
  std::vector<float> east_face(size_t{width} * height), north_face(size_t{width} * height);
  fill_uniform(east_face, 0.02f, 0.24f, seed + 1);
  fill_uniform(north_face, 0.02f, 0.24f, seed + 2);
  Mesh mesh;
  mesh.cells = width * height;
  mesh.neighbours.resize(mesh.cells);
  mesh.weights.resize(mesh.cells);
  for (unsigned y = 0; y < height; ++y)
    for (unsigned x = 0; x < width; ++x) {
      const unsigned east = (x + 1) % width, west = (x + width - 1) % width;
      const unsigned north = (y + 1) % height, south = (y + height - 1) % height;
      const size_t at = size_t{y} * width + x;
      const unsigned c = number[at];
      mesh.neighbours[c] = uint4{number[size_t{y} * width + east], number[size_t{north} * width + x],
                                 number[size_t{y} * width + west], number[size_t{south} * width + x]};
      mesh.weights[c] = float4{east_face[at], north_face[at], east_face[size_t{y} * width + west],
                               north_face[size_t{south} * width + x]};
    }
  return mesh;
}

// The host's step of one component (`half`: the second value's halved weights).
double host_cell(const std::vector<double>& u, const Mesh& mesh, unsigned c, bool half) {
  const uint4 nb = mesh.neighbours[c];
  const float4 w = mesh.weights[c];
  const float s = half ? 0.5f : 1.0f;
  return diffused(u[c], u[nb.x], u[nb.y], u[nb.z], u[nb.w], s * w.x, s * w.y, s * w.z, s * w.w);
}

long double total_of(const std::vector<double>& values) {
  long double total = 0;
  for (const double v : values) total += v;
  return total;
}

// Runs one kernel: `components` values per cell (1: double, 2: double2, stored interleaved).
template <typename Value, typename Kernel>
bool run(const char* name, Kernel kernel, unsigned components, unsigned width, unsigned height, unsigned tile,
         int steps, const Options& options) {
  const Mesh mesh = tiled_mesh(width, height, tile, fresh_seed());
  const unsigned cells = mesh.cells;
  std::vector<double> initial(size_t{cells} * components);
  fill_uniform(initial, 0.1, 1.1, fresh_seed() + 3);
  DeviceBuffer<uint4> neighbours_d(cells);
  DeviceBuffer<float4> weights_d(cells);
  DeviceBuffer<Value> u_d(cells), next_d(cells);
  neighbours_d.upload(mesh.neighbours);
  weights_d.upload(mesh.weights);
  ROOFCAST_CUDA(cudaMemcpy(u_d.get(), initial.data(), initial.size() * sizeof(double), cudaMemcpyHostToDevice));
  next_d.poison();
  bool in_u = true;  // which buffer holds the current values
  auto step = [&] {
    kernel<<<blocks_for(cells, kFluxThreads), kFluxThreads>>>(in_u ? next_d.get() : u_d.get(), in_u ? u_d.get() : next_d.get(),
                                                              neighbours_d.get(), weights_d.get(), cells);
    in_u = !in_u;
  };
  auto download = [&] {
    std::vector<double> values(size_t{cells} * components);
    ROOFCAST_CUDA(cudaMemcpy(values.data(), in_u ? u_d.get() : next_d.get(), values.size() * sizeof(double),
                             cudaMemcpyDeviceToHost));
    return values;
  };

  step();
  ROOFCAST_CHECK_LAUNCH();
  const std::vector<double> first = download();
  size_t wrong = 0;
  std::vector<double> component(cells);
  for (unsigned k = 0; k < components; ++k) {
    for (unsigned c = 0; c < cells; ++c) component[c] = initial[size_t{c} * components + k];
    for (unsigned c = 0; c < cells; ++c) wrong += first[size_t{c} * components + k] != host_cell(component, mesh, c, k == 1);
  }
  for (int s = 1; s < steps; ++s) step();
  ROOFCAST_CHECK_LAUNCH();
  const std::vector<double> last = download();
  const auto [low, high] = std::minmax_element(initial.begin(), initial.end());
  const double slack = 1e-12;
  size_t out_of_bounds = 0;
  for (const double v : last) out_of_bounds += !(v >= *low - slack && v <= *high + slack);
  const long double total_before = total_of(initial), total_after = total_of(last);
  const double drift = static_cast<double>(std::abs(total_after - total_before) / total_before);
  const double drift_tolerance = 1e-10;
  const bool ok = report_check(name, wrong == 0 && out_of_bounds == 0 && drift <= drift_tolerance,
                               std::to_string(wrong) + " of " + std::to_string(first.size()) +
                                   " values differ from host after step 1 (bit-exact); after " + std::to_string(steps) +
                                   " steps " + std::to_string(out_of_bounds) + " out of the initial range (+-" + scientific(slack) + "), total drifted " +
                                   scientific(drift) + " (tolerance " + scientific(drift_tolerance) + ")");
  time_kernel(name, options, step);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "mesh_flux", "unstructured-mesh diffusion fluxes, 4 gathered neighbours");
  const int steps = options.small ? 20 : 500;
  const unsigned scale = options.small ? 16 : 1;  // --small: each side 16 times shorter
  print_header("mesh_flux", std::to_string(steps) + " steps of 4 kernels on meshes of " +
                                (options.small ? "~25 k" : "5.2 to 6.6 M") + " cells");
  bool ok = run<double>("mesh_flux_scalar_t16", mesh_flux_scalar_t16, 1, 2560 / scale, 2560 / scale, 16, steps, options);
  ok = run<double2>("mesh_flux_pair_t32", mesh_flux_pair_t32, 2, 2560 / scale, 2048 / scale, 32, steps,
                    options) && ok;
  ok = run<double>("mesh_flux_scalar_t8", mesh_flux_scalar_t8, 1, 3072 / scale, 2048 / scale, 8, steps, options) && ok;
  ok = run<double2>("mesh_flux_pair_t16", mesh_flux_pair_t16, 2, 2304 / scale, 2304 / scale, 16, steps,
                    options) && ok;
  return ok ? 0 : 1;
}
