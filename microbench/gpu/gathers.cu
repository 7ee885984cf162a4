// Random gathers: every lane loads one 4-byte word from a 32-byte sector of its own, chosen by
// a hash, so each load of a warp touches 32 scattered sectors (what a gather through an index
// array does). Memory systems move such traffic more slowly than whole lines: DRAM opens a row
// for one sector, L2 serves one sector per request. Measured twice, over a buffer far past L2
// (`dram_gather_gbps`) and over one that L2 holds (`l2_gather_gbps`); both count 32 bytes per
// load, the sector that moves. The addresses do not depend on loaded data, so kLoads loads per
// thread are in flight at once: the rate is the memory system's, not one load's latency.
#include <fmt/format.h>

#include <algorithm>

#include "characterizers.hpp"
#include "pattern.hpp"

namespace roofcast::gpu {

namespace {

constexpr int kThreads = 256;
constexpr int kLoads = 8;
constexpr uint32_t kSeed = 4242u;
constexpr double kSectorBytes = 32;
constexpr uint32_t kWordsPerSector = 8;

// murmur3's finalizer: a bijection of 32-bit values that scatters consecutive inputs.
__host__ __device__ inline uint32_t scatter(uint32_t x) {
  x ^= x >> 16;
  x *= 0x85EBCA6Bu;
  x ^= x >> 13;
  x *= 0xC2B2AE35u;
  x ^= x >> 16;
  return x;
}

// The sector that load u of step `step` of thread `thread` reads (sectors: a power of two).
__host__ __device__ inline uint32_t gather_sector(uint32_t thread, uint32_t threads, int step, int u,
                                                  uint32_t sector_mask) {
  return scatter((static_cast<uint32_t>(step) * kLoads + u) * threads + thread) & sector_mask;
}

__global__ void __launch_bounds__(kThreads) gather_kernel(const uint32_t* words, uint32_t sector_mask, int steps,
                                                          uint32_t* block_sums) {
  const uint32_t threads = gridDim.x * blockDim.x, thread = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t sum = 0;
#pragma unroll 1
  for (int step = 0; step < steps; ++step) {
    uint32_t v[kLoads];
#pragma unroll
    for (int u = 0; u < kLoads; ++u)
      v[u] = load_bypass_l1(words + size_t{gather_sector(thread, threads, step, u, sector_mask)} * kWordsPerSector);
#pragma unroll
    for (int u = 0; u < kLoads; ++u) sum += v[u];
  }
  sum = block_sum(sum);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
}

// The sum the kernel must find: word w of the pattern is w x kPatternStep + seed.
uint32_t expected_sum(uint32_t threads, int steps, uint32_t sector_mask) {
  uint32_t words = 0;
  for (int step = 0; step < steps; ++step)
    for (int u = 0; u < kLoads; ++u)
      for (uint32_t thread = 0; thread < threads; ++thread)
        words += gather_sector(thread, threads, step, u, sector_mask) * kWordsPerSector;
  return words * kPatternStep + static_cast<uint32_t>(size_t{threads} * steps * kLoads) * kSeed;
}

// The largest power of two not above `bytes`.
size_t power_of_two_floor(size_t bytes) {
  size_t p = 1;
  while (p * 2 <= bytes) p *= 2;
  return p;
}

Measurement measure_gather(const Context& context, const std::string& key, const std::string& label,
                           size_t buffer_bytes, const std::string& where) {
  const size_t sectors = buffer_bytes / static_cast<size_t>(kSectorBytes);
  if (sectors < 1024 || sectors > (size_t{1} << 32)) throw std::runtime_error(fmt::format("{}: no room for the buffer", key));
  const uint32_t sector_mask = static_cast<uint32_t>(sectors - 1);
  int blocks_per_sm = 0;
  ROOFCAST_GPU_CHECK(max_active_blocks(&blocks_per_sm, gather_kernel, kThreads, 0));
  const int blocks = context.sm_count * blocks_per_sm;
  const uint32_t threads = static_cast<uint32_t>(blocks) * kThreads;
  DeviceBuffer<uint4> data(buffer_bytes / 16);
  fill_pattern(data, kSeed);
  DeviceBuffer<uint32_t> block_sums(blocks);
  const auto* words = reinterpret_cast<const uint32_t*>(data.data());
  auto launch = [&](long long steps) {
    gather_kernel<<<blocks, kThreads>>>(words, sector_mask, static_cast<int>(steps), block_sums.data());
    ROOFCAST_GPU_CHECK_LAUNCH("gather_kernel");
  };
  const int steps = static_cast<int>(calibrate_iterations(launch, 2, context.target_ms, 1 << 20));
  Workload w{key, label, "GB/s", static_cast<double>(threads) * steps * kLoads * kSectorBytes};
  w.launch = [&] { launch(steps); };
  const uint32_t expected = expected_sum(threads, steps, sector_mask);
  w.verify = [&, expected]() -> std::string {
    uint32_t sum = 0;
    for (const uint32_t s : block_sums.to_host(blocks)) sum += s;
    return sum == expected ? "" : fmt::format("sum {:#x}, expected {:#x}", sum, expected);
  };
  w.details = fmt::format("{} MiB ({}), {} blocks x {} threads ({}/SM), each lane a 4-byte word of a random 32-byte "
                          "sector, {} loads in flight per thread, {} steps; 32 bytes counted per load",
                          buffer_bytes >> 20, where, blocks, kThreads, blocks_per_sm, kLoads, steps);
  return measure(w, context.policy);
}

}  // namespace

std::vector<Measurement> characterize_gathers(const Context& context) {
  // DRAM: 4 GiB (--quick: 1 GiB), at most a quarter of the free memory; L2 keeps under 2 % of it.
  const size_t dram_bytes =
      power_of_two_floor(std::min<size_t>(context.quick ? (size_t{1} << 30) : (size_t{4} << 30), context.free_bytes / 4));
  // L2: the largest power of two within a quarter of it, resident even where L2 is split in two.
  const size_t l2_bytes = power_of_two_floor(std::max<size_t>(context.l2_bytes / 4, 32768));
  return {measure_gather(context, "dram_gather_gbps", "DRAM random sector gathers", dram_bytes, "past L2"),
          measure_gather(context, "l2_gather_gbps", "L2 random sector gathers", l2_bytes, "held by L2")};
}

}  // namespace roofcast::gpu
