// Latency-bound kernels with almost no parallelism: one warp on the whole GPU.
// serial_fma_chain: one block of 32 threads, each a long chain of dependent FP32 FMAs, so the
// time is the chain length times the FMA latency. pointer_chase: one warp following a random
// cyclic permutation through 64 MiB (beyond the L2), each lane its own chain of dependent
// loads, so the time is the chain length times the DRAM latency.
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr unsigned kLanes = 32;
constexpr float kScale = 0.999f;  // below 1: the chain converges and stays finite
constexpr float kShift = 0.001f;

__global__ void serial_fma_chain(float* __restrict__ out, const float* __restrict__ in, int steps) {
  float x = in[threadIdx.x];
  for (int s = 0; s < steps; ++s) x = fmaf(x, kScale, kShift);
  out[threadIdx.x] = x;
}

__global__ void pointer_chase(unsigned* __restrict__ out, const unsigned* __restrict__ next,
                              const unsigned* __restrict__ start, int steps) {
  unsigned p = start[threadIdx.x];
  for (int s = 0; s < steps; ++s) p = next[p];
  out[threadIdx.x] = p;
}

namespace {

// A random permutation made of one cycle through all n slots (Sattolo's algorithm), so no
// chase falls into a short loop that would stay in cache.
std::vector<unsigned> single_cycle(size_t n, std::uint64_t seed) {
  std::vector<unsigned> next(n);
  std::iota(next.begin(), next.end(), 0u);
  std::vector<std::uint32_t> random(n);
  fill_bits(random, seed);
  for (size_t i = n - 1; i > 0; --i) std::swap(next[i], next[random[i] % i]);
  return next;
}

bool check_fma_chain(const Options& options) {
  const int steps = options.small ? (1 << 12) : (1 << 22);
  std::vector<float> in(kLanes);
  fill_uniform(in, -1.0f, 1.0f, fresh_seed());
  DeviceBuffer<float> in_d(kLanes), out_d(kLanes);
  in_d.upload(in);
  out_d.poison();
  auto launch = [&] { serial_fma_chain<<<1, kLanes>>>(out_d.get(), in_d.get(), steps); };
  launch();
  ROOFCAST_CHECK_LAUNCH();
  const std::vector<float> out = out_d.download();
  size_t wrong = 0;
  for (unsigned lane = 0; lane < kLanes; ++lane) {
    float x = in[lane];
    for (int s = 0; s < steps; ++s) x = std::fma(x, kScale, kShift);
    wrong += out[lane] != x;  // fmaf rounds once on both sides: bit-exact
  }
  const bool ok = report_check("serial_fma_chain", wrong == 0,
                               std::to_string(wrong) + " of 32 lanes differ from host after " +
                                   std::to_string(steps) + " FMAs");
  time_kernel("serial_fma_chain", options, launch);
  return ok;
}

bool check_pointer_chase(const Options& options) {
  const size_t n = options.small ? (size_t{1} << 16) : (size_t{1} << 24);  // 64 MiB: beyond the L2
  const int steps = options.small ? 1024 : 16384;
  const std::vector<unsigned> next = single_cycle(n, fresh_seed());
  std::vector<unsigned> start(kLanes);
  for (unsigned lane = 0; lane < kLanes; ++lane) start[lane] = static_cast<unsigned>(lane * (n / kLanes));
  DeviceBuffer<unsigned> next_d(n), start_d(kLanes), out_d(kLanes);
  next_d.upload(next);
  start_d.upload(start);
  out_d.poison();
  auto launch = [&] { pointer_chase<<<1, kLanes>>>(out_d.get(), next_d.get(), start_d.get(), steps); };
  launch();
  ROOFCAST_CHECK_LAUNCH();
  const std::vector<unsigned> out = out_d.download();
  size_t wrong = 0;
  for (unsigned lane = 0; lane < kLanes; ++lane) {
    unsigned p = start[lane];
    for (int s = 0; s < steps; ++s) p = next[p];
    wrong += out[lane] != p;
  }
  const bool ok = report_check("pointer_chase", wrong == 0,
                               std::to_string(wrong) + " of 32 lanes end elsewhere than on the host after " +
                                   std::to_string(steps) + " steps");
  time_kernel("pointer_chase", options, launch);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "serial_latency", "one warp: a dependent FMA chain, a DRAM pointer chase");
  print_header("serial_latency", options.small ? "2^12 FMAs, 2^10 loads in 256 KiB" : "2^22 FMAs, 2^14 loads in 64 MiB");
  const bool fma_ok = check_fma_chain(options);
  const bool chase_ok = check_pointer_chase(options);
  return fma_ok && chase_ok ? 0 : 1;
}
