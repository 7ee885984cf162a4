#pragma once

#include <functional>
#include <string>
#include <vector>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/pipes_prediction.hpp"
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

// One model's prediction of a kernel's time on a device. Any model (or a variant of one with
// a term switched off, for an ablation) plugs into the validation as a KernelPredictor.
struct ModelPrediction {
  double predicted_ms = 0;
  Bound bound = Bound::compute;
};
using KernelPredictor = std::function<ModelPrediction(const KernelRecord&, const DeviceProfile&)>;

// The thesis model (predict_thesis on the kernel's thesis parameters).
KernelPredictor thesis_predictor();
// The multi-pipeline model with these terms (predict_pipes).
KernelPredictor pipes_predictor(const PipesTerms& terms = {});
// "thesis" or "pipes"; throws std::invalid_argument naming the model otherwise.
KernelPredictor predictor_named(const std::string& model);


struct JoinOptions {
  // Skip (kernel, device) pairs with no measured time instead of failing.
  bool allow_missing = false;
  // The model whose predictions are validated; empty = thesis_predictor().
  KernelPredictor predictor;
  // The model's own calibration from the reference device's measured time (target, reference,
  // measured ms there); empty = E_util x prediction (thesis eq. 5.13).
  std::function<double(const KernelRecord&, const DeviceProfile&, const DeviceProfile&, double)> calibrate;
};

// The join options that validate `model` ("thesis" or "pipes"): its predictor and its calibration.
JoinOptions join_options_for(const std::string& model);

struct JoinResult {
  std::string reference_device;
  std::vector<ValidatedPrediction> entries;  // profile order, then kernel, then device
  std::vector<std::string> skipped;      // "kernel on device" pairs left out (allow_missing)
  std::vector<std::string> notes;        // e.g. invocation counts that differ and were rescaled
};

// Same device name up to case, spaces, dashes and underscores ("NVIDIA H200" = "nvidia-h200").
bool same_device_name(const std::string& a, const std::string& b);

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
