#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "roofcast/model/kernel_parameters.hpp"
#include "roofcast/model/thesis_prediction.hpp"

namespace roofcast {

// One kernel on one device: what a model predicted and what was measured there.
// Any model's predictions fit, so that model variants (an ablation) are scored alike.
struct ValidatedPrediction {
  std::string kernel;
  std::string device;
  std::string profile;  // where the kernel's counters came from (file or bundled id)
  double predicted_ms = 0;
  double measured_ms = 0;
  std::optional<double> corrected_ms;  // utilization-corrected prediction (thesis eq. 5.13)
  Bound bound = Bound::compute;
  KernelParameters parameters;         // the kernel's thesis parameters, for diagnosing misses
  int64_t invocations = 1;
  std::optional<double> E_util;        // measured / predicted on the reference device

  double error() const;  // thesis eq. 5.12: (predicted - measured) / measured
  double ape() const;    // |error|
  std::optional<double> corrected_error() const;
  std::optional<double> corrected_ape() const;
};

// One (kernel, device) pair of a validation file as charts read it (formats/validation_json.hpp),
// or of a prediction whose measured time is known.
struct AccuracyEntry {
  std::string kernel;
  std::string device;
  double predicted_ms = 0;
  double measured_ms = 0;
  std::optional<double> corrected_ms;
  std::string bound;  // "compute", "memory" or empty when not given

  double absolute_percentage_error() const;  // |predicted - measured| / measured x 100
};

// Accuracy of a set of predictions. Shares are fractions (0.25 = 25 %).
struct AccuracySummary {
  int kernels = 0;
  double median_ape = 0;
  double mean_ape = 0;
  double within_10 = 0;  // share of predictions with APE <= 10 %
  double within_25 = 0;
  double within_50 = 0;
  int over_predicted = 0;   // predicted > measured: the model says slower than it is
  int under_predicted = 0;  // predicted < measured: the model says faster than it is
};

// Summary of the given signed errors; `kernels` is 0 and the rest 0 when there are none.
AccuracySummary summarize_errors(std::span<const double> errors);

// Accuracy of one device's predictions (or, with an empty device, all of them), with and
// without the utilization correction.
struct AccuracyGroup {
  std::string device;  // empty for the overall group
  AccuracySummary uncorrected;
  // Over the group's entries that have a corrected time, excluding the reference device:
  // there the correction reproduces the measured time by construction, so it proves nothing.
  std::optional<AccuracySummary> corrected;
};

struct ValidationReport {
  std::string model = "thesis";
  std::string reference_device;
  std::vector<ValidatedPrediction> entries;
  std::vector<AccuracyGroup> devices;  // in the order devices first appear in `entries`
  AccuracyGroup overall;
};

ValidationReport summarize_validation(std::string model, std::string reference_device,
                                      std::vector<ValidatedPrediction> entries);

// What the kernel's parameters and the reference fit suggest about why its prediction
// missed: leads for the model's next terms, not conclusions. Empty when nothing stands out.
std::vector<std::string> miss_hints(const ValidatedPrediction& entry);

}  // namespace roofcast
