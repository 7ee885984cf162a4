// Issue 28, class (f): particle weight normalization with block-wide reductions of doubles.
// One block per particle filter: each thread holds a few of the filter's log-weights in
// registers; the block finds their maximum (a block-wide reduction: warp shuffles, then the
// warps' results through shared memory between barriers), exponentiates relative to it, sums
// the weights (a second reduction), writes the normalized weights, and sums their squares for
// the effective sample size (a third). 2^24 particles in all, as filters of 512 to 4096
// particles on blocks of 64 to 512 threads: four kernels of the same code
// (workloads/latency_classes.json says which half each belongs to).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

struct Maximum {
  __device__ double operator()(double a, double b) const { return fmax(a, b); }
};
struct Sum {
  __device__ double operator()(double a, double b) const { return a + b; }
};

// Every thread of the block gets the reduction of every thread's `value`.
template <unsigned kThreads, typename Op>
__device__ double block_reduce(double value, Op op) {
  constexpr unsigned kWarps = kThreads / 32;
  __shared__ double warp_results[kWarps];
  __shared__ double result;
  for (unsigned offset = 16; offset > 0; offset /= 2) value = op(value, __shfl_xor_sync(0xFFFFFFFFu, value, offset));
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  if (lane == 0) warp_results[warp] = value;
  __syncthreads();
  if (warp == 0) {
    value = warp_results[lane < kWarps ? lane : 0];
    for (unsigned offset = kWarps / 2; offset > 0; offset /= 2) value = op(value, __shfl_xor_sync(0xFFFFFFFFu, value, offset));
    if (lane == 0) result = value;
  }
  __syncthreads();
  return result;
}

template <unsigned kThreads, unsigned kPerThread>
__device__ void particle_normalize_body(double* __restrict__ weights, double* __restrict__ sample_sizes,
                                        const double* __restrict__ log_weights) {
  constexpr unsigned kParticles = kThreads * kPerThread;
  const size_t first = size_t{blockIdx.x} * kParticles + threadIdx.x;
  double value[kPerThread];
  double largest = -INFINITY;
#pragma unroll
  for (unsigned k = 0; k < kPerThread; ++k) largest = fmax(largest, value[k] = log_weights[first + k * kThreads]);
  largest = block_reduce<kThreads>(largest, Maximum{});
  double sum = 0;
#pragma unroll
  for (unsigned k = 0; k < kPerThread; ++k) sum += value[k] = exp(value[k] - largest);
  const double scale = 1.0 / block_reduce<kThreads>(sum, Sum{});
  double squares = 0;
#pragma unroll
  for (unsigned k = 0; k < kPerThread; ++k) {
    const double w = value[k] * scale;
    weights[first + k * kThreads] = w;
    squares = fma(w, w, squares);
  }
  squares = block_reduce<kThreads>(squares, Sum{});
  if (threadIdx.x == 0) sample_sizes[blockIdx.x] = 1.0 / squares;
}

#define PARTICLE_NORMALIZE_KERNEL(name, threads, per_thread)                                                      \
  __global__ void name(double* __restrict__ weights, double* __restrict__ sample_sizes,                            \
                       const double* __restrict__ log_weights) {                                                   \
    particle_normalize_body<threads, per_thread>(weights, sample_sizes, log_weights);                              \
  }
PARTICLE_NORMALIZE_KERNEL(particle_normalize_p1024_t256, 256, 4)
PARTICLE_NORMALIZE_KERNEL(particle_normalize_p4096_t512, 512, 8)
PARTICLE_NORMALIZE_KERNEL(particle_normalize_p2048_t128, 128, 16)
PARTICLE_NORMALIZE_KERNEL(particle_normalize_p512_t64, 64, 8)

namespace {

using NormalizeKernel = void (*)(double*, double*, const double*);

struct Configuration {
  const char* name;
  NormalizeKernel kernel;
  unsigned threads, particles;
};

constexpr double kTolerance = 1e-11;  // exp and the order of the sums differ from the host's

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "particle_normalize", "particle weights normalized by block-wide fp64 reductions");
  const size_t n = options.small ? (size_t{1} << 16) : (size_t{1} << 24);
  print_header("particle_normalize", std::to_string(n) + " fp64 log-weights as filters of 512-4096 particles");
  std::vector<double> log_weights(n);
  fill_uniform(log_weights, -30.0, -0.5, fresh_seed());
  DeviceBuffer<double> log_weights_d(n), weights_d(n);
  log_weights_d.upload(log_weights);

  const Configuration configurations[] = {
      {"particle_normalize_p1024_t256", particle_normalize_p1024_t256, 256, 1024},
      {"particle_normalize_p4096_t512", particle_normalize_p4096_t512, 512, 4096},
      {"particle_normalize_p2048_t128", particle_normalize_p2048_t128, 128, 2048},
      {"particle_normalize_p512_t64", particle_normalize_p512_t64, 64, 512},
  };
  bool ok = true;
  for (const Configuration& c : configurations) {
    const unsigned filters = static_cast<unsigned>(n / c.particles);
    DeviceBuffer<double> sample_sizes_d(filters);
    auto launch = [&] { c.kernel<<<filters, c.threads>>>(weights_d.get(), sample_sizes_d.get(), log_weights_d.get()); };
    weights_d.poison();
    sample_sizes_d.poison();
    launch();
    ROOFCAST_CHECK_LAUNCH();
    const std::vector<double> weights = weights_d.download(), sample_sizes = sample_sizes_d.download();
    // Every filter: weights in (0, 1] summing to 1, an effective sample size in [1, particles].
    size_t bad_filters = 0;
    for (unsigned f = 0; f < filters; ++f) {
      double sum = 0;
      bool in_range = true;
      for (unsigned p = 0; p < c.particles; ++p) {
        const double w = weights[size_t{f} * c.particles + p];
        in_range = in_range && w > 0 && w <= 1;
        sum += w;
      }
      const double ess = sample_sizes[f];
      bad_filters += !in_range || !(std::abs(sum - 1) <= 1e-9) || !(ess >= 1 && ess <= c.particles);
    }
    // Sampled filters: every weight and the sample size against the host's.
    std::vector<double> got, want;
    for (const size_t f : elements_to_check(filters, 64)) {
      const double* lw = log_weights.data() + f * c.particles;
      const double largest = *std::max_element(lw, lw + c.particles);
      double sum = 0, squares = 0;
      for (unsigned p = 0; p < c.particles; ++p) sum += std::exp(lw[p] - largest);
      for (unsigned p = 0; p < c.particles; ++p) {
        const double w = std::exp(lw[p] - largest) / sum;
        want.push_back(w);
        got.push_back(weights[f * c.particles + p]);
        squares += w * w;
      }
      want.push_back(1 / squares);
      got.push_back(sample_sizes[f]);
    }
    const double error = max_relative_error(got, want);
    ok = report_check(c.name, bad_filters == 0 && error <= kTolerance,
                      std::to_string(bad_filters) + " of " + std::to_string(filters) +
                          " filters not normalized; max relative error " + scientific(error) +
                          " (tolerance " + scientific(kTolerance) + ") in sampled filters") &&
         ok;
    time_kernel(c.name, options, launch);
  }
  return ok ? 0 : 1;
}
