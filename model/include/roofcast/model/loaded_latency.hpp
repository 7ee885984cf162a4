#pragma once

#include "roofcast/model/device_rates.hpp"
#include "roofcast/model/kernel_work.hpp"

namespace roofcast {

// The launch the loads belong to, for the slowest-line latency below.
struct LaunchLoad {
  bool one_wave = false;  // every launch shape fits on the target at once (no block waits for a slot)
  double busy_sms = 0;    // SMs holding blocks (at most the target's)
};

// The latency one global load of the kernel sees on the target, under the load the kernel's own
// resident warps put on their SM's path to L2 (docs/pipes-model.md, "Loaded latency"). All
// values in nanoseconds; 0 where the inputs are missing (then the caller keeps its own).
struct LoadedLatency {
  // Unloaded, for the kernel's L1/L2/DRAM hit mix: an L2 hit takes the L2 latency plus the time
  // its warp's sectors need to come back through the SM's share of the L2 bandwidth (one after
  // another), a DRAM access the DRAM chase's latency for that many lines.
  double unloaded_ns = 0;
  // Little's law: an SM with B bytes of loads in flight and b bytes per ns to L2 gets the last
  // of them back no sooner than B / b after the first left.
  double bandwidth_ns = 0;
  // A warp load waits for the slowest of the lines it touches (docs/pipes-model.md, "The slowest
  // line"); 0 where the profile lacks the counters for it.
  double slowest_ns = 0;
  // Bytes the resident warps keep in flight over what the memory system holds unloaded (the
  // larger of the SM's share of L2 and the DRAM's bandwidth x latency): below 1, nothing queues.
  double load = 0;
  bool slowest_applies = false;  // a launch of one wave whose loads do not queue: slowest_ns holds
  double ns = 0;                 // what the memory cap uses
};

LoadedLatency loaded_load_latency(const WarpWaits& waits, const DeviceRates& rates, double sm_count,
                                  double resident_warps_per_sm, const LaunchLoad& launch = {});

}  // namespace roofcast
