// Scattered stores: every lane stores 4-byte words into a 2 KiB region of its own, one word per
// step, so each store instruction of a warp writes 32 lines, one word in each (what a merge or a
// scatter whose threads each fill their own run of the output does). Successive steps fill each
// sector, as such a kernel's do. Stores need no answer, so a thread issues them back to back: the
// rate is what the SM and the memory system take of such requests, not a latency.
// `scattered_store_gops`: stores per second, over a buffer past L2 on a GPU of many SMs (the
// device's limit, where every SM stores). `scattered_store_sm_gops`: stores per second per busy
// SM with few SMs busy (one 1024-thread block on each of 16), the SM's own limit on the lines its
// stores send to L2, which a launch of few blocks meets first.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "characterizers.hpp"
#include "pattern.hpp"

namespace roofcast::gpu {

namespace {

constexpr int kThreads = 256;
constexpr int kThreadsPerSmBlock = 1024;
constexpr int kPerSmBlocks = 16;
constexpr uint32_t kWordsPerThread = 512;  // 2 KiB apart: a line of its own for every lane
constexpr uint32_t kSeed = 777u;

// Word w of thread t's region, at pass p: (t x kWordsPerThread + w) x kPatternStep + seed + p (each
// pass stores other values, so that no pass's stores are the same as the next's).
__host__ __device__ inline uint32_t stored_value(uint32_t index, int pass) {
  return index * kPatternStep + kSeed + static_cast<uint32_t>(pass);
}

// Each block's SM goes to block_sms[blockIdx.x].
template <int Threads>
__global__ void __launch_bounds__(Threads) scattered_store_kernel(uint32_t* words, int passes, unsigned* block_sms) {
  const uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t* region = words + size_t{thread} * kWordsPerThread;
  if (threadIdx.x == 0) block_sms[blockIdx.x] = sm_id();
#pragma unroll 1
  for (int pass = 0; pass < passes; ++pass) {
#pragma unroll 8
    for (uint32_t w = 0; w < kWordsPerThread; ++w) region[w] = stored_value(thread * kWordsPerThread + w, pass);
  }
}

// Every word of the buffer as the last pass stored it, or what differs.
std::string check_stored(const DeviceBuffer<uint32_t>& buffer, int passes) {
  const std::vector<uint32_t> stored = buffer.to_host();
  for (size_t i = 0; i < stored.size(); ++i) {
    const uint32_t expected = stored_value(static_cast<uint32_t>(i), passes - 1);
    if (stored[i] != expected) return fmt::format("word {} holds {:#x}, expected {:#x}", i, stored[i], expected);
  }
  return "";
}

// The stores of `blocks` blocks of Threads threads. Per busy SM: the blocks' SMs are recorded
// and counted, not assumed (blocks fewer than the SMs are spread over SMs of their own by the
// block scheduler), and the rate is divided by them.
template <int Threads>
Measurement measure_stores(const Context& context, int blocks, bool per_busy_sm, const char* key, const char* label) {
  const size_t words = size_t(blocks) * Threads * kWordsPerThread;
  if (words * sizeof(uint32_t) > context.free_bytes / 4) throw std::runtime_error(fmt::format("{}: no room for the buffer", key));
  DeviceBuffer<uint32_t> buffer(words);
  DeviceBuffer<unsigned> block_sms(blocks);
  auto launch = [&](long long passes) {
    scattered_store_kernel<Threads><<<blocks, Threads>>>(buffer.data(), static_cast<int>(passes), block_sms.data());
    ROOFCAST_GPU_CHECK_LAUNCH("scattered_store_kernel");
  };
  const int passes = static_cast<int>(calibrate_iterations(launch, 1, context.target_ms, 1 << 16));
  const std::vector<unsigned> sms = block_sms.to_host(blocks);
  const size_t busy_sms = std::set<unsigned>(sms.begin(), sms.end()).size();
  Workload w{key, label, "G/s", static_cast<double>(words) * passes / static_cast<double>(per_busy_sm ? busy_sms : 1)};
  w.launch = [&] { launch(passes); };
  w.verify = [&] { return check_stored(buffer, passes); };
  w.details = fmt::format("STG.E, {} blocks x {} threads on {} SMs, each lane 4-byte words of its own {}-byte region "
                          "(lanes {} bytes apart: 32 lines per store instruction), {} MiB ({}), {} passes{}",
                          blocks, Threads, busy_sms, kWordsPerThread * 4, kWordsPerThread * 4, words * 4 >> 20,
                          words * 4 > context.l2_bytes ? "past L2" : "within L2", passes,
                          per_busy_sm ? "; stores per second per busy SM" : "");
  return measure(w, context.policy);
}

}  // namespace

std::vector<Measurement> characterize_scattered_stores(const Context& context) {
  int blocks_per_sm = 0;
  ROOFCAST_GPU_CHECK(max_active_blocks(&blocks_per_sm, scattered_store_kernel<kThreads>, kThreads, 0));
  return {measure_stores<kThreads>(context, context.sm_count * blocks_per_sm, false, "scattered_store_gops",
                                   "Global stores, each lane on a line of its own"),
          measure_stores<kThreadsPerSmBlock>(context, std::min(kPerSmBlocks, context.sm_count), true,
                                             "scattered_store_sm_gops",
                                             "Global stores, a line each, per busy SM (few SMs busy)")};
}

}  // namespace roofcast::gpu
