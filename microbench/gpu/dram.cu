// B_mem: DRAM read-only, write-only and copy kernels with 16-byte accesses and kUnroll
// independent accesses in flight per thread (grid-stride), over buffers far larger than L2.
// Each kernel is timed at a few grid sizes and the fastest is reported. The runtime's
// device-to-device copy is measured on the same buffers for comparison.
#include <fmt/format.h>

#include <algorithm>

#include "characterizers.hpp"
#include "pattern.hpp"

namespace roofcast::gpu {

namespace {

constexpr int kThreads = 512;
constexpr int kUnroll = 4;
constexpr uint32_t kSeed = 12345u;

__global__ void __launch_bounds__(kThreads) dram_read_kernel(const uint4* in, size_t vectors, uint32_t* block_sums) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  uint32_t sum = 0;
  for (; i + (kUnroll - 1) * stride < vectors; i += kUnroll * stride) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = load_bypass_l1(in + i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) sum += word_sum(v[u]);
  }
  for (; i < vectors; i += stride) sum += word_sum(in[i]);
  sum = block_sum(sum);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
}

__global__ void __launch_bounds__(kThreads) dram_write_kernel(uint4* out, size_t vectors, uint32_t seed) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  for (; i + (kUnroll - 1) * stride < vectors; i += kUnroll * stride) {
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) out[i + u * stride] = pattern_vector(i + u * stride, seed);
  }
  for (; i < vectors; i += stride) out[i] = pattern_vector(i, seed);
}

__global__ void __launch_bounds__(kThreads) dram_copy_kernel(const uint4* in, uint4* out, size_t vectors) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  for (; i + (kUnroll - 1) * stride < vectors; i += kUnroll * stride) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) v[u] = load_bypass_l1(in + i + u * stride);
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) out[i + u * stride] = v[u];
  }
  for (; i < vectors; i += stride) out[i] = in[i];
}

// Times `make_launch(blocks)` at each candidate grid size and keeps the fastest (median).
struct GridChoice {
  int blocks = 0;
  Measurement measurement;
};

template <typename MakeWorkload>
GridChoice fastest_grid(const Context& context, const std::vector<int>& candidates, MakeWorkload make_workload) {
  GridChoice best;
  for (const int blocks : candidates) {
    Measurement m = measure(make_workload(blocks), context.policy);
    if (best.blocks == 0 || m.value.median > best.measurement.value.median) best = {blocks, m};
  }
  return best;
}

std::string check_mismatches(const DeviceBuffer<uint4>& buffer, uint32_t seed) {
  const unsigned long long wrong = count_pattern_mismatches(buffer, seed);
  return wrong ? fmt::format("{} of {} 16-byte vectors hold a wrong value", wrong, buffer.size()) : "";
}

}  // namespace

std::vector<Measurement> characterize_dram(const Context& context) {
  // Two buffers of 1 GiB (--quick) or 2 GiB, less where memory is short; each >= 8x L2.
  const size_t wanted = (context.quick ? 1ull : 2ull) << 30;
  const size_t bytes = std::min(wanted, context.free_bytes / 4) / (16 * kThreads) * (16 * kThreads);
  if (bytes < 8 * context.l2_bytes) throw GpuError(fmt::format("too little free device memory for the DRAM "
                                                               "kernels: {} MiB per buffer",
                                                               bytes >> 20));
  const size_t vectors = bytes / 16;
  DeviceBuffer<uint4> a(vectors), b(vectors);
  fill_pattern(a, kSeed);

  int blocks_per_sm = 0;
  ROOFCAST_GPU_CHECK(max_active_blocks(&blocks_per_sm, dram_copy_kernel, kThreads, 0));
  const int wave = context.sm_count * blocks_per_sm;
  const std::vector<int> grids = {wave, 2 * wave, 8 * wave};
  auto details = [&](int blocks) {
    return fmt::format("{} MiB, {} blocks x {} threads, 16-byte accesses, {} in flight per thread", bytes >> 20,
                       blocks, kThreads, kUnroll);
  };

  std::vector<Measurement> results;
  const uint32_t expected_sum = pattern_sum(static_cast<uint64_t>(vectors) * 4, kSeed);
  DeviceBuffer<uint32_t> block_sums(*std::max_element(grids.begin(), grids.end()));
  auto read = fastest_grid(context, grids, [&](int blocks) {
    Workload w{"dram_read_gbps", "DRAM read", "GB/s", static_cast<double>(bytes)};
    w.launch = [&, blocks] {
      dram_read_kernel<<<blocks, kThreads>>>(a.data(), vectors, block_sums.data());
      ROOFCAST_GPU_CHECK_LAUNCH("dram_read_kernel");
    };
    w.verify = [&, blocks]() -> std::string {
      uint32_t sum = 0;
      for (const uint32_t s : block_sums.to_host(blocks)) sum += s;
      return sum == expected_sum ? "" : fmt::format("sum {:#x}, expected {:#x}", sum, expected_sum);
    };
    w.details = details(blocks);
    return w;
  });
  results.push_back(read.measurement);

  auto write = fastest_grid(context, grids, [&](int blocks) {
    Workload w{"dram_write_gbps", "DRAM write", "GB/s", static_cast<double>(bytes)};
    w.launch = [&, blocks] {
      dram_write_kernel<<<blocks, kThreads>>>(b.data(), vectors, kSeed + blocks);
      ROOFCAST_GPU_CHECK_LAUNCH("dram_write_kernel");
    };
    w.verify = [&, blocks] { return check_mismatches(b, kSeed + blocks); };
    w.details = details(blocks);
    return w;
  });
  results.push_back(write.measurement);

  auto copy = fastest_grid(context, grids, [&](int blocks) {
    Workload w{"dram_copy_gbps", "DRAM copy (read + write)", "GB/s", 2.0 * bytes};
    b.poison();  // a vector the copy misses keeps the poison
    w.launch = [&, blocks] {
      dram_copy_kernel<<<blocks, kThreads>>>(a.data(), b.data(), vectors);
      ROOFCAST_GPU_CHECK_LAUNCH("dram_copy_kernel");
    };
    w.verify = [&] { return check_mismatches(b, kSeed); };
    w.details = details(blocks);
    return w;
  });
  results.push_back(copy.measurement);

  Workload memcpy_workload{"memcpy_d2d_gbps", "Runtime D2D copy (read + write)", "GB/s", 2.0 * bytes};
  memcpy_workload.launch = [&] { ROOFCAST_GPU_CHECK(copy_device_async(b.data(), a.data(), bytes, nullptr)); };
  memcpy_workload.verify = [&] { return check_mismatches(b, kSeed); };
  memcpy_workload.details = fmt::format("{} MiB per copy", bytes >> 20);
  b.poison();
  results.push_back(measure(memcpy_workload, context.policy));
  return results;
}

}  // namespace roofcast::gpu
