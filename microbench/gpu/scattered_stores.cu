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

// Each block's SM goes to block_sms[blockIdx.x] where block_sms is not null.
template <int Threads>
__global__ void __launch_bounds__(Threads) scattered_store_kernel(uint32_t* words, int passes, unsigned* block_sms) {
  const uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x;
  uint32_t* region = words + size_t{thread} * kWordsPerThread;
  if (block_sms && threadIdx.x == 0) block_sms[blockIdx.x] = sm_id();
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

Measurement measure_device_limit(const Context& context) {
  int blocks_per_sm = 0;
  ROOFCAST_GPU_CHECK(max_active_blocks(&blocks_per_sm, scattered_store_kernel<kThreads>, kThreads, 0));
  const int blocks = context.sm_count * blocks_per_sm;
  const size_t threads = size_t(blocks) * kThreads, words = threads * kWordsPerThread;
  if (words * sizeof(uint32_t) > context.free_bytes / 4)
    throw std::runtime_error("scattered_store_gops: no room for the buffer");
  DeviceBuffer<uint32_t> buffer(words);
  auto launch = [&](long long passes) {
    scattered_store_kernel<kThreads><<<blocks, kThreads>>>(buffer.data(), static_cast<int>(passes), nullptr);
    ROOFCAST_GPU_CHECK_LAUNCH("scattered_store_kernel");
  };
  const int passes = static_cast<int>(calibrate_iterations(launch, 1, context.target_ms, 1 << 16));
  Workload w{"scattered_store_gops", "Global stores, each lane on a line of its own", "G/s",
             static_cast<double>(words) * passes};
  w.launch = [&] { launch(passes); };
  w.verify = [&] { return check_stored(buffer, passes); };
  w.details = fmt::format("STG.E, {} blocks x {} threads ({}/SM), each lane 4-byte words of its own {}-byte region "
                          "(lanes {} bytes apart: 32 lines per store instruction), {} MiB ({}), {} passes",
                          blocks, kThreads, blocks_per_sm, kWordsPerThread * 4, kWordsPerThread * 4,
                          words * 4 >> 20, words * 4 > context.l2_bytes ? "past L2" : "within L2", passes);
  return measure(w, context.policy);
}

// Blocks fewer than the SMs are spread over SMs of their own by the block scheduler; the SMs
// they ran on are recorded and counted, not assumed.
Measurement measure_per_sm_limit(const Context& context) {
  const int blocks = std::min(kPerSmBlocks, context.sm_count);
  const size_t words = size_t(blocks) * kThreadsPerSmBlock * kWordsPerThread;
  DeviceBuffer<uint32_t> buffer(words);
  DeviceBuffer<unsigned> block_sms(blocks);
  auto launch = [&](long long passes) {
    scattered_store_kernel<kThreadsPerSmBlock>
        <<<blocks, kThreadsPerSmBlock>>>(buffer.data(), static_cast<int>(passes), block_sms.data());
    ROOFCAST_GPU_CHECK_LAUNCH("scattered_store_kernel");
  };
  const int passes = static_cast<int>(calibrate_iterations(launch, 1, context.target_ms, 1 << 16));
  const std::vector<unsigned> sms = block_sms.to_host(blocks);
  const size_t busy_sms = std::set<unsigned>(sms.begin(), sms.end()).size();
  Workload w{"scattered_store_sm_gops", "Global stores, a line each, per busy SM (few SMs busy)", "G/s",
             static_cast<double>(words) * passes / static_cast<double>(busy_sms)};
  w.launch = [&] { launch(passes); };
  w.verify = [&] { return check_stored(buffer, passes); };
  w.details = fmt::format("STG.E, {} blocks x {} threads on {} SMs, each lane 4-byte words of its own {}-byte region "
                          "(32 lines per store instruction), {} MiB, {} passes; stores per second per busy SM",
                          blocks, kThreadsPerSmBlock, busy_sms, kWordsPerThread * 4, words * 4 >> 20, passes);
  return measure(w, context.policy);
}

}  // namespace

std::vector<Measurement> characterize_scattered_stores(const Context& context) {
  return {measure_device_limit(context), measure_per_sm_limit(context)};
}

}  // namespace roofcast::gpu
