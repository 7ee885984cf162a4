#pragma once

#include <string>
#include <vector>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/device_rates.hpp"
#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/kernel_work.hpp"
#include "roofcast/model/note.hpp"

namespace roofcast {

// One part of a warp's time per instruction on the target, in nanoseconds.
struct LatencyPart {
  std::string name;  // "issue", "dependency", "shared/MUFU", "memory", "barrier", "branch/fetch"
  double ns = 0;
};

// The latency term of the multi-pipeline model (docs/pipes-model.md): a kernel cannot finish
// before its warps' own serial work. Each resident warp needs `ns_per_instruction` for each of
// its `instructions_per_warp` instructions (issue plus the latencies it waited for on the
// reference, converted to the target), whatever the other warps do, so each wave of resident
// blocks takes at least that; the busiest SM runs `waves` of them.
struct LatencyTerm {
  bool modelled = false;  // false: inputs missing, `note` says which
  Note note;
  double instructions_per_warp = 0;
  std::vector<LatencyPart> parts;  // per instruction, on the target
  double ns_per_instruction = 0;   // the sum of the parts
  // Where the reference's measured time capped the parts (`reference_time`): their sum before
  // the cap; 0 where not capped.
  double uncapped_ns_per_instruction = 0;
  double waves = 0;                // per launch on the busiest SM, mean over the launches
  // Volkov's view, of the most common launch shape: warps resident on the busiest scheduler,
  // and the warps one scheduler needs to hide the latency (ns per instruction / issue interval).
  double resident_warps_per_scheduler = 0;
  double warps_to_hide_latency = 0;
  // The latency of one global load on the target under its warps' own load (0: not modelled).
  double loaded_load_ns = 0;
  std::string kind;  // what dominates the latency: "memory", "fp64 dependency", "barrier"...
  double ms = 0;     // the kernel's time at this bound, all launches
  // Launches with at least one full wave and a partial one after it: the partial waves' share of
  // `ms` (one wave each, not refilled), and the share of all launched blocks they hold (0 where
  // no launch has such a tail).
  double tail_ms = 0;
  double tail_block_share = 0;
};

// `waits`: what the kernel's warps waited for, the profile's (work.waits) or those its timed run
// would have had (data that stays in L2 hits there).
// `loaded_latency`: each load's latency is the one the kernel's resident warps see on the target
// (loaded_latency.hpp) rather than an unloaded one from the DRAM warp chase's spread.
// `block_refill`: a launch shape of several waves keeps only steady_busy_slot_share of its slots
// busy (block_refill.hpp), so its waves take 1 / that share longer.
// `reference_time`: one warp's serial work is at most what a launch took on the reference (its
// `measured_ms`), the parts scaled down to that where they exceed it.
LatencyTerm latency_term_of(const KernelRecord& kernel, const KernelWork& work, const WarpWaits& waits,
                            const DeviceProfile& device, const DeviceRates& rates, bool loaded_latency = false,
                            bool block_refill = false, bool reference_time = false);

}  // namespace roofcast
