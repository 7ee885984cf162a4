#pragma once

#include <memory>
#include <string>
#include <vector>

#include "roofcast/model/device_name.hpp"
#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/predictor.hpp"
#include "roofcast/model/validation.hpp"

namespace roofcast {

// A kernel profile and the file (or bundled id) it came from, named in errors.
struct SourcedProfile {
  std::string source;
  KernelProfile profile;
};

// The measured times of one program run on one device (a measured-time file).
struct MeasuredRun {
  struct Kernel {
    std::string name;
    int64_t invocations = 1;
    double measured_ms = 0;  // total over the invocations
  };
  std::string source;
  std::string device;  // must name one of the devices validated
  std::vector<Kernel> kernels;
};

struct JoinOptions {
  // Skip (kernel, device) pairs with no measured time instead of failing.
  bool allow_missing = false;
  // The model whose predictions (and calibration) are validated; null: the thesis model.
  std::shared_ptr<const Predictor> predictor;
};

struct JoinResult {
  std::string reference_device;
  std::vector<ValidatedPrediction> entries;  // profile order, then kernel, then device
  std::vector<std::string> skipped;      // "kernel on device" pairs left out (allow_missing)
  std::vector<std::string> notes;        // e.g. invocation counts that differ and were rescaled
};


// Predicts every kernel of every profile on every device with the options' model and pairs
// each prediction with its measured time: from the runs of that device (a kernel they do
// not list is missing), or, on a device with no runs, from the profile's own measured
// times (measured_ms_by_device, or measured_ms on its reference device). A run with a different invocation count is rescaled to the
// profile's (same mean time per launch). With `reference` (the profiles' reference device),
// adds the utilization correction. A prediction that is no positive time (a kernel with no
// counted work) is left out with a note. Throws InputError naming the file and kernel at fault.
JoinResult join_predictions_with_measurements(const std::vector<SourcedProfile>& profiles,
                                              const std::vector<DeviceProfile>& devices,
                                              const std::vector<MeasuredRun>& runs, const DeviceProfile* reference,
                                              const JoinOptions& options = {});

}  // namespace roofcast
