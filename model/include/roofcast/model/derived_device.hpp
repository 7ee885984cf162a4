#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/gpu_specs.hpp"

namespace roofcast {

// Device profiles for GPUs nobody here has benched (docs/derived-devices.md): each bench key of a
// measured profile (the reference) times the ratio of the two GPUs' published capacities for
// what limits that key, so the reference's achieved/peak carries over (fp32 at ~100 %, DRAM at
// ~95 % of the datasheet, latencies in cycles, block dispatch per SM and clock...).

// A measured device profile that lends its achieved/peak.
struct MeasuredReference {
  std::string id;  // its file name without .json: "h100-sxm-mps50"
  DeviceProfile profile;
  std::string device_name;      // the driver's name of the GPU ("NVIDIA H100 80GB HBM3"), also under MPS
  double max_sm_clock_mhz = 0;  // the GPU's maximum SM clock; 0 when the profile does not say
  double mps_percentage = 100;  // the MPS share it was measured under
};

struct DerivationRequest {
  std::string spec_id;          // a GPU of the table
  double mps_percentage = 100;  // an MPS partition of that share (NVIDIA only)
  // A measured profile id whose GPU lends its achieved/peak (its partition nearest the share is
  // taken); "" takes the nearest: the same GPU, else the same architecture, else the nearest one.
  std::string fractions_from;
};

// What limits a bench key, and so how it scales from the reference GPU to the target.
enum class Scaling {
  sm_rate,    // SMs x clock x the architecture's per-SM rate (pipes, FMA, shared memory, L1, block dispatch)
  tensor,     // the datasheet's dense tensor peak of that data type
  dram,       // the datasheet's memory bandwidth (the whole GPU's, also for a partition)
  l2,         // L2 size (its slices) x clock: L2 bandwidth and its atomic units
  clock,      // clock alone: one L2 slice's atomics on one line or word
  cycles,     // latencies: the same cycles at the target's clock
  fixed,      // host-side times: launch overhead, kernel floor
  host_link,  // pinned and pageable copies: the host link's bandwidth
  // An MPS partition's DRAM and L2 rates: the target's whole-GPU rate (dram or l2 above) and its
  // SMs' own limit, in the knee the pipes model combines DRAM and parallelism with,
  // 1 / rate^2 = 1 / whole^2 + 1 / SMs'^2; the SMs' limit per SM and clock from the reference
  // partition and the reference's whole GPU, solved from the same knee.
  partition_knee,
};
std::string_view to_string(Scaling scaling);

// One throughput key of a derived profile: reference value x ratio = value.
struct DerivedKey {
  std::string key;
  Scaling scaling;
  std::string reference_key;  // the reference's key it comes from (a wgmma peak for a full-rate mma.sync one)
  double reference_value = 0;
  double ratio = 0;
  double value = 0;
};

struct DerivedDevice {
  DeviceProfile profile;  // named "<spec name>[ (MPS p%)] (derived)", `derivation` set
  const GpuSpec* gpu = nullptr;
  const MeasuredReference* reference = nullptr;
  double mps_percentage = 100;
  double sm_clock_ratio = 0;  // the reference's clock in its benches over its maximum, applied to the target's boost
  std::vector<DerivedKey> keys;
  std::vector<std::string> notes;  // what was assumed or left out, one line each
};

// Throws InputError for an unknown GPU, a reference that is not a measured profile of a GPU of
// the table, an MPS share outside (0, 100] or on an AMD GPU, or no reference at all.
DerivedDevice derive_device(const GpuSpecTable& table, const std::vector<MeasuredReference>& references,
                            const DerivationRequest& request);

}  // namespace roofcast
