// Issue 28, class (g): a two-element-per-thread pack/scatter (stream compaction). Each thread
// loads two adjacent values (one vector load) and keeps those above a threshold; the block
// ranks its kept values (a warp scan by shuffles, the warps' totals scanned between
// barriers), takes its place in the output with one atomic, and scatters each kept value
// with its index. Blocks land in the output in whatever order their atomics run, so the
// host checks the (value, index) pairs as a set. Four kernels of the same code: fp32 and
// fp64 values (2^26 floats, 2^25 doubles), blocks of 128 to 1024 threads, 10 to 75 % kept
// (workloads/latency_classes.json says which half each belongs to).
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

template <typename T>
struct PairOf;
template <>
struct PairOf<float> {
  using type = float2;
};
template <>
struct PairOf<double> {
  using type = double2;
};

template <typename T, unsigned kThreads>
__device__ void pack_pairs_body(T* __restrict__ kept_values, unsigned* __restrict__ kept_indices,
                                unsigned* __restrict__ kept_count, const T* __restrict__ values, T threshold,
                                unsigned pairs) {
  constexpr unsigned kWarps = kThreads / 32;
  __shared__ unsigned warp_offsets[kWarps];
  __shared__ unsigned block_offset;
  const unsigned pair = blockIdx.x * kThreads + threadIdx.x;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  typename PairOf<T>::type both{};
  if (pair < pairs) both = reinterpret_cast<const typename PairOf<T>::type*>(values)[pair];
  const bool keep_first = pair < pairs && both.x > threshold, keep_second = pair < pairs && both.y > threshold;
  const unsigned mine = keep_first + keep_second;
  unsigned scan = mine;  // inclusive, over the warp
  for (unsigned offset = 1; offset < 32; offset *= 2) {
    const unsigned below = __shfl_up_sync(0xFFFFFFFFu, scan, offset);
    if (lane >= offset) scan += below;
  }
  if (lane == 31) warp_offsets[warp] = scan;
  __syncthreads();
  if (warp == 0) {
    unsigned total = lane < kWarps ? warp_offsets[lane] : 0;
    for (unsigned offset = 1; offset < kWarps; offset *= 2) {
      const unsigned below = __shfl_up_sync(0xFFFFFFFFu, total, offset);
      if (lane >= offset) total += below;
    }
    if (lane < kWarps) warp_offsets[lane] = total;
    if (lane == kWarps - 1) block_offset = atomicAdd(kept_count, total);
  }
  __syncthreads();
  unsigned slot = block_offset + (warp > 0 ? warp_offsets[warp - 1] : 0) + scan - mine;
  if (keep_first) {
    kept_values[slot] = both.x;
    kept_indices[slot++] = 2 * pair;
  }
  if (keep_second) {
    kept_values[slot] = both.y;
    kept_indices[slot] = 2 * pair + 1;
  }
}

#define PACK_PAIRS_KERNEL(name, type, threads)                                                                    \
  __global__ void name(type* __restrict__ kept_values, unsigned* __restrict__ kept_indices,                        \
                       unsigned* __restrict__ kept_count, const type* __restrict__ values, type threshold,          \
                       unsigned pairs) {                                                                           \
    pack_pairs_body<type, threads>(kept_values, kept_indices, kept_count, values, threshold, pairs);               \
  }
PACK_PAIRS_KERNEL(pack_pairs_f32_t256, float, 256)
PACK_PAIRS_KERNEL(pack_pairs_f64_t512, double, 512)
PACK_PAIRS_KERNEL(pack_pairs_f32_t1024, float, 1024)
PACK_PAIRS_KERNEL(pack_pairs_f64_t128, double, 128)

namespace {

template <typename T>
using PackKernel = void (*)(T*, unsigned*, unsigned*, const T*, T, unsigned);

template <typename T>
bool run(const char* name, PackKernel<T> kernel, unsigned threads, double kept_share, const std::vector<T>& values,
         const DeviceBuffer<T>& values_d, const Options& options) {
  const unsigned n = static_cast<unsigned>(values.size()), pairs = n / 2;
  const T threshold = static_cast<T>(1 - kept_share);  // values are uniform in (0, 1)
  DeviceBuffer<T> kept_values_d(n);
  DeviceBuffer<unsigned> kept_indices_d(n), kept_count_d(1);
  auto launch = [&] {
    ROOFCAST_CUDA(cudaMemsetAsync(kept_count_d.get(), 0, sizeof(unsigned)));
    kernel<<<blocks_for(pairs, threads), threads>>>(kept_values_d.get(), kept_indices_d.get(), kept_count_d.get(),
                                                     values_d.get(), threshold, pairs);
  };
  kept_values_d.poison();
  kept_indices_d.poison();
  launch();
  ROOFCAST_CHECK_LAUNCH();
  const unsigned count = kept_count_d.download()[0];
  const std::vector<T> kept_values = kept_values_d.download();
  const std::vector<unsigned> kept_indices = kept_indices_d.download();
  // Exactly the values above the threshold, each once, each with its own index.
  size_t want_count = 0;
  for (const T v : values) want_count += v > threshold;
  std::vector<char> seen(n, 0);
  size_t wrong = 0;
  for (unsigned k = 0; k < count && k < n; ++k) {
    const unsigned i = kept_indices[k];
    const bool right = i < n && !seen[i] && values[i] > threshold && kept_values[k] == values[i];
    wrong += !right;
    if (i < n) seen[i] = 1;
  }
  const bool ok = report_check(name, count == want_count && wrong == 0,
                               std::to_string(count) + " kept (host: " + std::to_string(want_count) + " of " +
                                   std::to_string(n) + "), " + std::to_string(wrong) +
                                   " not a value above the threshold with its own index, or listed twice");
  time_kernel(name, options, launch);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "pack_pairs", "stream compaction, two elements per thread");
  const unsigned n32 = options.small ? (1u << 16) : (1u << 26), n64 = options.small ? (1u << 15) : (1u << 25);
  print_header("pack_pairs", std::to_string(n32) + " floats, " + std::to_string(n64) + " doubles, 10-75 % kept");
  bool ok = true;
  {
    std::vector<float> values(n32);
    fill_uniform(values, 1e-6f, 1.0f, fresh_seed());
    DeviceBuffer<float> values_d(n32);
    values_d.upload(values);
    ok = run<float>("pack_pairs_f32_t256", pack_pairs_f32_t256, 256, 0.5, values, values_d, options) && ok;
    ok = run<float>("pack_pairs_f32_t1024", pack_pairs_f32_t1024, 1024, 0.1, values, values_d, options) && ok;
  }
  {
    std::vector<double> values(n64);
    fill_uniform(values, 1e-9, 1.0, fresh_seed());
    DeviceBuffer<double> values_d(n64);
    values_d.upload(values);
    ok = run<double>("pack_pairs_f64_t512", pack_pairs_f64_t512, 512, 0.75, values, values_d, options) && ok;
    ok = run<double>("pack_pairs_f64_t128", pack_pairs_f64_t128, 128, 0.25, values, values_d, options) && ok;
  }
  return ok ? 0 : 1;
}
