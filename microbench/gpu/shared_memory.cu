// T_ldst: shared-memory load/store instruction throughput. Each thread owns kSlots words in
// a row layout (thread t's slot k at k * blockDim + t), so a warp's access to one slot is
// contiguous and conflict-free at every width. Each step swaps slot pairs: kSlots loads and
// kSlots stores. The row moves by `step * zero`, with `zero` a kernel argument that is 0 at
// run time: the compiler cannot tell that consecutive steps touch the same words, so no load
// is forwarded from the store before it and no store is merged away.
#include <fmt/format.h>

#include <cstdint>

#include "characterizers.hpp"

namespace roofcast::gpu {

namespace {

constexpr int kThreads = 256;
constexpr int kSlots = 4;
constexpr int kStepsPerTrip = 16;

template <typename Word>
__host__ __device__ Word make_word(unsigned thread, int slot);

template <>
__host__ __device__ uint32_t make_word<uint32_t>(unsigned thread, int slot) {
  return thread * 2654435761u + slot * 40503u + 7u;
}
template <>
__host__ __device__ uint2 make_word<uint2>(unsigned thread, int slot) {
  return {make_word<uint32_t>(thread, slot), make_word<uint32_t>(thread, slot + 16)};
}
template <>
__host__ __device__ uint4 make_word<uint4>(unsigned thread, int slot) {
  return {make_word<uint32_t>(thread, slot), make_word<uint32_t>(thread, slot + 16),
          make_word<uint32_t>(thread, slot + 32), make_word<uint32_t>(thread, slot + 48)};
}

bool same(uint32_t a, uint32_t b) { return a == b; }
bool same(uint2 a, uint2 b) { return a.x == b.x && a.y == b.y; }
bool same(uint4 a, uint4 b) { return a.x == b.x && a.y == b.y && a.z == b.z && a.w == b.w; }

template <typename Word>
__global__ void __launch_bounds__(kThreads) shared_swap_kernel(Word* out, int trips, unsigned zero,
                                                               BlockClock* clocks) {
  __shared__ Word slots[kSlots * kThreads];
  record_block_start(clocks);
  const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < kSlots; ++k) slots[k * kThreads + threadIdx.x] = make_word<Word>(thread, k);
  for (int trip = 0; trip < trips; ++trip) {
#pragma unroll
    for (int s = 0; s < kStepsPerTrip; ++s) {
      Word* row = slots + threadIdx.x + (trip * kStepsPerTrip + s) * zero;
      Word v[kSlots];
#pragma unroll
      for (int k = 0; k < kSlots; ++k) v[k] = row[k * kThreads];
#pragma unroll
      for (int k = 0; k < kSlots; ++k) row[k * kThreads] = v[k ^ 1];
    }
  }
#pragma unroll
  for (int k = 0; k < kSlots; ++k) out[thread * kSlots + k] = slots[k * kThreads + threadIdx.x];
  record_block_end(clocks);
}

template <typename Word>
Measurement measure_width(const Context& context, const char* key, const char* label) {
  int blocks_per_sm = 0;
  ROOFCAST_GPU_CHECK(max_active_blocks(&blocks_per_sm, shared_swap_kernel<Word>, kThreads, 0));
  const int blocks = context.sm_count * blocks_per_sm;
  const unsigned threads = static_cast<unsigned>(blocks) * kThreads;
  DeviceBuffer<Word> out(static_cast<size_t>(threads) * kSlots);
  DeviceBuffer<BlockClock> clocks(blocks);
  auto launch = [&](long long n) {
    shared_swap_kernel<Word><<<blocks, kThreads>>>(out.data(), static_cast<int>(n), 0u, clocks.data());
    ROOFCAST_GPU_CHECK_LAUNCH("shared_swap_kernel");
  };
  int trips = static_cast<int>(calibrate_iterations(launch, 16, context.target_ms, 1 << 24));
  // An odd number of swaps leaves each pair exchanged; make the expectation depend on it.
  out.poison();

  Workload w;
  w.key = key;
  w.label = label;
  w.unit = "G/s";
  // Thread-level instructions: per step kSlots loads + kSlots stores.
  w.work_per_launch = static_cast<double>(threads) * trips * kStepsPerTrip * 2 * kSlots;
  w.launch = [&] { launch(trips); };
  w.verify = [&]() -> std::string {
    const auto host = out.to_host();
    const bool swapped = (static_cast<long long>(trips) * kStepsPerTrip) % 2 == 1;
    for (unsigned t = 0; t < threads; ++t)
      for (int k = 0; k < kSlots; ++k) {
        const Word expected = make_word<Word>(t, swapped ? k ^ 1 : k);
        if (!same(host[static_cast<size_t>(t) * kSlots + k], expected))
          return fmt::format("thread {} slot {} holds a wrong value", t, k);
      }
    return "";
  };
  w.clocks = &clocks;
  w.details = fmt::format("{} blocks x {} threads ({}/SM), {} slots, {} x {} swap steps", blocks, kThreads,
                          blocks_per_sm, kSlots, trips, kStepsPerTrip);
  return measure(w, context.policy);
}

}  // namespace

std::vector<Measurement> characterize_shared_memory(const Context& context) {
  return {measure_width<uint32_t>(context, "shared_ldst_gops", "Shared ld/st 32-bit (T_ldst)"),
          measure_width<uint2>(context, "shared_ldst64_gops", "Shared ld/st 64-bit"),
          measure_width<uint4>(context, "shared_ldst128_gops", "Shared ld/st 128-bit")};
}

}  // namespace roofcast::gpu
