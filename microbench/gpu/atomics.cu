// Atomic throughput: 32-bit integer atomicAdd whose result is unused (REDG on global memory,
// ATOMS on shared memory), three patterns: every thread its own global word (the words fit
// in L2, so the L2 atomic units do the work), every thread of the grid on the same 32 words,
// and shared memory with distinct words per lane. Counted per thread-level atomic; every
// counter is checked on the host against the number of launches that ran.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "characterizers.hpp"

namespace roofcast::gpu {

namespace {

constexpr int kThreads = 256;
constexpr int kGlobalSlots = 4;     // words per thread in the distinct-address pattern
constexpr int kHotWords = 32;       // words the whole grid hits in the same-address pattern
constexpr int kStepsPerTrip = 16;

// Thread t adds 1 to word (step % kGlobalSlots) * threads + t: a warp's atomics cover one
// 128-byte line, lines spread over the whole buffer.
__global__ void __launch_bounds__(kThreads) global_distinct_kernel(uint32_t* words, int trips) {
  const unsigned threads = gridDim.x * blockDim.x;
  const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
  for (int trip = 0; trip < trips; ++trip)
#pragma unroll
    for (int s = 0; s < kStepsPerTrip; ++s) atomicAdd(&words[(s % kGlobalSlots) * threads + thread], 1u);
}

__global__ void __launch_bounds__(kThreads) global_same_kernel(uint32_t* words, int trips) {
  uint32_t* word = &words[threadIdx.x % kHotWords];
  for (int trip = 0; trip < trips; ++trip)
#pragma unroll
    for (int s = 0; s < kStepsPerTrip; ++s) atomicAdd(word, 1u);
}

// Lane l of warp w adds to word w * 32 + l: distinct words within a warp, no bank conflicts.
// The block's counters are written out at the end.
__global__ void __launch_bounds__(kThreads) shared_kernel(uint32_t* out, int trips) {
  __shared__ uint32_t counters[kThreads];
  counters[threadIdx.x] = 0;
  __syncthreads();
  uint32_t* mine = &counters[threadIdx.x];
  for (int trip = 0; trip < trips; ++trip)
#pragma unroll
    for (int s = 0; s < kStepsPerTrip; ++s) atomicAdd(mine, 1u);
  __syncthreads();
  out[blockIdx.x * kThreads + threadIdx.x] = counters[threadIdx.x];
}

// Every word of `host` must equal `expected`.
std::string check_all(const std::vector<uint32_t>& host, uint64_t expected) {
  for (size_t i = 0; i < host.size(); ++i)
    if (host[i] != expected) return fmt::format("counter {}: got {}, expected {}", i, host[i], expected);
  return "";
}

int full_blocks(const Context& context, int blocks_per_sm) { return context.sm_count * std::max(1, blocks_per_sm); }

}  // namespace

std::vector<Measurement> characterize_atomics(const Context& context) {
  std::vector<Measurement> results;
  const int max_trips = 1 << 20;
  {
    int per_sm = 0;
    ROOFCAST_GPU_CHECK(max_active_blocks(&per_sm, global_distinct_kernel, kThreads, 0));
    const int blocks = full_blocks(context, per_sm);
    const size_t threads = static_cast<size_t>(blocks) * kThreads;
    DeviceBuffer<uint32_t> words(threads * kGlobalSlots);
    long long launches = 0;
    auto launch = [&](long long n) {
      global_distinct_kernel<<<blocks, kThreads>>>(words.data(), static_cast<int>(n));
      ROOFCAST_GPU_CHECK_LAUNCH("global_distinct_kernel");
    };
    const int trips = static_cast<int>(calibrate_iterations(launch, 4, context.target_ms, max_trips));
    ROOFCAST_GPU_CHECK(memset_bytes(words.data(), 0, words.bytes()));
    Workload w{"atomic_global_gops", "Global atomicAdd, distinct words", "G/s",
               static_cast<double>(threads) * trips * kStepsPerTrip};
    w.launch = [&] {
      ++launches;
      launch(trips);
    };
    w.verify = [&] {
      return check_all(words.to_host(), static_cast<uint64_t>(launches) * trips * kStepsPerTrip / kGlobalSlots);
    };
    w.details = fmt::format("REDG.E.ADD (atomicAdd, result unused), {} blocks x {} threads, each thread on {} words of "
                            "its own, {:.1f} MiB in all (L2 holds {:.0f} MiB): the L2 atomic units' throughput; {} x {} "
                            "per thread",
                            blocks, kThreads, kGlobalSlots, words.bytes() / 1048576.0, context.l2_bytes / 1048576.0,
                            trips, kStepsPerTrip);
    results.push_back(measure(w, context.policy));
  }
  {
    int per_sm = 0;
    ROOFCAST_GPU_CHECK(max_active_blocks(&per_sm, global_same_kernel, kThreads, 0));
    const int blocks = full_blocks(context, per_sm);
    const size_t threads = static_cast<size_t>(blocks) * kThreads;
    DeviceBuffer<uint32_t> words(kHotWords);
    long long launches = 0;
    auto launch = [&](long long n) {
      global_same_kernel<<<blocks, kThreads>>>(words.data(), static_cast<int>(n));
      ROOFCAST_GPU_CHECK_LAUNCH("global_same_kernel");
    };
    const int trips = static_cast<int>(calibrate_iterations(launch, 1, context.target_ms, max_trips));
    ROOFCAST_GPU_CHECK(memset_bytes(words.data(), 0, words.bytes()));
    Workload w{"atomic_global_same_address_gops", "Global atomicAdd, 32 words for the grid", "G/s",
               static_cast<double>(threads) * trips * kStepsPerTrip};
    w.launch = [&] {
      ++launches;
      launch(trips);
    };
    // 32-bit counters wrap: compare modulo 2^32.
    w.verify = [&] {
      const uint64_t per_word = static_cast<uint64_t>(launches) * trips * kStepsPerTrip * (threads / kHotWords);
      return check_all(words.to_host(), per_word & 0xFFFFFFFFu);
    };
    w.details = fmt::format("REDG.E.ADD, {} blocks x {} threads, lane l of every warp on word l of one 128-byte line; "
                            "{} x {} per thread",
                            blocks, kThreads, trips, kStepsPerTrip);
    results.push_back(measure(w, context.policy));
  }
  {
    int per_sm = 0;
    ROOFCAST_GPU_CHECK(max_active_blocks(&per_sm, shared_kernel, kThreads, 0));
    const int blocks = full_blocks(context, per_sm);
    const size_t threads = static_cast<size_t>(blocks) * kThreads;
    DeviceBuffer<uint32_t> out(threads);
    int trips = 1;
    auto launch = [&](long long n) {
      shared_kernel<<<blocks, kThreads>>>(out.data(), static_cast<int>(n));
      ROOFCAST_GPU_CHECK_LAUNCH("shared_kernel");
    };
    trips = static_cast<int>(calibrate_iterations(launch, 16, context.target_ms, max_trips));
    out.poison();
    Workload w{"atomic_shared_gops", "Shared atomicAdd, distinct words per lane", "G/s",
               static_cast<double>(threads) * trips * kStepsPerTrip};
    w.launch = [&] { launch(trips); };
    w.verify = [&] { return check_all(out.to_host(), static_cast<uint64_t>(trips) * kStepsPerTrip); };
    w.details = fmt::format("ATOMS.POPC.INC (shared atomicAdd of 1), {} blocks x {} threads, one word per thread; {} x {} per "
                            "thread",
                            blocks, kThreads, trips, kStepsPerTrip);
    results.push_back(measure(w, context.policy));
  }
  return results;
}

}  // namespace roofcast::gpu
