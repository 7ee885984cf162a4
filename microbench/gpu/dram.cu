// B_mem: DRAM read-only, write-only and copy kernels with 16-byte accesses and 1 to 16
// independent accesses in flight per thread, over buffers far larger than L2. Each kernel is
// screened in many variants (access layout, cache hints, accesses in flight, grid size) with a
// few repetitions; the two fastest are timed in full and the faster is reported with its
// configuration. An MPS partition has fewer SMs, each of which must then keep more bytes in
// flight: the configurations that win there are not those that win on the whole GPU. A
// vectorized elementwise add (c = a + b, float4) is measured the same way, as the yardstick
// the three must reach, and the runtime's device-to-device copy for comparison. The copy is
// also screened over variants of its own (more block shapes and, from compute capability 9.0,
// bulk copies by the TMA unit through shared memory): it must reach the runtime's copy (issue 31).
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "characterizers.hpp"
#include "pattern.hpp"

namespace roofcast::gpu {

namespace {

constexpr int kThreads = 512;  // per block, where a variant does not say otherwise
constexpr uint32_t kSeed = 12345u;
// Repetitions of the screening pass over every configuration (the fastest two get the full policy).
constexpr RunPolicy kScreening{1, 3};

// Which vectors a thread touches. Interleaved: the grid sweeps the buffer in groups of
// kUnroll x (all threads), each access of a thread one grid apart. Blocked: each block owns
// groups of kUnroll x blockDim consecutive vectors (kUnroll x 8 KiB at 512 threads), its accesses
// one block apart, and the grid takes the groups in turn. Chunked: the same groups, each block a
// run of them of its own, so that the grid's blocks sweep as many parts of the buffer at once.
enum class Layout { interleaved, blocked, chunked };
// Cache hints: none (L2 only), evict-first loads and stores, L2 fetching 256-byte blocks for
// loads, or those loads with evict-first stores.
enum class Hint { none, evict_first, prefetch_l2, prefetch_l2_evict_first_stores };

template <Hint kHint>
__device__ __forceinline__ uint4 load(const uint4* p) {
  if constexpr (kHint == Hint::evict_first) return load_streaming(p);
  else if constexpr (kHint == Hint::prefetch_l2 || kHint == Hint::prefetch_l2_evict_first_stores)
    return load_prefetch_l2(p);
  else return load_bypass_l1(p);
}
template <Hint kHint>
__device__ __forceinline__ void store(uint4* p, uint4 v) {
  if constexpr (kHint == Hint::evict_first || kHint == Hint::prefetch_l2_evict_first_stores) store_streaming(p, v);
  else *p = v;
}

// Calls group(first, step) for every full group of this thread (accesses first + u * step,
// u < kUnroll), then single(i) for each leftover vector.
template <Layout kLayout, int kUnroll, typename Group, typename Single>
__device__ __forceinline__ void for_each_access(size_t vectors, Group group, Single single) {
  const size_t threads = static_cast<size_t>(gridDim.x) * blockDim.x;
  const size_t thread = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  size_t covered;
  if constexpr (kLayout == Layout::interleaved) {
    const size_t groups = vectors / (kUnroll * threads);
    for (size_t g = 0; g < groups; ++g) group(g * kUnroll * threads + thread, threads);
    covered = groups * kUnroll * threads;
  } else if constexpr (kLayout == Layout::blocked) {
    const size_t span = static_cast<size_t>(kUnroll) * blockDim.x;
    const size_t groups = vectors / span;
    for (size_t g = blockIdx.x; g < groups; g += gridDim.x) group(g * span + threadIdx.x, blockDim.x);
    covered = groups * span;
  } else {
    const size_t span = static_cast<size_t>(kUnroll) * blockDim.x;
    const size_t groups = vectors / span;
    const size_t per_block = (groups + gridDim.x - 1) / gridDim.x;
    const size_t first = blockIdx.x * per_block, last = first + per_block < groups ? first + per_block : groups;
    for (size_t g = first; g < last; ++g) group(g * span + threadIdx.x, blockDim.x);
    covered = groups * span;
  }
  for (size_t i = covered + thread; i < vectors; i += threads) single(i);
}

template <Layout kLayout, Hint kHint, int kUnroll>
__global__ void __launch_bounds__(kThreads) dram_read_kernel(const uint4* in, size_t vectors, uint32_t* block_sums) {
  uint32_t sum = 0;
  for_each_access<kLayout, kUnroll>(
      vectors,
      [&](size_t first, size_t step) {
        uint4 v[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) v[u] = load<kHint>(in + first + u * step);
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) sum += word_sum(v[u]);
      },
      [&](size_t i) { sum += word_sum(in[i]); });
  sum = block_sum(sum);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
}

template <Layout kLayout, Hint kHint, int kUnroll>
__global__ void __launch_bounds__(kThreads) dram_write_kernel(uint4* out, size_t vectors, uint32_t seed) {
  for_each_access<kLayout, kUnroll>(
      vectors,
      [&](size_t first, size_t step) {
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) store<kHint>(out + first + u * step, pattern_vector(first + u * step, seed));
      },
      [&](size_t i) { out[i] = pattern_vector(i, seed); });
}

template <Layout kLayout, Hint kHint, int kCopyUnroll, int kBlockThreads = kThreads>
__global__ void __launch_bounds__(kBlockThreads) dram_copy_kernel(const uint4* in, uint4* out, size_t vectors) {
  for_each_access<kLayout, kCopyUnroll>(
      vectors,
      [&](size_t first, size_t step) {
        uint4 v[kCopyUnroll];
#pragma unroll
        for (int u = 0; u < kCopyUnroll; ++u) v[u] = load<kHint>(in + first + u * step);
#pragma unroll
        for (int u = 0; u < kCopyUnroll; ++u) store<kHint>(out + first + u * step, v[u]);
      },
      [&](size_t i) { out[i] = in[i]; });
}

#if ROOFCAST_BACKEND_CUDA
// The copy by the Hopper bulk-copy (TMA) unit, no data in registers: one thread per block loads
// chunks of kStageBytes from global into kStages shared-memory stages (cp.async.bulk, each stage
// completing on its mbarrier), stores each loaded stage back to global (cp.async.bulk from
// shared, in bulk async-groups) and refills the stage as soon as that store has read it. Every
// chunk is one request of 16 to 64 KiB of consecutive bytes, so the SM keeps up to
// kStages x kStageBytes in flight per block without a register per byte. kLayout: blocked = the
// grid's blocks take the chunks in turn; chunked = each block a run of consecutive chunks.
__device__ __forceinline__ uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

template <Layout kLayout, int kStageBytes, int kStages>
__global__ void __launch_bounds__(1) dram_bulk_copy_kernel(const uint4* in, uint4* out, size_t vectors) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  extern __shared__ __align__(128) unsigned char stage_memory[];
  __shared__ __align__(8) uint64_t loaded[kStages];  // mbarrier of each stage: its load completed
  const size_t bytes = vectors * 16;
  const size_t chunks = (bytes + kStageBytes - 1) / kStageBytes;
  size_t first = blockIdx.x, step = gridDim.x, last = chunks;
  if constexpr (kLayout == Layout::chunked) {
    const size_t per_block = (chunks + gridDim.x - 1) / gridDim.x;
    first = blockIdx.x * per_block, step = 1, last = first + per_block < chunks ? first + per_block : chunks;
  }
  const size_t count = first < last ? (last - first + step - 1) / step : 0;  // this block's chunks

  for (int s = 0; s < kStages; ++s)
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(shared_address(&loaded[s])) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");  // visible to the bulk-copy unit
  // The k-th chunk of this block: its offset in the buffers and its size (the last may be short).
  auto offset_of = [&](size_t k) { return (first + k * step) * kStageBytes; };
  auto size_of = [&](size_t k) {
    const size_t left = bytes - offset_of(k);
    return static_cast<uint32_t>(left < static_cast<size_t>(kStageBytes) ? left : kStageBytes);
  };
  // Loads the k-th chunk into stage k % kStages.
  auto load = [&](size_t k) {
    const size_t offset = offset_of(k);
    const uint32_t size = size_of(k);
    const uint32_t barrier = shared_address(&loaded[k % kStages]);
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(barrier), "r"(size) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     shared_address(stage_memory + (k % kStages) * kStageBytes)),
                 "l"(reinterpret_cast<const unsigned char*>(in) + offset), "r"(size), "r"(barrier)
                 : "memory");
  };
  for (size_t k = 0; k < count && k < kStages; ++k) load(k);
  for (size_t k = 0; k < count; ++k) {
    // The stage's (k / kStages)-th load: mbarrier phases alternate parity 0, 1, 0, ...
    const uint32_t barrier = shared_address(&loaded[k % kStages]), parity = (k / kStages) & 1;
    uint32_t done = 0;
    while (!done)
      asm volatile(
          "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
          : "=r"(done)
          : "r"(barrier), "r"(parity)
          : "memory");
    const size_t offset = offset_of(k);
    const uint32_t size = size_of(k);
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(
                     reinterpret_cast<unsigned char*>(out) + offset),
                 "r"(shared_address(stage_memory + (k % kStages) * kStageBytes)), "r"(size)
                 : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    if (k + kStages < count) {
      asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");  // the store has read the stage
      load(k + kStages);
    }
  }
  asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");  // every store written
#endif
}
#endif

__device__ __forceinline__ float4 as_float4(uint4 v) {
  return {__uint_as_float(v.x), __uint_as_float(v.y), __uint_as_float(v.z), __uint_as_float(v.w)};
}
__device__ __forceinline__ uint4 add_as_floats(uint4 a, uint4 b) {
  const float4 x = as_float4(a), y = as_float4(b);
  return {__float_as_uint(x.x + y.x), __float_as_uint(x.y + y.y), __float_as_uint(x.z + y.z), __float_as_uint(x.w + y.w)};
}

// The elementwise add c = a + b over float4 vectors: a is the first half of `in`, b the second.
template <Layout kLayout, Hint kHint, int kUnroll>
__global__ void __launch_bounds__(kThreads) dram_add_kernel(const uint4* in, uint4* out, size_t vectors) {
  const uint4* b = in + vectors;
  for_each_access<kLayout, kUnroll>(
      vectors,
      [&](size_t first, size_t step) {
        uint4 x[kUnroll], y[kUnroll];
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) x[u] = load<kHint>(in + first + u * step);
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) y[u] = load<kHint>(b + first + u * step);
#pragma unroll
        for (int u = 0; u < kUnroll; ++u) store<kHint>(out + first + u * step, add_as_floats(x[u], y[u]));
      },
      [&](size_t i) { out[i] = add_as_floats(in[i], b[i]); });
}

// Vectors of `out` that differ from pattern(i) + pattern(vectors + i) added as floats (the same
// device arithmetic as the add kernel, so bit for bit).
__global__ void count_add_mismatches_kernel(const uint4* out, size_t vectors, uint32_t seed,
                                            unsigned long long* mismatches) {
  unsigned long long count = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < vectors;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const uint4 v = out[i], e = add_as_floats(pattern_vector(i, seed), pattern_vector(vectors + i, seed));
    count += v.x != e.x || v.y != e.y || v.z != e.z || v.w != e.w;
  }
  if (count) atomicAdd(mismatches, count);
}

// One kernel variant: its launchers for a grid of `blocks`, and the blocks one wave holds.
struct Variant {
  Layout layout;
  Hint hint;
  int unroll;
  int threads;  // per block
  int blocks_per_sm;
  void (*read)(int blocks, const uint4*, size_t, uint32_t*);
  void (*write)(int blocks, uint4*, size_t, uint32_t);
  void (*copy)(int blocks, const uint4*, uint4*, size_t);
  void (*add)(int blocks, const uint4*, uint4*, size_t);  // c = a + b over `size_t` vectors of each
  int bulk_stage_bytes = 0;  // a bulk (TMA) copy: bytes per stage and chunk (0: threads copy)
  int bulk_stages = 0;
};

// Read, write, copy and add kernels with kUnroll accesses in flight per thread and stream.
template <Layout kLayout, Hint kHint, int kUnroll>
Variant make_variant() {
  Variant v{kLayout, kHint, kUnroll, kThreads, 0, nullptr, nullptr, nullptr, nullptr};
  ROOFCAST_GPU_CHECK(max_active_blocks(&v.blocks_per_sm, dram_add_kernel<kLayout, kHint, kUnroll>, kThreads, 0));
  v.read = [](int blocks, const uint4* in, size_t n, uint32_t* sums) {
    dram_read_kernel<kLayout, kHint, kUnroll><<<blocks, kThreads>>>(in, n, sums);
    ROOFCAST_GPU_CHECK_LAUNCH("dram_read_kernel");
  };
  v.write = [](int blocks, uint4* out, size_t n, uint32_t seed) {
    dram_write_kernel<kLayout, kHint, kUnroll><<<blocks, kThreads>>>(out, n, seed);
    ROOFCAST_GPU_CHECK_LAUNCH("dram_write_kernel");
  };
  v.copy = [](int blocks, const uint4* in, uint4* out, size_t n) {
    dram_copy_kernel<kLayout, kHint, kUnroll><<<blocks, kThreads>>>(in, out, n);
    ROOFCAST_GPU_CHECK_LAUNCH("dram_copy_kernel");
  };
  v.add = [](int blocks, const uint4* in, uint4* out, size_t n) {
    dram_add_kernel<kLayout, kHint, kUnroll><<<blocks, kThreads>>>(in, out, n);
    ROOFCAST_GPU_CHECK_LAUNCH("dram_add_kernel");
  };
  return v;
}

// A variant of the copy kernel alone, with kBlockThreads threads per block: the copy is screened
// over these too (the runtime's device-to-device copy is the mark it must reach).
template <Layout kLayout, Hint kHint, int kUnroll, int kBlockThreads>
Variant make_copy_variant() {
  Variant v{kLayout, kHint, kUnroll, kBlockThreads, 0, nullptr, nullptr, nullptr, nullptr};
  ROOFCAST_GPU_CHECK(
      max_active_blocks(&v.blocks_per_sm, dram_copy_kernel<kLayout, kHint, kUnroll, kBlockThreads>, kBlockThreads, 0));
  v.copy = [](int blocks, const uint4* in, uint4* out, size_t n) {
    dram_copy_kernel<kLayout, kHint, kUnroll, kBlockThreads><<<blocks, kBlockThreads>>>(in, out, n);
    ROOFCAST_GPU_CHECK_LAUNCH("dram_copy_kernel");
  };
  return v;
}

#if ROOFCAST_BACKEND_CUDA
// A bulk (TMA) copy variant, registered on compute capability 9.0 and later only, where its
// kernel was compiled for sm_90 or later (the kernel of an older PTX target copies nothing).
template <Layout kLayout, int kStageBytes, int kStages>
std::optional<Variant> make_bulk_copy_variant(const Context& context) {
  auto* const kernel = &dram_bulk_copy_kernel<kLayout, kStageBytes, kStages>;
  constexpr int kSharedBytes = kStageBytes * kStages;
  if (context.compute_major < 9) return std::nullopt;
  cudaFuncAttributes attributes{};
  ROOFCAST_GPU_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  if (attributes.ptxVersion < 90) return std::nullopt;
  ROOFCAST_GPU_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSharedBytes));
  ROOFCAST_GPU_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
                                          cudaSharedmemCarveoutMaxShared));
  Variant v{kLayout, Hint::none, 1, 1, 0, nullptr, nullptr, nullptr, nullptr, kStageBytes, kStages};
  ROOFCAST_GPU_CHECK(max_active_blocks(&v.blocks_per_sm, kernel, 1, kSharedBytes));
  if (v.blocks_per_sm < 1) return std::nullopt;
  v.copy = [](int blocks, const uint4* in, uint4* out, size_t n) {
    dram_bulk_copy_kernel<kLayout, kStageBytes, kStages><<<blocks, 1, kSharedBytes>>>(in, out, n);
    ROOFCAST_GPU_CHECK_LAUNCH("dram_bulk_copy_kernel");
  };
  return v;
}
#endif

// Vectors a block copies in one trip: an unrolled access of each thread, or its bulk stages.
size_t vectors_per_block_trip(const Variant& v) {
  return v.bulk_stage_bytes ? static_cast<size_t>(v.bulk_stage_bytes) / 16 * v.bulk_stages
                            : static_cast<size_t>(v.threads) * v.unroll;
}

// Grid sizes tried: one, two and eight waves, and one trip per block (an unrolled access per thread).
std::vector<int> grid_sizes(const Context& context, const Variant& v, size_t vectors) {
  const int wave = context.sm_count * v.blocks_per_sm;
  const size_t cover = (vectors + vectors_per_block_trip(v) - 1) / vectors_per_block_trip(v);
  return {wave, 2 * wave, 8 * wave, static_cast<int>(std::min<size_t>(cover, 1u << 30))};
}

std::string describe(const Variant& v, int blocks, size_t bytes) {
  if (v.bulk_stage_bytes)
    return fmt::format(
        "{} MiB, {} blocks x 1 thread, bulk copies (TMA, cp.async.bulk) through {} shared-memory stages of {} KiB, {}",
        bytes >> 20, blocks, v.bulk_stages, v.bulk_stage_bytes >> 10,
        v.layout == Layout::chunked ? "each block a run of chunks of its own" : "chunks taken by the blocks in turn");
  const char* hint = v.hint == Hint::evict_first                      ? ", evict-first hints"
                     : v.hint == Hint::prefetch_l2                    ? ", 256-byte L2 fetches"
                     : v.hint == Hint::prefetch_l2_evict_first_stores ? ", 256-byte L2 fetches, evict-first stores"
                                                                      : "";
  const char* layout = v.layout == Layout::blocked   ? "blocked"
                       : v.layout == Layout::chunked ? "chunked"
                                                     : "interleaved";
  return fmt::format("{} MiB, {} blocks x {} threads, {} layout, 16-byte accesses, {} in flight per thread{}",
                     bytes >> 20, blocks, v.threads, layout, v.unroll, hint);
}

// Screens every (variant, grid) with kScreening repetitions, then times the two fastest with
// the context's policy and keeps the faster. A wrong output throws (VerificationError).
template <typename MakeWorkload>
Measurement fastest(const Context& context, const std::vector<Variant>& variants, size_t vectors,
                    MakeWorkload make_workload) {
  struct Candidate {
    const Variant* variant;
    int blocks;
    double gbps;
  };
  std::vector<Candidate> screened;
  for (const auto& v : variants)
    for (const int blocks : grid_sizes(context, v, vectors))
      screened.push_back({&v, blocks, measure(make_workload(v, blocks), kScreening).value.median});
  std::stable_sort(screened.begin(), screened.end(), [](const auto& x, const auto& y) { return x.gbps > y.gbps; });
  Measurement best;
  for (size_t i = 0; i < std::min<size_t>(2, screened.size()); ++i) {
    Measurement m = measure(make_workload(*screened[i].variant, screened[i].blocks), context.policy);
    if (best.key.empty() || m.value.median > best.value.median) best = m;
  }
  best.details += fmt::format("; fastest of {} configurations (slowest screened: {:.0f} GB/s)", screened.size(),
                              screened.back().gbps);
  return best;
}

unsigned long long count_add_mismatches(const uint4* sums, size_t vectors, uint32_t seed) {
  DeviceBuffer<unsigned long long> count(1);
  ROOFCAST_GPU_CHECK(memset_bytes(count.data(), 0, sizeof(unsigned long long)));
  count_add_mismatches_kernel<<<4096, 256>>>(sums, vectors, seed, count.data());
  ROOFCAST_GPU_CHECK_LAUNCH("count_add_mismatches_kernel");
  return count.to_host()[0];
}

std::string check_mismatches(const DeviceBuffer<uint4>& buffer, uint32_t seed) {
  const unsigned long long wrong = count_pattern_mismatches(buffer, seed);
  return wrong ? fmt::format("{} of {} 16-byte vectors hold a wrong value", wrong, buffer.size()) : "";
}

#if ROOFCAST_BACKEND_CUDA
// The bench's buffers hold whole chunks of every bulk copy: this copies 5 chunks and 3 vectors
// (a short sixth chunk) on grids of 1, 2 and 7 blocks (a block with more chunks than stages,
// fewer, or none), and throws VerificationError where a vector is wrong.
void check_bulk_copy_edges(const Variant& v) {
  const size_t vectors = 5 * static_cast<size_t>(v.bulk_stage_bytes) / 16 + 3;
  DeviceBuffer<uint4> in(vectors), out(vectors);
  fill_pattern(in, kSeed);
  for (const int blocks : {1, 2, 7}) {
    out.poison();
    v.copy(blocks, in.data(), out.data(), vectors);
    if (const std::string problem = check_mismatches(out, kSeed); !problem.empty())
      throw VerificationError(fmt::format(
          "DRAM copy (dram_copy_gbps): bulk copy of {} bytes by {} blocks, {} stages of {} KiB{}: {}", vectors * 16,
          blocks, v.bulk_stages, v.bulk_stage_bytes >> 10, v.layout == Layout::chunked ? ", a run per block" : "",
          problem));
  }
}
#endif

}  // namespace

std::vector<Measurement> characterize_dram(const Context& context) {
  // Two buffers of 1 GiB (--quick) or 4 GiB, less where memory is short; each >= 8x L2.
  const size_t wanted = (context.quick ? 1ull : 4ull) << 30;
  const size_t bytes = std::min(wanted, context.free_bytes / 4) / (16 * kThreads) * (16 * kThreads);
  if (bytes < 8 * context.l2_bytes)
    throw GpuError(fmt::format("too little free device memory for the DRAM kernels: {} MiB per buffer", bytes >> 20));
  const size_t vectors = bytes / 16;
  DeviceBuffer<uint4> a(vectors), b(vectors);
  fill_pattern(a, kSeed);
  // Few accesses in flight per thread suit the whole GPU; an MPS partition's fewer SMs need
  // more per thread (8, 16) to keep as many bytes in flight.
  const std::vector<Variant> variants = {
      make_variant<Layout::interleaved, Hint::none, 4>(),
      make_variant<Layout::interleaved, Hint::evict_first, 4>(),
      make_variant<Layout::interleaved, Hint::prefetch_l2, 4>(),
      make_variant<Layout::blocked, Hint::none, 4>(),
      make_variant<Layout::blocked, Hint::evict_first, 4>(),
      make_variant<Layout::blocked, Hint::prefetch_l2, 4>(),
      // One or two vectors per thread over a grid that covers the buffer in one trip: how the
      // runtime's own copy is laid out, and on an H100 the closest to it of these variants.
      make_variant<Layout::interleaved, Hint::none, 1>(),
      make_variant<Layout::interleaved, Hint::evict_first, 1>(),
      make_variant<Layout::interleaved, Hint::none, 2>(),
      make_variant<Layout::interleaved, Hint::none, 8>(),
      make_variant<Layout::blocked, Hint::evict_first, 8>(),
      make_variant<Layout::blocked, Hint::prefetch_l2_evict_first_stores, 8>(),
      make_variant<Layout::interleaved, Hint::none, 16>(),
      make_variant<Layout::blocked, Hint::evict_first, 16>(),
      make_variant<Layout::blocked, Hint::prefetch_l2_evict_first_stores, 16>()};
  // The copy alone also tries blocks that each sweep a part of the buffer of their own, other
  // block sizes (one vector per thread in blocks of 128 and 256 too, a grid covering the buffer)
  // and more bytes in flight per thread (up to 512): on an H200 the variants above stopped 2 %
  // short of cudaMemcpy (4182 against 4270 GB/s), which moves the same bytes.
  std::vector<Variant> copy_variants = variants;
  for (const Variant& v : {make_copy_variant<Layout::chunked, Hint::none, 4, kThreads>(),
                           make_copy_variant<Layout::chunked, Hint::evict_first, 8, kThreads>(),
                           make_copy_variant<Layout::chunked, Hint::prefetch_l2_evict_first_stores, 16, kThreads>(),
                           make_copy_variant<Layout::interleaved, Hint::evict_first, 2, 256>(),
                           make_copy_variant<Layout::blocked, Hint::evict_first, 8, 256>(),
                           make_copy_variant<Layout::blocked, Hint::evict_first, 8, 1024>(),
                           make_copy_variant<Layout::interleaved, Hint::evict_first, 1, 1024>(),
                           make_copy_variant<Layout::blocked, Hint::evict_first, 32, 128>(),
                           make_copy_variant<Layout::interleaved, Hint::none, 1, 256>(),
                           make_copy_variant<Layout::interleaved, Hint::none, 1, 128>()})
    copy_variants.push_back(v);
#if ROOFCAST_BACKEND_CUDA
  // From compute capability 9.0: the bulk-copy (TMA) unit moves the bytes, in chunks of 16 to
  // 64 KiB of consecutive addresses, with up to 192 KiB in flight per SM and no register traffic.
  for (const std::optional<Variant>& v : {make_bulk_copy_variant<Layout::blocked, 16 << 10, 4>(context),
                                          make_bulk_copy_variant<Layout::chunked, 16 << 10, 4>(context),
                                          make_bulk_copy_variant<Layout::blocked, 32 << 10, 2>(context),
                                          make_bulk_copy_variant<Layout::blocked, 64 << 10, 2>(context)})
    if (v) {
      check_bulk_copy_edges(*v);
      copy_variants.push_back(*v);
    }
#endif
  int max_blocks = 0;
  for (const auto& v : variants)
    for (const int blocks : grid_sizes(context, v, vectors)) max_blocks = std::max(max_blocks, blocks);

  std::vector<Measurement> results;
  const uint32_t expected_sum = pattern_sum(static_cast<uint64_t>(vectors) * 4, kSeed);
  DeviceBuffer<uint32_t> block_sums(max_blocks);
  results.push_back(fastest(context, variants, vectors, [&](const Variant& v, int blocks) {
    Workload w{"dram_read_gbps", "DRAM read", "GB/s", static_cast<double>(bytes)};
    w.launch = [&, v, blocks] { v.read(blocks, a.data(), vectors, block_sums.data()); };
    w.verify = [&, blocks]() -> std::string {
      uint32_t sum = 0;
      for (const uint32_t s : block_sums.to_host(blocks)) sum += s;
      return sum == expected_sum ? "" : fmt::format("sum {:#x}, expected {:#x}", sum, expected_sum);
    };
    w.details = describe(v, blocks, bytes);
    return w;
  }));

  uint32_t write_seed = kSeed;
  results.push_back(fastest(context, variants, vectors, [&](const Variant& v, int blocks) {
    const uint32_t seed = ++write_seed;  // a vector a variant misses keeps the previous variant's value
    Workload w{"dram_write_gbps", "DRAM write", "GB/s", static_cast<double>(bytes)};
    w.launch = [&, v, blocks, seed] { v.write(blocks, b.data(), vectors, seed); };
    w.verify = [&, seed] { return check_mismatches(b, seed); };
    w.details = describe(v, blocks, bytes);
    return w;
  }));

  results.push_back(fastest(context, copy_variants, vectors, [&](const Variant& v, int blocks) {
    b.poison();  // a vector the copy misses keeps the poison
    Workload w{"dram_copy_gbps", "DRAM copy (read + write)", "GB/s", 2.0 * bytes};
    w.launch = [&, v, blocks] { v.copy(blocks, a.data(), b.data(), vectors); };
    w.verify = [&] { return check_mismatches(b, kSeed); };
    w.details = describe(v, blocks, bytes);
    return w;
  }));

  // c = a + b: a and b the two halves of the pattern buffer, c the first half of the other.
  const size_t half = vectors / 2;
  results.push_back(fastest(context, variants, half, [&](const Variant& v, int blocks) {
    b.poison();
    Workload w{"dram_elementwise_add_gbps", "DRAM elementwise add c = a + b, float4 (read + write)", "GB/s",
               3.0 * half * 16};
    w.launch = [&, v, blocks] { v.add(blocks, a.data(), b.data(), half); };
    w.verify = [&]() -> std::string {
      const unsigned long long wrong = count_add_mismatches(b.data(), half, kSeed);
      return wrong ? fmt::format("{} of {} sums hold a wrong value", wrong, half) : "";
    };
    w.details = describe(v, blocks, 3 * half * 16);
    return w;
  }));

  Workload memcpy_workload{"memcpy_d2d_gbps", "Runtime D2D copy (read + write)", "GB/s", 2.0 * bytes};
  memcpy_workload.launch = [&] { ROOFCAST_GPU_CHECK(copy_device_async(b.data(), a.data(), bytes, nullptr)); };
  memcpy_workload.verify = [&] { return check_mismatches(b, kSeed); };
  memcpy_workload.details = fmt::format("{} MiB per copy", bytes >> 20);
  b.poison();
  results.push_back(measure(memcpy_workload, context.policy));
  return results;
}

}  // namespace roofcast::gpu
