#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/kernel_parameters.hpp"
#include "roofcast/model/predictor.hpp"
#include "roofcast/model/thesis_prediction.hpp"

namespace roofcast {

// One model's prediction of one kernel of a profile on one device, with what is known to check it.
struct KernelPrediction {
  std::string kernel;
  std::string device;
  std::string device_id;  // DeviceProfile::id
  int64_t invocations = 1;  // the kernel's profiled launches: every time here is their total
  // The kernel's thesis parameters (eqs. 4.1-4.8): its type, work and intensity, whatever the model.
  KernelParameters parameters;
  ModelPrediction prediction;             // the model's time, bound, limiter and details
  std::optional<double> measured_ms;      // the kernel's measured time on this device, when known
  std::optional<double> error;            // prediction_error(predicted, measured)
  std::optional<double> E_util;           // measured / predicted on the reference device
  std::optional<double> corrected_ms;     // the model's calibration (thesis: E_util x predicted)
  std::optional<double> corrected_error;  // prediction_error(corrected, measured)

  double predicted_ms() const { return prediction.predicted_ms; }
  double per_launch(double total_ms) const { return total_ms / static_cast<double>(invocations); }
};

struct DeviceTotal {
  std::string device;
  std::string device_id;  // DeviceProfile::id
  double predicted_ms = 0;
  std::optional<double> measured_ms;   // only when every kernel's measured time is known
  std::optional<double> corrected_ms;  // only when every kernel could be corrected
  int memory_bound_kernels = 0;
  int compute_bound_kernels = 0;
};

struct ProfilePrediction {
  std::vector<KernelPrediction> kernels;  // kernel-major: every device for kernel 0, then kernel 1...
  std::vector<DeviceTotal> totals;        // one per device, in the order given
};

// The kernel's measured time on `device`: from measured_ms_by_device, or its measured_ms when
// `device` is the profile's reference device (names matched by same_device_name); nullopt when
// not measured there.
std::optional<double> measured_on(const KernelRecord& kernel, const std::string& device,
                                  const std::string& reference_device);

// Predicts every kernel of `profile` on every device with `predictor`. With `reference` (the
// profile's reference device), applies the model's calibration (thesis: the utilization
// correction, eq. 5.13) to each kernel that has a measured time on it.
ProfilePrediction predict_profile(const Predictor& predictor, const KernelProfile& profile,
                                  const std::vector<DeviceProfile>& devices, const DeviceProfile* reference = nullptr);

// The same, one prediction at a time: each goes to `visit` as it is made (kernel-major), and
// only the totals are returned. For outputs too large to hold (100,000 kernels x 10 devices).
std::vector<DeviceTotal> predict_profile(const Predictor& predictor, const KernelProfile& profile,
                                         const std::vector<DeviceProfile>& devices, const DeviceProfile* reference,
                                         const std::function<void(KernelPrediction&&)>& visit);

// predict_profile on every core, for callers that hold every prediction (rank, report): `trim`
// (may be empty) sees each prediction before it is stored, to drop what the caller does not read
// (the pipes details of a million predictions do not fit in memory). The same predictions,
// totals and first error (in kernel order) as predict_profile.
ProfilePrediction predict_profile_on_every_core(const Predictor& predictor, const KernelProfile& profile,
                                                const std::vector<DeviceProfile>& devices,
                                                const DeviceProfile* reference,
                                                const std::function<void(KernelPrediction&)>& trim);

// Kernels [first, last) of `profile` only, as predict_profile predicts them, without totals: one
// range per thread (`predict` on 100,000 kernels); their totals go through ProfileTotals.
// `prepared`: predictor.prepare(devices), made once for many ranges, or null.
void predict_kernels(const Predictor& predictor, const KernelProfile& profile, size_t first, size_t last,
                     const std::vector<DeviceProfile>& devices, const DeviceProfile* reference,
                     const std::function<void(KernelPrediction&&)>& visit,
                     const Predictor::PreparedDevices* prepared = nullptr);

// What a prediction adds to its device's total.
struct TotalsEntry {
  double predicted_ms = 0;
  Bound bound = Bound::memory;
  std::optional<double> measured_ms;
  std::optional<double> corrected_ms;

  static TotalsEntry of(const KernelPrediction& p) {
    return {p.predicted_ms(), p.prediction.bound, p.measured_ms, p.corrected_ms};
  }
};

// predict_profile_on_every_core keeping of each prediction only what its device's total and a
// ranking read (kernel-major): what `rank` holds of a million predictions.
std::vector<TotalsEntry> predict_entries_on_every_core(const Predictor& predictor, const KernelProfile& profile,
                                                       const std::vector<DeviceProfile>& devices,
                                                       const DeviceProfile* reference);

// The totals per device of predict_profile. Each device's predictions must be added in kernel
// order, whichever thread made them: the sums then come out the same to the last bit.
class ProfileTotals {
 public:
  // `corrected`: predictions are calibrated (a reference device was given).
  ProfileTotals(const std::vector<DeviceProfile>& devices, bool corrected);
  void add(size_t device, const TotalsEntry& entry);
  // Adds `count` predictions (kernel-major, `entry(i)` the i-th's), the devices' sums on every core.
  void add_all(size_t count, const std::function<TotalsEntry(size_t)>& entry);
  std::vector<DeviceTotal> finish() &&;

 private:
  struct DeviceSum {
    DeviceTotal total;
    double measured_ms = 0, corrected_ms = 0;
    bool all_measured = true, all_corrected = false, any = false;
  };
  std::vector<DeviceSum> sums_;
};

}  // namespace roofcast
