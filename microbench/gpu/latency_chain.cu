#include <fmt/format.h>

#include "latency.hpp"

namespace roofcast::gpu {

Measurement measure_chain(const Context& context, const Chain& chain) {
  DeviceBuffer<BlockClock> clock(1);
  ChainSteps steps;
  auto run = [&](long long trips) {
    chain.launch(trips, clock.data());
    steps.last_launch = trips * kStepsPerTrip;
    steps.total += steps.last_launch;
  };
  const long long trips = calibrate_iterations(run, 1, context.target_ms / 2, chain.max_trips);
  Workload w{chain.key, chain.label, "ns", static_cast<double>(trips) * kStepsPerTrip * chain.operations_per_step};
  w.launch = [&] { run(trips); };
  w.verify = [&] { return chain.verify(steps); };
  w.clocks = &clock;
  Measurement m = measure(w, context.policy);
  m.details = fmt::format("{}; {:.1f} cycles at {:.0f} MHz; {} x {} steps per launch", chain.what,
                          m.value.median * m.sm_clock_mhz / 1e3, m.sm_clock_mhz, trips, kStepsPerTrip);
  return m;
}

}  // namespace roofcast::gpu
