#pragma once

#include <optional>
#include <string>
#include <vector>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/profile_prediction.hpp"

namespace roofcast {

// A kernel's part of an application's predicted kernel time on one device.
struct KernelTimeShare {
  std::string kernel;
  double predicted_ms = 0;
  double share = 0;  // of the device's total kernel time
  Bound bound = Bound::compute;
};

// The predicted time of one kind of copy an application makes, on one device.
struct TransferPrediction {
  std::string key;  // transfer_key(): "h2d_pinned"...
  double count = 0;
  double bytes = 0;
  std::optional<double> predicted_ms;  // nullopt when the device has no fit for this key
  std::optional<double> measured_ms;   // on the profile's reference device, when recorded
};

// One device's predicted application time: kernels + launch gaps + copies.
struct DeviceRank {
  std::string device;
  std::string device_id;  // DeviceProfile::id
  bool derived = false;  // the device profile is derived from a spec sheet, not measured
  double kernels_ms = 0;
  // Where a kernel's predicted invocation is shorter than the device's back-to-back launch
  // time (`launch_overhead_us`), the difference, summed over invocations; 0 when unknown.
  double launch_gaps_ms = 0;
  double transfers_ms = 0;
  std::vector<TransferPrediction> transfers;
  std::vector<std::string> missing_transfer_fits;  // keys the profile copies with and the device lacks
  double total_ms = 0;
  double transfer_share = 0;  // transfers_ms / total_ms
  double speedup_vs_slowest = 0;
  // For a device whose kernels (with launch gaps) are faster than the first-ranked device's but
  // whose copies make its total slower: the kernel iterations per transfer from which it becomes
  // the faster choice, (transfers - first's transfers) / (first's kernels+gaps - kernels+gaps).
  std::optional<double> break_even_iterations;
  std::vector<KernelTimeShare> top_kernels;  // the longest first
};

// Devices ordered by predicted application time, fastest first. `prediction` comes from
// predict_profile(profile, devices); `top` longest kernels are kept per device.
std::vector<DeviceRank> rank_devices(const ProfilePrediction& prediction, const KernelProfile& profile,
                                     const std::vector<DeviceProfile>& devices, size_t top = 3);
// The same from each prediction's time and bound only (kernel-major, as predict_profile orders
// them): what `rank` keeps of a million predictions.
std::vector<DeviceRank> rank_devices(const std::vector<TotalsEntry>& predictions, const KernelProfile& profile,
                                     const std::vector<DeviceProfile>& devices, size_t top = 3);

}  // namespace roofcast
