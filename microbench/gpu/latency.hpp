#pragma once
// Latency characterizers (latency_arithmetic.cu, latency_memory.cu): one warp (or one thread)
// runs a chain of dependent operations, kStepsPerTrip unrolled per trip of a run-time trip
// count; time per operation is the latency. `measure_chain` sizes, times and verifies one.

#include <functional>
#include <string>

#include "characterizers.hpp"

namespace roofcast::gpu {

inline constexpr int kStepsPerTrip = 64;

// How many dependent steps have run, for the check after the timed launches.
struct ChainSteps {
  long long last_launch = 0;  // steps of the last launch (chains that restart every launch)
  long long total = 0;        // steps of every launch so far (chains that carry on)
};

struct Chain {
  std::string key;    // device-profile key, e.g. "latency_ffma_ns"
  std::string label;  // "FFMA dependent-issue latency"
  std::string what;   // SASS and configuration, for `details`
  // Runs `trips` x kStepsPerTrip dependent steps (one block), recording its clock.
  std::function<void(long long trips, BlockClock* clock)> launch;
  // "" when the outputs of the launches so far are right, else what is wrong.
  std::function<std::string(const ChainSteps& steps)> verify;
  double operations_per_step = 1;  // independent operations per step (1 for a latency)
  long long max_trips = 1 << 24;
};

// Nanoseconds per operation (unit "ns"), the kernel's SM clock, and the cycles per
// operation in `details`. Launches last about half the context's target time.
Measurement measure_chain(const Context& context, const Chain& chain);

}  // namespace roofcast::gpu
