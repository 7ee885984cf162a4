// Launch overhead: back-to-back launches of an empty kernel (the rate the runtime and
// front end sustain), and the event-to-event time of one tiny kernel (one warp).
#include <fmt/format.h>

#include "characterizers.hpp"

namespace roofcast::gpu {

namespace {

constexpr int kLaunchesPerRepetition = 1000;
constexpr int kTinyThreads = 32;

__global__ void empty_kernel() {}

__global__ void tiny_kernel(uint32_t* out, uint32_t seed) { out[threadIdx.x] = seed + threadIdx.x * 3u; }

}  // namespace

std::vector<Measurement> characterize_launch(const Context& context) {
  std::vector<Measurement> results;
  Workload empty{"launch_overhead_us", "Empty-kernel launch (back to back)", "us", kLaunchesPerRepetition};
  empty.launch = [] {
    for (int i = 0; i < kLaunchesPerRepetition; ++i) empty_kernel<<<1, 1>>>();
    ROOFCAST_GPU_CHECK_LAUNCH("empty_kernel");
  };
  empty.details = fmt::format("{} launches of <<<1, 1>>> per repetition", kLaunchesPerRepetition);
  results.push_back(measure(empty, context.policy));

  DeviceBuffer<uint32_t> out(kTinyThreads);
  uint32_t seed = 1;
  Workload tiny{"tiny_kernel_us", "Tiny kernel (1 warp), one launch", "us", 1};
  tiny.launch = [&] {
    ++seed;
    tiny_kernel<<<1, kTinyThreads>>>(out.data(), seed);
    ROOFCAST_GPU_CHECK_LAUNCH("tiny_kernel");
  };
  tiny.verify = [&]() -> std::string {
    const auto host = out.to_host();
    for (uint32_t t = 0; t < kTinyThreads; ++t)
      if (host[t] != seed + t * 3u) return fmt::format("thread {} wrote {}, expected {}", t, host[t], seed + t * 3u);
    return "";
  };
  tiny.details = "<<<1, 32>>> writing 32 words, timed alone between two events";
  RunPolicy policy = context.policy;
  policy.repetitions = std::max(policy.repetitions, 50);
  results.push_back(measure(tiny, policy));
  return results;
}

}  // namespace roofcast::gpu
