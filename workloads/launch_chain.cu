// A chain of a hundred tiny dependent launches: one block of 32 threads per launch, each launch
// updating the values the previous one wrote (same stream, so each waits for the last).
// Every kernel runs for a few microseconds: launch latency and the kernel's own fixed
// costs are its time, as in a solver stepping through many small kernels.
#include <cmath>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr unsigned kLanes = 32;
constexpr float kScale = 0.5f;  // each step halves and adds the step's increment

__global__ void tiny_step(float* __restrict__ values, float increment) {
  values[threadIdx.x] = fmaf(values[threadIdx.x], kScale, increment);
}

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "launch_chain", "a hundred dependent one-block launches");
  // A hundred: profiling costs ~0.24 s per launch with the full set's 19 replay passes.
  const int chain = options.small ? 32 : 100;
  print_header("launch_chain", std::to_string(chain) + " dependent launches of 1 block x 32 threads");

  std::vector<float> values(kLanes), increments(chain);
  fill_uniform(values, -1.0f, 1.0f, fresh_seed());
  fill_uniform(increments, 0.1f, 1.0f, fresh_seed() + 1);
  DeviceBuffer<float> values_d(kLanes);
  values_d.upload(values);
  for (int step = 0; step < chain; ++step) tiny_step<<<1, kLanes>>>(values_d.get(), increments[step]);
  ROOFCAST_CHECK_LAUNCH();

  const std::vector<float> got = values_d.download();
  size_t wrong = 0;
  for (unsigned lane = 0; lane < kLanes; ++lane) {
    float x = values[lane];
    for (int step = 0; step < chain; ++step) x = std::fma(x, kScale, increments[step]);
    wrong += got[lane] != x;  // one rounding per step on both sides: bit-exact
  }
  const bool ok = report_check("tiny_step", wrong == 0,
                               std::to_string(wrong) + " of 32 lanes differ from host after " +
                                   std::to_string(chain) + " launches");

  // Each timed launch continues the chain.
  time_kernel("tiny_step", options, [&] { tiny_step<<<1, kLanes>>>(values_d.get(), increments[0]); });
  return ok ? 0 : 1;
}
