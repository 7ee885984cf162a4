#include "runner.hpp"

#include <algorithm>
#include <cmath>

namespace roofcast::gpu {

double clock_mhz_from_blocks(const std::vector<BlockClock>& blocks, double elapsed_ms) {
  long long longest = 0;
  for (const auto& b : blocks) longest = std::max(longest, b.end_cycles - b.start_cycles);
  return elapsed_ms > 0 ? longest / (elapsed_ms * 1e3) : 0;
}

std::vector<double> time_repetitions(const std::function<void()>& launch, const RunPolicy& policy,
                                     const std::function<void(double)>& after_each) {
  EventPair events;
  for (int i = 0; i < policy.warmups; ++i) launch();
  ROOFCAST_GPU_CHECK(device_synchronize());
  std::vector<double> times;
  for (int i = 0; i < policy.repetitions; ++i) {
    events.start();
    launch();
    events.stop();
    times.push_back(events.elapsed_ms());
    if (after_each) after_each(times.back());
  }
  ROOFCAST_GPU_CHECK(device_synchronize());
  return times;
}

microbench::Measurement measure(const Workload& workload, const RunPolicy& policy) {
  // The SM clock of every timed repetition: the clock can change between launches (power limits).
  std::vector<double> clock_mhz;
  std::function<void(double)> read_clock;
  if (workload.clocks)
    read_clock = [&](double elapsed_ms) {
      if (const double mhz = clock_mhz_from_blocks(workload.clocks->to_host(), elapsed_ms); mhz > 0)
        clock_mhz.push_back(mhz);
    };
  const std::vector<double> times = time_repetitions(workload.launch, policy, read_clock);
  if (workload.verify) {
    const std::string problem = workload.verify();
    if (!problem.empty()) throw VerificationError(workload.label + " (" + workload.key + "): " + problem);
  }
  microbench::Measurement m;
  m.key = workload.key;
  m.label = workload.label;
  m.unit = workload.unit;
  m.time_ms = microbench::summarize(times);
  m.work_per_launch = workload.work_per_launch;
  m.verified = static_cast<bool>(workload.verify);
  m.details = workload.details;
  if (workload.unit == "us" || workload.unit == "ns") {  // time per unit of work
    const double per_ms = workload.unit == "us" ? 1e3 : 1e6;
    std::vector<double> per_work;
    for (const double t : times) per_work.push_back(t * per_ms / workload.work_per_launch);
    m.value = microbench::summarize(per_work);
  } else {
    // work per millisecond / 1e6 = giga-units per second
    m.value = microbench::rates_from_times(times, workload.work_per_launch, 1e6);
  }
  if (!clock_mhz.empty()) m.sm_clock_mhz = microbench::summarize(clock_mhz).median;
  return m;
}

long long calibrate_iterations(const std::function<void(long long)>& launch_with, long long start,
                               double target_ms, long long max_iterations) {
  EventPair events;
  long long n = std::max(1LL, start);
  launch_with(n);  // first launch: module load and clock ramp-up stay out of the estimate
  ROOFCAST_GPU_CHECK(device_synchronize());
  for (int attempt = 0; attempt < 20; ++attempt) {
    events.start();
    launch_with(n);
    events.stop();
    const double ms = events.elapsed_ms();
    if (ms >= 0.5 * target_ms || n >= max_iterations) {
      const double scaled = std::ceil(n * target_ms / std::max(ms, 1e-3));
      return std::clamp(static_cast<long long>(scaled), 1LL, max_iterations);
    }
    n = std::min(max_iterations, n * std::max(2LL, static_cast<long long>(0.5 * target_ms / std::max(ms, 1e-3))));
  }
  return n;
}

}  // namespace roofcast::gpu
