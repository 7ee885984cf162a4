// L1 and L2 read bandwidth: every block streams through a working set that fits the cache,
// 16-byte loads, kLoads independent loads per trip. Addresses move by `trip * zero`, with
// `zero` a kernel argument that is 0 at run time: the compiler cannot prove the loads
// invariant, so it cannot load the (never changing) data once and reuse it.
#include <fmt/format.h>

#include <algorithm>

#include "characterizers.hpp"
#include "pattern.hpp"

namespace roofcast::gpu {

namespace {

constexpr int kThreads = 256;
constexpr int kLoads = 8;
constexpr uint32_t kSeed = 777u;
// The L1 working set: each block reads all of it once per trip.
constexpr size_t kL1Vectors = static_cast<size_t>(kThreads) * kLoads;  // 32 KiB

__global__ void __launch_bounds__(kThreads) l1_read_kernel(const uint4* data, int trips, unsigned zero,
                                                           uint32_t* block_sums, BlockClock* clocks) {
  record_block_start(clocks);
  uint32_t sum = 0;
  for (int trip = 0; trip < trips; ++trip) {
    const uint4* base = data + threadIdx.x + trip * zero;
    uint4 v[kLoads];
#pragma unroll
    for (int u = 0; u < kLoads; ++u) v[u] = load_cached_l1(base + u * kThreads);
#pragma unroll
    for (int u = 0; u < kLoads; ++u) sum += word_sum(v[u]);
  }
  sum = block_sum(sum);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
  record_block_end(clocks);
}

// Each pass reads the whole working set once, grid-stride, bypassing L1.
__global__ void __launch_bounds__(kThreads) l2_read_kernel(const uint4* data, size_t vectors, int passes,
                                                           unsigned zero, uint32_t* block_sums) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  uint32_t sum = 0;
  for (int pass = 0; pass < passes; ++pass) {
    size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x + pass * zero;
    for (; i + (kLoads - 1) * stride < vectors; i += kLoads * stride) {
      uint4 v[kLoads];
#pragma unroll
      for (int u = 0; u < kLoads; ++u) v[u] = load_bypass_l1(data + i + u * stride);
#pragma unroll
      for (int u = 0; u < kLoads; ++u) sum += word_sum(v[u]);
    }
    for (; i < vectors; i += stride) sum += word_sum(load_bypass_l1(data + i));
  }
  sum = block_sum(sum);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
}

std::string check_sum(const DeviceBuffer<uint32_t>& block_sums, int blocks, uint32_t expected) {
  uint32_t sum = 0;
  for (const uint32_t s : block_sums.to_host(blocks)) sum += s;
  return sum == expected ? "" : fmt::format("sum {:#x}, expected {:#x}", sum, expected);
}

Measurement measure_l1(const Context& context) {
  int blocks_per_sm = 0;
  ROOFCAST_GPU_CHECK(max_active_blocks(&blocks_per_sm, l1_read_kernel, kThreads, 0));
  const int blocks = context.sm_count * blocks_per_sm;
  DeviceBuffer<uint4> data(kL1Vectors);
  fill_pattern(data, kSeed);
  DeviceBuffer<uint32_t> block_sums(blocks);
  DeviceBuffer<BlockClock> clocks(blocks);
  auto launch = [&](long long n) {
    l1_read_kernel<<<blocks, kThreads>>>(data.data(), static_cast<int>(n), 0u, block_sums.data(), clocks.data());
    ROOFCAST_GPU_CHECK_LAUNCH("l1_read_kernel");
  };
  const int trips = static_cast<int>(calibrate_iterations(launch, 64, context.target_ms, 1 << 26));
  Workload w{"l1_gbps", "L1 read", "GB/s", static_cast<double>(blocks) * trips * kL1Vectors * 16};
  w.launch = [&] { launch(trips); };
  const uint32_t per_block = static_cast<uint32_t>(trips) * pattern_sum(kL1Vectors * 4, kSeed);
  w.verify = [&, per_block] { return check_sum(block_sums, blocks, per_block * static_cast<uint32_t>(blocks)); };
  w.clocks = &clocks;
  w.details = fmt::format("{} KiB read by every block, {} blocks x {} threads ({}/SM), {} trips", kL1Vectors * 16 / 1024,
                          blocks, kThreads, blocks_per_sm, trips);
  return measure(w, context.policy);
}

Measurement measure_l2(const Context& context) {
  // A quarter of L2: resident even where L2 is split into partitions.
  const size_t vectors = std::max<size_t>(context.l2_bytes / 4 / 16, kThreads * kLoads) / kThreads * kThreads;
  int blocks_per_sm = 0;
  ROOFCAST_GPU_CHECK(max_active_blocks(&blocks_per_sm, l2_read_kernel, kThreads, 0));
  const int blocks = context.sm_count * blocks_per_sm;
  DeviceBuffer<uint4> data(vectors);
  fill_pattern(data, kSeed);
  DeviceBuffer<uint32_t> block_sums(blocks);
  auto launch = [&](long long n) {
    l2_read_kernel<<<blocks, kThreads>>>(data.data(), vectors, static_cast<int>(n), 0u, block_sums.data());
    ROOFCAST_GPU_CHECK_LAUNCH("l2_read_kernel");
  };
  const int passes = static_cast<int>(calibrate_iterations(launch, 4, context.target_ms, 1 << 20));
  Workload w{"l2_gbps", "L2 read", "GB/s", static_cast<double>(passes) * vectors * 16};
  w.launch = [&] { launch(passes); };
  const uint32_t expected = static_cast<uint32_t>(passes) * pattern_sum(vectors * 4, kSeed);
  w.verify = [&, expected] { return check_sum(block_sums, blocks, expected); };
  w.details = fmt::format("{:.1f} MiB working set, {} blocks x {} threads, {} passes", vectors * 16 / 1048576.0, blocks,
                          kThreads, passes);
  return measure(w, context.policy);
}

}  // namespace

std::vector<Measurement> characterize_caches(const Context& context) {
  return {measure_l1(context), measure_l2(context)};
}

}  // namespace roofcast::gpu
