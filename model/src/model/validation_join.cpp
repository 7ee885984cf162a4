#include "roofcast/model/validation_join.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/model/prediction_checks.hpp"
#include "roofcast/model/thesis_prediction.hpp"

namespace roofcast {

namespace {

std::string quoted(const std::string& text) { return "\"" + text + "\""; }

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out;
}

// Where a kernel's time on a device was measured: the run's file and its time, rescaled.
struct Measurement {
  const MeasuredRun* run = nullptr;
  const MeasuredRun::Kernel* kernel = nullptr;
};

class MeasurementIndex {
 public:
  MeasurementIndex(const std::vector<MeasuredRun>& runs, const std::vector<DeviceProfile>& devices) {
    std::vector<std::string> device_names;
    for (const auto& device : devices) device_names.push_back(device.name);
    for (const auto& run : runs) {
      const DeviceProfile* device = nullptr;
      for (const auto& candidate : devices) {
        if (same_device_name(candidate.name, run.device)) {
          device = &candidate;
          break;
        }
      }
      if (!device)
        throw InputError(run.source + ": device " + quoted(run.device) + " matches no --device profile (" +
                         joined(device_names) + ")");
      runs_of_device_[device->name].push_back(&run);
      std::set<std::string> seen;
      for (const auto& kernel : run.kernels) {
        if (!seen.insert(kernel.name).second)
          throw InputError(run.source + ": kernel " + quoted(kernel.name) + ": listed twice");
        if (!(kernel.measured_ms > 0))
          throw InputError(run.source + ": kernel " + quoted(kernel.name) + ": measured_ms must be > 0");
        if (kernel.invocations < 1)
          throw InputError(run.source + ": kernel " + quoted(kernel.name) + ": invocations must be >= 1");
        auto& slot = by_device_and_kernel_[{device->name, kernel.name}];
        if (slot.run)
          throw InputError("kernel " + quoted(kernel.name) + ": measured twice on " + device->name + ", in " +
                           slot.run->source + " and " + run.source);
        slot = {&run, &kernel};
      }
    }
  }

  std::optional<Measurement> find(const std::string& device, const std::string& kernel) const {
    const auto it = by_device_and_kernel_.find({device, kernel});
    if (it == by_device_and_kernel_.end()) return std::nullopt;
    return it->second;
  }

  std::vector<std::string> run_sources(const std::string& device) const {
    std::vector<std::string> sources;
    if (const auto it = runs_of_device_.find(device); it != runs_of_device_.end()) {
      for (const MeasuredRun* run : it->second) sources.push_back(run->source);
    }
    return sources;
  }

 private:
  std::map<std::pair<std::string, std::string>, Measurement> by_device_and_kernel_;
  std::map<std::string, std::vector<const MeasuredRun*>> runs_of_device_;
};

std::string common_reference_device(const std::vector<SourcedProfile>& profiles) {
  const SourcedProfile* first = nullptr;
  for (const auto& p : profiles) {
    if (p.profile.reference_device.empty()) continue;
    if (!first) {
      first = &p;
    } else if (!same_device_name(first->profile.reference_device, p.profile.reference_device)) {
      throw InputError(p.source + ": reference_device " + quoted(p.profile.reference_device) + " differs from " +
                       first->source + "'s " + quoted(first->profile.reference_device) +
                       "; validate profiles of one reference device together");
    }
  }
  return first ? first->profile.reference_device : "";
}

void check_unique_kernel_names(const std::vector<SourcedProfile>& profiles) {
  std::map<std::string, const std::string*> source_of;
  for (const auto& p : profiles) {
    std::set<std::string> in_this;
    for (const auto& kernel : p.profile.kernels) {
      if (!in_this.insert(kernel.name).second)
        throw InputError(p.source + ": kernel " + quoted(kernel.name) + ": listed twice");
      const auto [it, inserted] = source_of.emplace(kernel.name, &p.source);
      if (!inserted)
        throw InputError(p.source + ": kernel " + quoted(kernel.name) + " is also in " + *it->second +
                         "; kernel names must be unique across the profiles validated together");
    }
  }
}

std::string missing_message(const MeasurementIndex& index, const SourcedProfile& profile, const std::string& kernel,
                            const std::string& device) {
  const auto sources = index.run_sources(device);
  if (sources.empty())
    return "kernel " + quoted(kernel) + " (" + profile.source + ") has no measured time on " + device +
           ": give a --measured file of that device";
  return joined(sources) + ": kernel " + quoted(kernel) + " missing (profiled in " + profile.source + ", device " +
         device + "); --allow-missing skips it";
}

}  // namespace

JoinResult join_predictions_with_measurements(const std::vector<SourcedProfile>& profiles,
                                              const std::vector<DeviceProfile>& devices,
                                              const std::vector<MeasuredRun>& runs, const DeviceProfile* reference,
                                              const JoinOptions& options) {
  JoinResult result;
  result.reference_device = common_reference_device(profiles);
  check_unique_kernel_names(profiles);
  const MeasurementIndex index(runs, devices);
  const std::shared_ptr<const Predictor> predictor = options.predictor ? options.predictor : make_predictor("thesis");

  std::set<std::string> profiled_kernels;
  for (const auto& sourced : profiles) {
    KernelProfile profile = sourced.profile;
    for (auto& kernel : profile.kernels) {
      profiled_kernels.insert(kernel.name);
      for (const auto& device : devices) {
        const auto measured = index.find(device.name, kernel.name);
        // The profile's own time on its reference device, whatever spelling the device has.
        if (!measured && kernel.measured_ms && !kernel.measured_ms_by_device.contains(device.name) &&
            !profile.reference_device.empty() && same_device_name(device.name, profile.reference_device))
          kernel.measured_ms_by_device[device.name] = *kernel.measured_ms;
        if (!measured) continue;
        double ms = measured->kernel->measured_ms;
        if (measured->kernel->invocations != kernel.invocations) {
          ms = ms / measured->kernel->invocations * kernel.invocations;
          result.notes.push_back(measured->run->source + ": kernel " + quoted(kernel.name) + " ran " +
                                 std::to_string(measured->kernel->invocations) + " times, profiled " +
                                 std::to_string(kernel.invocations) + ": compared per launch");
        }
        kernel.measured_ms_by_device[device.name] = ms;
        // A timing run on the reference device also gives E_util when the profile has no time.
        if (!kernel.measured_ms && !result.reference_device.empty() &&
            same_device_name(device.name, result.reference_device))
          kernel.measured_ms = ms;
      }
    }

    for (const auto& kernel : profile.kernels) {
      const KernelParameters parameters = kernel_parameters_of(kernel);
      std::optional<double> E_util;
      if (reference && kernel.measured_ms) {
        const double on_reference = predictor->predict(kernel, *reference).predicted_ms;
        if (on_reference > 0 && std::isfinite(on_reference)) E_util = utilization_factor(*kernel.measured_ms, on_reference);
      }
      for (const auto& device : devices) {
        // Where measured files of a device are given, they alone say what was measured there.
        const bool has_runs = !index.run_sources(device.name).empty();
        const auto measured = kernel.measured_ms_by_device.find(device.name);
        if (measured == kernel.measured_ms_by_device.end() || (has_runs && !index.find(device.name, kernel.name))) {
          if (!options.allow_missing) throw InputError(missing_message(index, sourced, kernel.name, device.name));
          result.skipped.push_back(kernel.name + " on " + device.name);
          continue;
        }
        const ModelPrediction p = predictor->predict(kernel, device);
        if (!(p.predicted_ms > 0) || !std::isfinite(p.predicted_ms)) {
          result.notes.push_back(kernel.name + " on " + device.name + ": predicted " + std::to_string(p.predicted_ms) +
                                 " ms, the model counts no work for it: left out");
          continue;
        }
        ValidatedPrediction entry;
        entry.kernel = kernel.name;
        entry.device = device.name;
        entry.profile = sourced.source;
        entry.predicted_ms = p.predicted_ms;
        entry.measured_ms = measured->second;
        if (E_util)
          entry.corrected_ms = predictor->calibrated_ms(kernel, device, *reference, *kernel.measured_ms);
        entry.bound = p.bound;
        entry.parameters = parameters;
        entry.invocations = kernel.invocations;
        entry.E_util = E_util;
        result.entries.push_back(std::move(entry));
      }
    }
  }

  for (const auto& run : runs) {
    int unprofiled = 0;
    for (const auto& kernel : run.kernels) unprofiled += profiled_kernels.contains(kernel.name) ? 0 : 1;
    if (unprofiled > 0)
      result.notes.push_back(run.source + ": " + std::to_string(unprofiled) +
                             " measured kernels are in no profile (ignored)");
  }
  return result;
}

}  // namespace roofcast
