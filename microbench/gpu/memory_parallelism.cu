// DRAM latency as a streaming kernel sees it, for the pipes model's memory-parallelism term
// (docs/pipes-model.md): by Little's law an SM with W warps, each with b bytes of loads and
// stores in flight, draws W x b / latency. A copy of 8-byte elements with one load and one
// store per thread per iteration (the store needs the load's data, so one load is in flight
// per warp) runs on one block of 8 warps per SM, far below the DRAM bandwidth; its bandwidth
// gives latency = SMs x W x b / bandwidth with b = 256 bytes per warp instruction.
#include <fmt/format.h>

#include <algorithm>

#include "characterizers.hpp"
#include "pattern.hpp"

namespace roofcast::gpu {

namespace {

constexpr int kThreads = 256;
constexpr uint32_t kSeed = 777u;
constexpr double kBytesPerWarpInstruction = 8.0 * 32;

__global__ void __launch_bounds__(kThreads) dependent_copy_kernel(const uint2* in, uint2* out, size_t elements) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
#pragma unroll 1
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < elements; i += stride) out[i] = in[i];
}

}  // namespace

std::vector<Measurement> characterize_memory_parallelism(const Context& context) {
  // 256 MiB per buffer (--quick: 64 MiB): far past L2, and over a millisecond at this load.
  const size_t bytes = std::min<size_t>(context.quick ? (64u << 20) : (256u << 20), context.free_bytes / 4) / 16 * 16;
  DeviceBuffer<uint4> in(bytes / 16), out(bytes / 16);
  fill_pattern(in, kSeed);
  const size_t elements = bytes / 8;
  const int blocks = context.sm_count;  // one block of 8 warps on each SM
  Workload w{"dram_probe_gbps", "DRAM copy, 8 warps per SM, 1 load in flight", "GB/s", 2.0 * bytes};
  w.launch = [&] {
    dependent_copy_kernel<<<blocks, kThreads>>>(reinterpret_cast<const uint2*>(in.data()),
                                                reinterpret_cast<uint2*>(out.data()), elements);
    ROOFCAST_GPU_CHECK_LAUNCH("dependent_copy_kernel");
  };
  w.verify = [&]() -> std::string {
    const unsigned long long wrong = count_pattern_mismatches(out, kSeed);
    return wrong ? fmt::format("{} of {} 16-byte vectors hold a wrong value", wrong, out.size()) : "";
  };
  w.details = fmt::format("{} MiB copied in 8-byte elements, {} blocks x {} threads", bytes >> 20, blocks, kThreads);
  const Measurement probe = measure(w, context.policy);

  // latency (ns) = SMs x warps per SM x bytes per warp instruction / bandwidth (bytes per ns).
  const double in_flight = static_cast<double>(blocks) * (kThreads / 32) * kBytesPerWarpInstruction;
  Measurement latency = probe;
  latency.key = "dram_latency_ns";
  latency.label = "DRAM latency under streaming (Little's law)";
  latency.unit = "ns";
  latency.value.median = in_flight / probe.value.median;
  latency.value.min = in_flight / probe.value.max;
  latency.value.max = in_flight / probe.value.min;
  latency.theoretical.reset();
  latency.details = fmt::format("{:.0f} bytes in flight over {} SMs / {:.0f} GB/s", in_flight, blocks, probe.value.median);
  return {probe, latency};
}

}  // namespace roofcast::gpu
