#pragma once
// The one place that times kernels: characterizers declare what a launch does (work,
// unit, how to check its outputs) and `measure` warms up, repeats, times with events,
// verifies and summarizes.

#include <functional>
#include <string>
#include <vector>

#include "device_buffer.hpp"
#include "roofcast/microbench/suite_result.hpp"

namespace roofcast::gpu {

// Written by thread 0 of each block at its start and end: SM cycles.
struct BlockClock {
  long long start_cycles;
  long long end_cycles;
};

__device__ __forceinline__ void record_block_start(BlockClock* clocks) {
  if (clocks && threadIdx.x == 0) clocks[blockIdx.x].start_cycles = cycle_counter();
}
// After the block's last warp: warps of one SM do not finish together.
__device__ __forceinline__ void record_block_end(BlockClock* clocks) {
  if (!clocks) return;
  __syncthreads();
  if (threadIdx.x == 0) clocks[blockIdx.x].end_cycles = cycle_counter();
}

// SM clock in MHz during one launch that lasted `elapsed_ms` (CUDA/HIP events): the cycles
// of its longest block over that time. The grids that record clocks are one wave, so every
// block spans nearly the whole launch; measured throughput over the theoretical rate at this
// clock is then work per SM cycle, whatever the clock did during the launch.
double clock_mhz_from_blocks(const std::vector<BlockClock>& blocks, double elapsed_ms);

// Thrown when a kernel's outputs are wrong: its numbers must not be reported.
class VerificationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct RunPolicy {
  int warmups = 2;
  int repetitions = 15;  // at least 10
};

// What one characterizer's launch does.
struct Workload {
  std::string key;    // device-profile key, e.g. "fp32_gflops"
  std::string label;  // "FP32 FMA"
  std::string unit;   // "GFLOP/s", "GIOP/s", "G/s", "GB/s": work / time; "us", "ns": time / work
  double work_per_launch = 0;  // operations or bytes (for "us", "ns": what the time is divided by)
  std::function<void()> launch;
  // Checks the outputs of the last launch; returns "" when right, else what is wrong.
  std::function<std::string()> verify;
  // Filled by the kernel when not null, read after the timed repetitions.
  DeviceBuffer<BlockClock>* clocks = nullptr;
  std::string details;
};

// Times `launch` alone: `warmups` untimed launches, then `repetitions` launches each
// between two events. Milliseconds per repetition.
// `after_each` (optional) gets each timed repetition's milliseconds, outside the timed region.
std::vector<double> time_repetitions(const std::function<void()>& launch, const RunPolicy& policy,
                                     const std::function<void(double)>& after_each = {});

// Times, verifies (throws VerificationError) and summarizes one workload.
microbench::Measurement measure(const Workload& workload, const RunPolicy& policy);

// Grows an iteration count until one launch lasts about `target_ms`: `launch_with(n)`
// runs the kernel with n iterations. Returns the count to use.
long long calibrate_iterations(const std::function<void(long long)>& launch_with, long long start,
                               double target_ms, long long max_iterations);

}  // namespace roofcast::gpu
