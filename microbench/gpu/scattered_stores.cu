// Scattered stores: every lane stores 4-byte words into a 2 KiB region of its own, one word per
// step, so each store instruction of a warp writes 32 lines, one word in each (what a merge or a
// scatter whose threads each fill their own run of the output does). Successive steps fill each
// sector, as such a kernel's do. Stores need no answer, so a thread issues them back to back: the
// rate is what the SM and the memory system take of such requests, not a latency.
// `scattered_store_gops`: stores per second, over a buffer past L2 on a GPU of many SMs.
#include <fmt/format.h>

#include <algorithm>

#include "characterizers.hpp"
#include "pattern.hpp"

namespace roofcast::gpu {

namespace {

constexpr int kThreads = 256;
constexpr uint32_t kWordsPerThread = 512;  // 2 KiB apart: a line of its own for every lane
constexpr uint32_t kSeed = 777u;

// Word w of thread t's region, at pass p: (t x kWordsPerThread + w) x kPatternStep + seed + p (each
// pass stores other values, so that no pass's stores are the same as the next's).
__host__ __device__ inline uint32_t stored_value(uint32_t index, int pass) {
  return index * kPatternStep + kSeed + static_cast<uint32_t>(pass);
}

__global__ void __launch_bounds__(kThreads) scattered_store_kernel(uint32_t* words, int passes) {
  const uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t* region = words + size_t{thread} * kWordsPerThread;
#pragma unroll 1
  for (int pass = 0; pass < passes; ++pass) {
#pragma unroll 8
    for (uint32_t w = 0; w < kWordsPerThread; ++w) region[w] = stored_value(thread * kWordsPerThread + w, pass);
  }
}

}  // namespace

std::vector<Measurement> characterize_scattered_stores(const Context& context) {
  int blocks_per_sm = 0;
  ROOFCAST_GPU_CHECK(max_active_blocks(&blocks_per_sm, scattered_store_kernel, kThreads, 0));
  const int blocks = context.sm_count * blocks_per_sm;
  const size_t threads = size_t(blocks) * kThreads, words = threads * kWordsPerThread;
  if (words * sizeof(uint32_t) > context.free_bytes / 4)
    throw std::runtime_error("scattered_store_gops: no room for the buffer");
  DeviceBuffer<uint32_t> buffer(words);
  auto launch = [&](long long passes) {
    scattered_store_kernel<<<blocks, kThreads>>>(buffer.data(), static_cast<int>(passes));
    ROOFCAST_GPU_CHECK_LAUNCH("scattered_store_kernel");
  };
  const int passes = static_cast<int>(calibrate_iterations(launch, 1, context.target_ms, 1 << 16));
  Workload w{"scattered_store_gops", "Global stores, each lane on a line of its own", "G/s",
             static_cast<double>(words) * passes};
  w.launch = [&] { launch(passes); };
  w.verify = [&]() -> std::string {
    const std::vector<uint32_t> stored = buffer.to_host();
    for (size_t i = 0; i < stored.size(); ++i) {
      const uint32_t expected = stored_value(static_cast<uint32_t>(i), passes - 1);
      if (stored[i] != expected) return fmt::format("word {} holds {:#x}, expected {:#x}", i, stored[i], expected);
    }
    return "";
  };
  w.details = fmt::format("STG.E, {} blocks x {} threads ({}/SM), each lane 4-byte words of its own {}-byte region "
                          "(lanes {} bytes apart: 32 lines per store instruction), {} MiB ({}), {} passes",
                          blocks, kThreads, blocks_per_sm, kWordsPerThread * 4, kWordsPerThread * 4,
                          words * 4 >> 20, words * 4 > context.l2_bytes ? "past L2" : "within L2", passes);
  return {measure(w, context.policy)};
}

}  // namespace roofcast::gpu
