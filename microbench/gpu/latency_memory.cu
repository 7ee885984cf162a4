// Unloaded memory latencies, one thread, each load's address the previous load's value
// (pointer chase over a random cycle, so no prefetcher or coalescing helps):
// - shared memory: 4096 32-bit slots in shared memory holding the next slot's address (LDS);
// - global memory, 64-bit pointers one per 256 bytes (every step a new 128-byte line): an L1
//   working set of 32 KiB (ld.global.ca), an L2 working set of a quarter of L2 loaded with
//   ld.global.cg (L1 bypassed; walked once before timing), and a DRAM working set of 4x L2
//   (2x with --quick) flushed from L2 before timing; the chase carries on from launch to launch,
//   so no line is visited twice. The DRAM chase also runs with a whole warp: each of the 32
//   lanes chases its own place of the same cycle, so every load instruction touches 32 lines
//   and waits for the slowest of them (an uncoalesced gather's latency).
// And dependent atomics, one thread: x = atomicAdd(&word, x), the returned value being the next
// operand (global: ATOMG, shared: ATOMS), over 16 words in turn. Each word and x follow a
// Fibonacci-like recurrence mod 2^32, replayed on the host.
// Every check compares the final position (or word) with a host walk of the same steps.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "latency.hpp"

namespace roofcast::gpu {

namespace {

using Pointer = unsigned long long;

constexpr int kSharedSlots = 4096;
constexpr size_t kSlotBytes = 256;  // global chase: two 128-byte lines per slot
constexpr size_t kL1Bytes = 32 << 10;
constexpr int kAtomicWords = 16;           // kStepsPerTrip is a multiple: step s uses word s % 16
constexpr int kGlobalWordStride = 1040;    // 4160 bytes: a line of its own, spread over L2 slices
constexpr int kSharedWordStride = 1;
static_assert(kStepsPerTrip % kAtomicWords == 0, "every trip must start at word 0");

// A random cycle through all n slots (Sattolo's algorithm): next[i] is the slot after i.
std::vector<uint32_t> random_cycle(size_t n, uint32_t seed) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::mt19937 random(seed);
  for (size_t i = n - 1; i > 0; --i) std::swap(order[i], order[std::uniform_int_distribution<size_t>(0, i - 1)(random)]);
  std::vector<uint32_t> next(n);
  for (size_t i = 0; i < n; ++i) next[order[i]] = order[(i + 1) % n];
  return next;
}

uint32_t walk(const std::vector<uint32_t>& next, uint32_t start, long long steps) {
  // The cycle has next.size() slots: only the remainder matters.
  for (long long s = 0; s < steps % static_cast<long long>(next.size()); ++s) start = next[start];
  return start;
}

__device__ __forceinline__ uint32_t shared_address(const void* p) {
#if ROOFCAST_BACKEND_CUDA
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
#else
  return static_cast<uint32_t>(reinterpret_cast<uintptr_t>(p));
#endif
}

// CUDA: the slots hold shared-memory addresses, so each LDS's address is the previous LDS's
// value with no instruction between (C++ indexing would add an LEA per step).
// HIP: the slots hold indices.
__global__ void __launch_bounds__(32) shared_chase_kernel(const uint32_t* next, uint32_t* position, int trips,
                                                          BlockClock* clock) {
  __shared__ uint32_t slots[kSharedSlots];
  const uint32_t base = shared_address(slots);
#if ROOFCAST_BACKEND_CUDA
  for (int i = threadIdx.x; i < kSharedSlots; i += blockDim.x) slots[i] = base + 4 * next[i];
#else
  for (int i = threadIdx.x; i < kSharedSlots; i += blockDim.x) slots[i] = next[i];
#endif
  __syncthreads();
  record_block_start(clock);
  if (threadIdx.x == 0) {
#if ROOFCAST_BACKEND_CUDA
    uint32_t address = base + 4 * *position;
    for (int trip = 0; trip < trips; ++trip)
#pragma unroll
      for (int s = 0; s < kStepsPerTrip; ++s) asm volatile("ld.shared.u32 %0, [%0];" : "+r"(address));
    *position = (address - base) / 4;
#else
    uint32_t i = *position;
    for (int trip = 0; trip < trips; ++trip)
#pragma unroll
      for (int s = 0; s < kStepsPerTrip; ++s) i = slots[i];
    *position = i;
#endif
  }
  record_block_end(clock);
}

// One chase per thread: thread t starts at position[t] and leaves its last slot there.
template <bool kBypassL1>
__global__ void global_chase_kernel(Pointer* position, int trips, BlockClock* clock) {
  record_block_start(clock);
  auto p = reinterpret_cast<const Pointer*>(position[threadIdx.x]);
  for (int trip = 0; trip < trips; ++trip)
#pragma unroll
    for (int s = 0; s < kStepsPerTrip; ++s)
      p = reinterpret_cast<const Pointer*>(kBypassL1 ? load_bypass_l1(p) : load_cached_l1(p));
  position[threadIdx.x] = reinterpret_cast<Pointer>(p);
  record_block_end(clock);
}

// Slot i (at base + i * kSlotBytes) holds the address of slot next[i].
__global__ void link_slots_kernel(Pointer* base, const uint32_t* next, size_t slots) {
  constexpr size_t kWords = kSlotBytes / sizeof(Pointer);
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < slots;
       i += static_cast<size_t>(gridDim.x) * blockDim.x)
    base[i * kWords] = reinterpret_cast<Pointer>(base + next[i] * kWords);
}

// An atomic add whose old value is returned. ptxas turns an atomic add with a used result on a
// warp-uniform address into a warp-aggregated sequence (VOTE, SHFL prefix sums around the
// ATOM) that would be timed with it; the chain kernels therefore offset the words by
// threadIdx.x (0 in their one-thread launch), which makes the address non-uniform to ptxas.
__device__ __forceinline__ uint32_t atomic_add_global(uint32_t* word, uint32_t value) {
#if ROOFCAST_BACKEND_CUDA
  uint32_t old;
  asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(word), "r"(value) : "memory");
  return old;
#else
  return atomicAdd(word, value);
#endif
}
__device__ __forceinline__ uint32_t atomic_add_shared(uint32_t* word, uint32_t value) {
#if ROOFCAST_BACKEND_CUDA
  uint32_t old;
  asm volatile("atom.shared.add.u32 %0, [%1], %2;" : "=r"(old) : "r"(shared_address(word)), "r"(value) : "memory");
  return old;
#else
  return atomicAdd(word, value);
#endif
}

// Step s: x = atomicAdd(&words[(s % kAtomicWords) * kStride], x), trips x kStepsPerTrip steps.
// The words lie on different lines (global: in different L2 slices), so the latency is an
// average over them.
template <bool kShared, int kStride>
__device__ __forceinline__ uint32_t atomic_chain(uint32_t* words, uint32_t x, int trips) {
  for (int trip = 0; trip < trips; ++trip)
#pragma unroll
    for (int s = 0; s < kStepsPerTrip; ++s) {
      uint32_t* word = &words[(s % kAtomicWords) * kStride];
      x = kShared ? atomic_add_shared(word, x) : atomic_add_global(word, x);
    }
  return x;
}

__global__ void __launch_bounds__(1) global_atomic_chain_kernel(uint32_t* words, uint32_t* operand, int trips,
                                                                   BlockClock* clock) {
  record_block_start(clock);
  *operand = atomic_chain<false, kGlobalWordStride>(words + threadIdx.x, *operand, trips);
  record_block_end(clock);
}

// The same on shared memory: `words` (kAtomicWords, global) are loaded and written back.
__global__ void __launch_bounds__(1) shared_atomic_chain_kernel(uint32_t* words, uint32_t* operand, int trips,
                                                                   BlockClock* clock) {
  __shared__ uint32_t shared_words[kAtomicWords * kSharedWordStride];
  for (int w = 0; w < kAtomicWords; ++w) shared_words[w * kSharedWordStride] = words[w];
  __syncthreads();
  record_block_start(clock);
  *operand = atomic_chain<true, kSharedWordStride>(shared_words + threadIdx.x, *operand, trips);
  for (int w = 0; w < kAtomicWords; ++w) words[w] = shared_words[w * kSharedWordStride];
  record_block_end(clock);
}

// The global-memory chase over `bytes` of slots.
struct GlobalChase {
  const char* key;
  const char* label;
  const char* loads;  // how the loads are cached, for details
  size_t bytes;
  bool bypass_l1;
  bool warm;   // walk the whole cycle once before timing (cache-resident working sets)
  bool flush;  // evict the slots from L2 before timing (the DRAM working set)
  int lanes = 1;  // threads chasing at once, each from its own place of the cycle
};

Measurement measure_global_chase(const Context& context, const GlobalChase& spec) {
  const size_t slots = spec.bytes / kSlotBytes;
  const std::vector<uint32_t> next = random_cycle(slots, 2024u);
  DeviceBuffer<Pointer> data(spec.bytes / sizeof(Pointer));
  {
    DeviceBuffer<uint32_t> next_device(slots);
    next_device.from_host(next);
    link_slots_kernel<<<256, 256>>>(data.data(), next_device.data(), slots);
    ROOFCAST_GPU_CHECK_LAUNCH("link_slots_kernel");
  }
  // Lane l starts l / lanes of the way round the cycle, so the lanes never meet.
  const int lanes = spec.lanes;
  std::vector<uint32_t> start_slots(static_cast<size_t>(lanes), 0u);
  for (int l = 1; l < lanes; ++l) start_slots[l] = walk(next, start_slots[l - 1], static_cast<long long>(slots / lanes));
  const Pointer base = reinterpret_cast<Pointer>(data.data());
  std::vector<Pointer> starts;
  for (const uint32_t slot : start_slots) starts.push_back(base + Pointer{slot} * kSlotBytes);
  DeviceBuffer<Pointer> position(static_cast<size_t>(lanes));
  position.from_host(starts);
  auto launch = [&](long long trips, BlockClock* clock) {
    if (spec.bypass_l1) global_chase_kernel<true><<<1, lanes>>>(position.data(), static_cast<int>(trips), clock);
    else global_chase_kernel<false><<<1, lanes>>>(position.data(), static_cast<int>(trips), clock);
    ROOFCAST_GPU_CHECK_LAUNCH("global_chase_kernel");
  };
  if (spec.warm) {
    launch(static_cast<long long>(slots) / kStepsPerTrip + 1, nullptr);
    position.from_host(starts);
  }
  if (spec.flush) {  // writing twice L2's size evicts the slots the linking kernel left there
    DeviceBuffer<uint4> scratch(2 * context.l2_bytes / sizeof(uint4));
    scratch.poison();
  }
  ROOFCAST_GPU_CHECK(device_synchronize());
  Chain chain;
  chain.key = spec.key;
  chain.label = spec.label;
  chain.what = fmt::format("pointer chase, {}, {}, random cycle of {} slots {} B apart ({} KiB)",
                           lanes == 1 ? "one thread" : fmt::format("{} lanes of one warp, each on its own line", lanes),
                           spec.loads, slots, kSlotBytes, spec.bytes >> 10);
  chain.launch = launch;
  chain.verify = [&](const ChainSteps& steps) -> std::string {
    const std::vector<Pointer> ends = position.to_host();
    for (int l = 0; l < lanes; ++l) {
      const Pointer p = ends[l];
      if (p < base || (p - base) % kSlotBytes != 0 || (p - base) / kSlotBytes >= slots)
        return fmt::format("lane {}: final pointer {:#x} is no slot", l, p);
      const Pointer slot = (p - base) / kSlotBytes;
      const uint32_t expected = walk(next, start_slots[l], steps.total);
      if (slot != expected) return fmt::format("lane {} ended at slot {}, expected {}", l, slot, expected);
    }
    return "";
  };
  return measure_chain(context, chain);
}

Measurement measure_shared_chase(const Context& context) {
  const std::vector<uint32_t> next = random_cycle(kSharedSlots, 77u);
  DeviceBuffer<uint32_t> next_device(kSharedSlots), position(1);
  next_device.from_host(next);
  position.from_host({0u});
  Chain chain;
  chain.key = "latency_shared_load_ns";
  chain.label = "Shared-memory load latency";
  chain.what = fmt::format("pointer chase in shared memory (LDS), one thread, random cycle of {} 32-bit slots", kSharedSlots);
  chain.launch = [&](long long trips, BlockClock* clock) {
    shared_chase_kernel<<<1, 32>>>(next_device.data(), position.data(), static_cast<int>(trips), clock);
    ROOFCAST_GPU_CHECK_LAUNCH("shared_chase_kernel");
  };
  chain.verify = [&](const ChainSteps& steps) -> std::string {
    const uint32_t got = position.to_host()[0], expected = walk(next, 0, steps.total);
    return got == expected ? "" : fmt::format("ended at slot {}, expected {}", got, expected);
  };
  return measure_chain(context, chain);
}

// The words and the operand after `steps` steps of old = word; word += x; x = old, all from 1.
struct AtomicChainState {
  std::vector<uint32_t> words = std::vector<uint32_t>(kAtomicWords, 1u);
  uint32_t operand = 1;
};
AtomicChainState atomic_chain_state(long long steps) {
  AtomicChainState state;
  for (long long s = 0; s < steps; ++s) {
    uint32_t& word = state.words[s % kAtomicWords];
    const uint32_t old = word;
    word += state.operand;
    state.operand = old;
  }
  return state;
}

Measurement measure_atomic_chain(const Context& context, bool shared) {
  // Global: the words kGlobalWordStride apart in one buffer; shared: the kernel copies them in and out.
  const int stride = shared ? 1 : kGlobalWordStride;
  DeviceBuffer<uint32_t> words(static_cast<size_t>(kAtomicWords) * stride), operand(1);
  std::vector<uint32_t> initial(words.size(), 0u);
  for (int w = 0; w < kAtomicWords; ++w) initial[static_cast<size_t>(w) * stride] = 1u;
  words.from_host(initial);
  operand.from_host({1u});
  Chain chain;
  chain.key = shared ? "latency_atomic_shared_ns" : "latency_atomic_global_ns";
  chain.label = shared ? "Shared atomicAdd latency (result used)" : "Global atomicAdd latency (result used)";
  chain.what = fmt::format("{}: x = atomicAdd(&word[s % {}], x) at step s, one thread, words {} bytes apart",
                           shared ? "ATOMS.ADD" : "ATOMG.E.ADD", kAtomicWords,
                           4 * (shared ? kSharedWordStride : kGlobalWordStride));
  chain.launch = [&](long long trips, BlockClock* clock) {
    if (shared) shared_atomic_chain_kernel<<<1, 1>>>(words.data(), operand.data(), static_cast<int>(trips), clock);
    else global_atomic_chain_kernel<<<1, 1>>>(words.data(), operand.data(), static_cast<int>(trips), clock);
    ROOFCAST_GPU_CHECK_LAUNCH("atomic_chain_kernel");
  };
  chain.verify = [&, stride](const ChainSteps& steps) -> std::string {
    const auto got = words.to_host();
    const AtomicChainState expected = atomic_chain_state(steps.total);
    for (int w = 0; w < kAtomicWords; ++w)
      if (got[static_cast<size_t>(w) * stride] != expected.words[w])
        return fmt::format("word {}: {:#x}, expected {:#x}", w, got[static_cast<size_t>(w) * stride], expected.words[w]);
    const uint32_t x = operand.to_host()[0];
    return x == expected.operand ? "" : fmt::format("operand {:#x}, expected {:#x}", x, expected.operand);
  };
  return measure_chain(context, chain);
}

}  // namespace

std::vector<Measurement> characterize_memory_latency(const Context& context) {
  const size_t l2 = std::max<size_t>(context.l2_bytes, 1 << 20);
  const size_t dram_bytes = (context.quick ? 2 : 4) * l2;
  if (dram_bytes + 2 * l2 > context.free_bytes / 2)
    throw GpuError(fmt::format("too little free device memory for the DRAM pointer chase ({} MiB)", dram_bytes >> 20));
  return {measure_shared_chase(context),
          measure_global_chase(context, {"latency_l1_hit_ns", "L1-hit load latency", "ld.global.ca (L1 hits)", kL1Bytes,
                                         false, true, false}),
          measure_global_chase(context, {"latency_l2_hit_ns", "L2-hit load latency", "ld.global.cg (L1 bypassed, L2 hits)",
                                         l2 / 4 / kSlotBytes * kSlotBytes, true, true, false}),
          measure_global_chase(context, {"latency_dram_ns", "DRAM load latency (unloaded)",
                                         "ld.global.cg, every line new (L2 flushed first)",
                                         dram_bytes / kSlotBytes * kSlotBytes, true, false, true}),
          measure_global_chase(context, {"latency_dram_warp_ns", "DRAM load latency, 32 lines per warp load",
                                         "ld.global.cg, every line new (L2 flushed first)",
                                         dram_bytes / kSlotBytes * kSlotBytes, true, false, true, 32}),
          measure_atomic_chain(context, false), measure_atomic_chain(context, true)};
}

}  // namespace roofcast::gpu
