// Held-out (docs/validation/heldout): one step of an all-pairs gravitational n-body simulation in
// fp32, the tiled kernel of GPU Gems 3, chapter 31 (Nyland, Harris, Prins). Each thread owns a
// body; the block loads 256 bodies at a time into shared memory and every thread sums their
// pulls on its body (softened: 1 / sqrt(r^2 + eps^2), one rsqrt each), then advances velocity
// and position (leapfrog). 65,536 bodies: 4.3e9 interactions of 20 flops per step, compute-bound.
#include <cmath>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr unsigned kThreads = 256;
constexpr float kSoftening2 = 0.01f;
constexpr float kTimeStep = 0.01f;

// Bodies are float4: x, y, z and mass (positions) or vx, vy, vz and unused (velocities).
// n is a multiple of the block size.
__global__ void nbody_step(float4* __restrict__ position_out, float4* __restrict__ velocity_out,
                           const float4* __restrict__ position, const float4* __restrict__ velocity, int n) {
  __shared__ float4 tile[kThreads];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const float4 p = position[i];
  float ax = 0, ay = 0, az = 0;
  for (int start = 0; start < n; start += kThreads) {
    tile[threadIdx.x] = position[start + threadIdx.x];
    __syncthreads();
#pragma unroll 8
    for (int j = 0; j < static_cast<int>(kThreads); ++j) {
      const float4 q = tile[j];
      const float dx = q.x - p.x, dy = q.y - p.y, dz = q.z - p.z;
      const float inverse = rsqrtf(dx * dx + dy * dy + dz * dz + kSoftening2);
      const float s = q.w * inverse * inverse * inverse;
      ax += dx * s;
      ay += dy * s;
      az += dz * s;
    }
    __syncthreads();
  }
  float4 v = velocity[i];
  v.x += ax * kTimeStep;
  v.y += ay * kTimeStep;
  v.z += az * kTimeStep;
  velocity_out[i] = v;
  position_out[i] = make_float4(p.x + v.x * kTimeStep, p.y + v.y * kTimeStep, p.z + v.z * kTimeStep, p.w);
}

namespace {

struct Acceleration {
  double x = 0, y = 0, z = 0;
};

// The pull on body i in double, the same softened sum.
Acceleration host_acceleration(const std::vector<float>& position, int n, int i) {
  Acceleration a;
  const double px = position[4 * i], py = position[4 * i + 1], pz = position[4 * i + 2];
  for (int j = 0; j < n; ++j) {
    const double dx = position[4 * j] - px, dy = position[4 * j + 1] - py, dz = position[4 * j + 2] - pz;
    const double r2 = dx * dx + dy * dy + dz * dz + kSoftening2;
    const double s = position[4 * j + 3] / (r2 * std::sqrt(r2));
    a.x += dx * s;
    a.y += dy * s;
    a.z += dz * s;
  }
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "nbody", "one all-pairs n-body step, fp32, shared-memory tiles");
  const int n = options.small ? 2048 : 65536;
  print_header("nbody", std::to_string(n) + " bodies");

  // Positions in the cube -1..1, masses 0.5..1.5 / n (total mass about 1), velocities
  // -0.1..0.1: small, so that in fp32 v' - v (a step's change, 0.01 a) keeps the acceleration's digits.
  std::vector<float> position(4 * static_cast<size_t>(n)), velocity(4 * static_cast<size_t>(n)), mass(n);
  fill_uniform(position, -1.0f, 1.0f, fresh_seed());
  fill_uniform(velocity, -0.1f, 0.1f, fresh_seed() + 1);
  fill_uniform(mass, 0.5f / n, 1.5f / n, fresh_seed() + 2);
  for (int i = 0; i < n; ++i) position[4 * i + 3] = mass[i];
  DeviceBuffer<float4> position_d(n), velocity_d(n), position_out_d(n), velocity_out_d(n);
  ROOFCAST_CUDA(cudaMemcpy(position_d.get(), position.data(), position.size() * sizeof(float), cudaMemcpyHostToDevice));
  ROOFCAST_CUDA(cudaMemcpy(velocity_d.get(), velocity.data(), velocity.size() * sizeof(float), cudaMemcpyHostToDevice));

  auto step = [&] {
    nbody_step<<<n / kThreads, kThreads>>>(position_out_d.get(), velocity_out_d.get(), position_d.get(),
                                          velocity_d.get(), n);
  };
  position_out_d.poison();
  velocity_out_d.poison();
  step();
  ROOFCAST_CHECK_LAUNCH();
  std::vector<float> position_out(position.size()), velocity_out(velocity.size());
  ROOFCAST_CUDA(cudaMemcpy(position_out.data(), position_out_d.get(), position_out.size() * sizeof(float),
                           cudaMemcpyDeviceToHost));
  ROOFCAST_CUDA(cudaMemcpy(velocity_out.data(), velocity_out_d.get(), velocity_out.size() * sizeof(float),
                           cudaMemcpyDeviceToHost));

  // The acceleration the kernel applied, (v' - v) / dt, against the host's, as a vector: its
  // error relative to the host acceleration's length. And the position moved by v' dt.
  double worst_acceleration = 0, worst_position = 0;
  for (const size_t i : elements_to_check(n, 512)) {
    const Acceleration want = host_acceleration(position, n, static_cast<int>(i));
    double error2 = 0, length2 = 0;
    for (int d = 0; d < 3; ++d) {
      const double got = (static_cast<double>(velocity_out[4 * i + d]) - velocity[4 * i + d]) / kTimeStep;
      const double expected = d == 0 ? want.x : d == 1 ? want.y : want.z;
      error2 += (got - expected) * (got - expected);
      length2 += expected * expected;
      const double moved = position[4 * i + d] + static_cast<double>(velocity_out[4 * i + d]) * kTimeStep;
      worst_position = std::fmax(worst_position, std::fabs(position_out[4 * i + d] - moved));
    }
    const double error = std::sqrt(error2 / length2);
    worst_acceleration = std::isnan(error) ? INFINITY : std::fmax(worst_acceleration, error);
    if (std::isnan(worst_position)) worst_position = INFINITY;
  }
  const bool ok = report_check("nbody_step", worst_acceleration < 1e-3 && worst_position < 1e-6,
                               "acceleration off by at most " + scientific(worst_acceleration) +
                                   " of its length, position by " + scientific(worst_position) +
                                   " (512 bodies vs host)");

  time_kernel("nbody_step", options, step);
  return ok ? 0 : 1;
}
