// Atomic throughput: 32-bit atomicAdd whose result is unused (REDG on global memory, ATOMS on
// shared memory), six patterns: every thread its own global word (the words fit in L2, so the
// L2 atomic units do the work), every thread of the grid on the same 32 words, shared memory
// with distinct words per lane; and for the pipes model's atomics cost (docs/pipes-model.md):
// every lane on a word of its own line at scattered places (one L2 sector per atomic, spread
// over the slices), and lane 0 of every warp on one word, integer and float (one word's
// read-modify-writes in a row). Counted per thread-level atomic; every counter is checked on
// the host against the number of launches that ran.
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

// Step s maps thread t < 2^bits to a word of 2^bits by a bijection (xor with the step, odd
// multiplies, an xorshift), so every word gets one add per step and the lanes of a warp land
// on scattered lines: one sector per atomic, spread over the L2 slices.
__device__ __forceinline__ unsigned scattered_word(unsigned t, unsigned step, unsigned bits) {
  const unsigned mask = (1u << bits) - 1;
  unsigned x = (t ^ (step * 0x9E3779B9u)) & mask;
  x = (x * 0x2545F491u) & mask;
  x ^= x >> (bits / 2);
  return (x * 0x85EBCA6Bu) & mask;
}

__global__ void __launch_bounds__(kThreads) global_scattered_kernel(uint32_t* words, unsigned bits, int trips) {
  const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
  if (thread >= (1u << bits)) return;
  for (int trip = 0; trip < trips; ++trip)
#pragma unroll
    for (int s = 0; s < kStepsPerTrip; ++s) atomicAdd(&words[scattered_word(thread, trip * kStepsPerTrip + s, bits)], 1u);
}

// Lane 0 of every warp on one word: single-lane requests, each a read-modify-write of the same
// word. The float version alternates +1 and -1, so the word stays small and exact (it must be 0
// after every launch).
__global__ void __launch_bounds__(kThreads) global_same_word_kernel(uint32_t* word, int trips) {
  if (threadIdx.x % 32 != 0) return;
  for (int trip = 0; trip < trips; ++trip)
#pragma unroll
    for (int s = 0; s < kStepsPerTrip; ++s) atomicAdd(word, 1u);
}

// The same with the old value used (ATOMG, as an append counter's `slot = atomicAdd(&count, n)`):
// each request's result travels back to its SM. The old values a launch returns are the word's
// values before it, each once: their sum is known (checked).
__global__ void __launch_bounds__(kThreads) global_same_word_returning_kernel(uint32_t* word, int trips,
                                                                              uint32_t* warp_sums) {
  if (threadIdx.x % 32 != 0) return;
  uint32_t sum = 0;
  for (int trip = 0; trip < trips; ++trip)
#pragma unroll
    for (int s = 0; s < kStepsPerTrip; ++s) sum += atomicAdd(word, 1u);
  warp_sums[(blockIdx.x * blockDim.x + threadIdx.x) / 32] = sum;
}

__global__ void __launch_bounds__(kThreads) global_same_word_f32_kernel(float* word, int trips) {
  if (threadIdx.x % 32 != 0) return;
  for (int trip = 0; trip < trips; ++trip)
#pragma unroll
    for (int s = 0; s < kStepsPerTrip; ++s) atomicAdd(word, s % 2 == 0 ? 1.0f : -1.0f);
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
    // The largest power of two of threads that one full wave holds; the rest of the wave idles.
    int per_sm = 0;
    ROOFCAST_GPU_CHECK(max_active_blocks(&per_sm, global_scattered_kernel, kThreads, 0));
    const int blocks = full_blocks(context, per_sm);
    unsigned bits = 0;
    while ((size_t{2} << bits) <= static_cast<size_t>(blocks) * kThreads) ++bits;
    const size_t active = size_t{1} << bits;
    DeviceBuffer<uint32_t> words(active);
    long long launches = 0;
    auto launch = [&](long long n) {
      global_scattered_kernel<<<blocks, kThreads>>>(words.data(), bits, static_cast<int>(n));
      ROOFCAST_GPU_CHECK_LAUNCH("global_scattered_kernel");
    };
    const int trips = static_cast<int>(calibrate_iterations(launch, 4, context.target_ms, max_trips));
    ROOFCAST_GPU_CHECK(memset_bytes(words.data(), 0, words.bytes()));
    Workload w{"atomic_global_scattered_gops", "Global atomicAdd, a line of its own per lane", "G/s",
               static_cast<double>(active) * trips * kStepsPerTrip};
    w.launch = [&] {
      ++launches;
      launch(trips);
    };
    w.verify = [&] { return check_all(words.to_host(), static_cast<uint64_t>(launches) * trips * kStepsPerTrip); };
    w.details = fmt::format("REDG.E.ADD, {} of {} blocks x {} threads active, each step a bijection of the threads onto "
                            "{} words ({:.1f} MiB, in L2): the lanes of a warp on scattered lines, one L2 sector per "
                            "atomic; {} x {} per thread",
                            active / kThreads, blocks, kThreads, active, words.bytes() / 1048576.0, trips,
                            kStepsPerTrip);
    results.push_back(measure(w, context.policy));
  }
  {
    int per_sm = 0;
    ROOFCAST_GPU_CHECK(max_active_blocks(&per_sm, global_same_word_kernel, kThreads, 0));
    const int blocks = full_blocks(context, per_sm);
    const size_t warps = static_cast<size_t>(blocks) * kThreads / 32;
    DeviceBuffer<uint32_t> word(1);
    long long launches = 0;
    auto launch = [&](long long n) {
      global_same_word_kernel<<<blocks, kThreads>>>(word.data(), static_cast<int>(n));
      ROOFCAST_GPU_CHECK_LAUNCH("global_same_word_kernel");
    };
    const int trips = static_cast<int>(calibrate_iterations(launch, 1, context.target_ms, max_trips));
    ROOFCAST_GPU_CHECK(memset_bytes(word.data(), 0, word.bytes()));
    Workload w{"atomic_global_same_word_gops", "Global atomicAdd, lane 0 of every warp on one word", "G/s",
               static_cast<double>(warps) * trips * kStepsPerTrip};
    w.launch = [&] {
      ++launches;
      launch(trips);
    };
    // 32-bit counters wrap: compare modulo 2^32.
    w.verify = [&] {
      return check_all(word.to_host(), (static_cast<uint64_t>(launches) * trips * kStepsPerTrip * warps) & 0xFFFFFFFFu);
    };
    w.details = fmt::format("REDG.E.ADD, {} blocks x {} threads, lane 0 of each warp on one word: single-lane "
                            "read-modify-writes of the same word in a row; {} x {} per warp",
                            blocks, kThreads, trips, kStepsPerTrip);
    results.push_back(measure(w, context.policy));
  }
  {
    int per_sm = 0;
    ROOFCAST_GPU_CHECK(max_active_blocks(&per_sm, global_same_word_returning_kernel, kThreads, 0));
    const int blocks = full_blocks(context, per_sm);
    const size_t warps = static_cast<size_t>(blocks) * kThreads / 32;
    DeviceBuffer<uint32_t> word(1), warp_sums(warps);
    auto launch = [&](long long n) {
      global_same_word_returning_kernel<<<blocks, kThreads>>>(word.data(), static_cast<int>(n), warp_sums.data());
      ROOFCAST_GPU_CHECK_LAUNCH("global_same_word_returning_kernel");
    };
    const int trips = static_cast<int>(calibrate_iterations(launch, 1, context.target_ms, max_trips));
    ROOFCAST_GPU_CHECK(memset_bytes(word.data(), 0, word.bytes()));
    const uint64_t per_launch = static_cast<uint64_t>(warps) * trips * kStepsPerTrip;
    Workload w{"atomic_global_same_word_returning_gops",
               "Global atomicAdd returning the old value, lane 0 of every warp on one word", "G/s",
               static_cast<double>(per_launch)};
    long long launches = 0;
    w.launch = [&] {
      ++launches;
      launch(trips);
    };
    // The last launch started from start = (launches - 1) x per_launch and returned start,
    // start + 1, ..., start + per_launch - 1, each once (all mod 2^32).
    w.verify = [&]() -> std::string {
      uint32_t sum = 0;
      for (const uint32_t s : warp_sums.to_host()) sum += s;
      const uint64_t start = static_cast<uint64_t>(launches - 1) * per_launch;
      const uint64_t pairs = per_launch % 2 == 0 ? (per_launch / 2) * (per_launch - 1) : per_launch * ((per_launch - 1) / 2);
      const auto expected = static_cast<uint32_t>(per_launch * start + pairs);
      if (sum != expected) return fmt::format("returned values sum to {:#x}, expected {:#x}", sum, expected);
      return check_all(word.to_host(), (static_cast<uint64_t>(launches) * per_launch) & 0xFFFFFFFFu);
    };
    w.details = fmt::format("ATOMG.E.ADD (the old value summed), {} blocks x {} threads, lane 0 of each warp on one "
                            "word: single-lane read-modify-writes of the same word in a row, each returning; {} x {} "
                            "per warp",
                            blocks, kThreads, trips, kStepsPerTrip);
    results.push_back(measure(w, context.policy));
  }
  {
    int per_sm = 0;
    ROOFCAST_GPU_CHECK(max_active_blocks(&per_sm, global_same_word_f32_kernel, kThreads, 0));
    const int blocks = full_blocks(context, per_sm);
    const size_t warps = static_cast<size_t>(blocks) * kThreads / 32;
    DeviceBuffer<float> word(1);
    auto launch = [&](long long n) {
      global_same_word_f32_kernel<<<blocks, kThreads>>>(word.data(), static_cast<int>(n));
      ROOFCAST_GPU_CHECK_LAUNCH("global_same_word_f32_kernel");
    };
    const int trips = static_cast<int>(calibrate_iterations(launch, 1, context.target_ms, max_trips));
    ROOFCAST_GPU_CHECK(memset_bytes(word.data(), 0, word.bytes()));
    Workload w{"atomic_global_same_word_f32_gops", "Global float atomicAdd, lane 0 of every warp on one word", "G/s",
               static_cast<double>(warps) * trips * kStepsPerTrip};
    w.launch = [&] { launch(trips); };
    // +1 and -1 in turn: every partial sum is a small integer, exact in float, and the total 0.
    w.verify = [&] {
      const float got = word.to_host()[0];
      return got == 0.0f ? std::string() : fmt::format("word: got {}, expected 0", got);
    };
    w.details = fmt::format("RED.E.ADD.F32, {} blocks x {} threads, lane 0 of each warp on one word (+1 and -1 in "
                            "turn); {} x {} per warp",
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
