#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "roofcast/model/kernel_parameters.hpp"
#include "roofcast/model/transfers.hpp"

namespace roofcast {

// Hardware counters of a kernel, totals over all its profiled invocations: the nine the
// thesis model needs, and any others the collector recorded, keyed as in the profile.
struct KernelCounters {
  ThesisCounters thesis;
  std::map<std::string, double> extra;
};

// A launch configuration a kernel ran with, as the collector records it.
struct LaunchShape {
  std::array<double, 3> grid{1, 1, 1};   // blocks in x, y, z
  std::array<double, 3> block{1, 1, 1};  // threads per block in x, y, z
  int64_t invocations = 0;               // launches with this shape
  int registers_per_thread = 0;          // 0 when not recorded
  double static_shared_bytes = 0;
  double dynamic_shared_bytes = 0;
  double shared_bytes_per_block() const { return static_shared_bytes + dynamic_shared_bytes; }
  double blocks() const { return grid[0] * grid[1] * grid[2]; }
  double threads_per_block() const { return block[0] * block[1] * block[2]; }
  double warps_per_block() const { return std::ceil(threads_per_block() / 32); }  // a partial warp is a warp
};

struct KernelRecord {
  std::string name;          // demangled, as the collector writes it
  std::string mangled_name;  // as the driver knows it, where recorded ("": not recorded)
  int64_t invocations = 1;
  std::optional<double> measured_ms;  // total time of those invocations on the reference device
  std::map<std::string, double> measured_ms_by_device;  // the same invocations timed on other devices
  std::vector<LaunchShape> launch_shapes;               // empty when not recorded
  // The reference's measured time per global-atomic L2 request, where a re-cut of the launch
  // (kernel_with_launch) changed the atomics per launch so that measured_ms over the requests
  // no longer gives it; unset: measured_ms / the requests (atomic_costs.hpp).
  std::optional<double> reference_ns_per_atomic_request;
  // The busy share of warp slots the reference's achieved occupancy was measured at, where a
  // re-cut of the launch replaced the profiled launch shapes; unset: from launch_shapes
  // (block_refill.hpp).
  std::optional<double> profiled_busy_slot_share;
  // A kernel is described either by raw counters or by parameters published that way.
  std::variant<KernelCounters, KernelParameters> description;
};

// The thesis parameters of a kernel: derived from its counters, or as published.
KernelParameters kernel_parameters_of(const KernelRecord& kernel);

struct KernelProfile {
  std::string reference_device;
  std::vector<KernelRecord> kernels;
  std::vector<TransferRecord> transfers;  // the application's copies, one record per kind
};

}  // namespace roofcast
