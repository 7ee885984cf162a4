#include "roofcast/model/profile_prediction.hpp"

#include <algorithm>
#include <memory>
#include <variant>

#include "roofcast/model/device_name.hpp"
#include "roofcast/model/for_each_parallel.hpp"
#include "roofcast/model/prediction_checks.hpp"

namespace roofcast {

namespace {

// measured_on, with whether `device` is the reference device known already.
std::optional<double> measured_on(const KernelRecord& kernel, const std::string& device, bool is_reference) {
  if (const auto it = kernel.measured_ms_by_device.find(device); it != kernel.measured_ms_by_device.end())
    return it->second;
  for (const auto& [name, ms] : kernel.measured_ms_by_device)
    if (same_device_name(name, device)) return ms;
  if (kernel.measured_ms && is_reference) return kernel.measured_ms;
  return std::nullopt;
}

}  // namespace

std::optional<double> measured_on(const KernelRecord& kernel, const std::string& device,
                                  const std::string& reference_device) {
  return measured_on(kernel, device, same_device_name(device, reference_device));
}

void predict_kernels(const Predictor& predictor, const KernelProfile& profile, size_t first, size_t last,
                     const std::vector<DeviceProfile>& devices, const DeviceProfile* reference,
                     const std::function<void(KernelPrediction&&)>& visit,
                     const Predictor::PreparedDevices* prepared) {
  // What depends only on the kernel, kept while its devices are predicted (kernel-major order).
  size_t current = SIZE_MAX;
  KernelParameters parameters;
  std::optional<double> E_util;
  std::optional<ModelPrediction> on_reference;
  std::vector<bool> is_reference(devices.size());
  for (size_t d = 0; d < devices.size(); ++d) is_reference[d] = same_device_name(devices[d].name, profile.reference_device);
  // One prediction object: a visitor that does not keep it leaves its names' storage to the next
  // (a million predictions of 100,000 kernels x 10 devices).
  KernelPrediction p;
  predictor.predict_range(profile.kernels, first, last, devices, prepared, [&](size_t k, size_t d,
                                                                               ModelPrediction&& prediction) {
    const KernelRecord& kernel = profile.kernels[k];
    if (k != current) {
      current = k;
      parameters = kernel_parameters_of(kernel);
      E_util.reset();
      on_reference.reset();
      if (reference && kernel.measured_ms) {
        on_reference = predictor.predict(kernel, *reference);
        E_util = utilization_factor(*kernel.measured_ms, on_reference->predicted_ms);
      }
    }
    // Every field as a new prediction has it, but for the names' storage.
    std::string kernel_name = std::move(p.kernel), device_name = std::move(p.device), device_id = std::move(p.device_id);
    p = KernelPrediction{};
    p.kernel = std::move(kernel_name);
    p.device = std::move(device_name);
    p.device_id = std::move(device_id);
    p.kernel.assign(kernel.name);
    p.device.assign(devices[d].name);
    p.device_id.assign(devices[d].id);
    p.invocations = std::max<int64_t>(kernel.invocations, 1);
    p.parameters = parameters;
    p.prediction = std::move(prediction);
    p.measured_ms = measured_on(kernel, devices[d].name, is_reference[d]);
    if (p.measured_ms) p.error = prediction_error(p.predicted_ms(), *p.measured_ms);
    if (E_util) {
      p.E_util = E_util;
      p.corrected_ms = predictor.calibrated_ms(kernel, devices[d], p.prediction, *on_reference, *kernel.measured_ms);
      check_predicted_value(*p.corrected_ms, "corrected_ms", kernel.name, p.device);
      if (p.measured_ms) p.corrected_error = prediction_error(*p.corrected_ms, *p.measured_ms);
    }
    visit(std::move(p));
    // Unless the visitor kept a share of the pipes model's details, the model reuses their storage next.
    if (auto* details = std::get_if<std::shared_ptr<const PipesPrediction>>(&p.prediction.details)) details->reset();
  });
}

ProfileTotals::ProfileTotals(const std::vector<DeviceProfile>& devices, bool corrected)
    : all_measured_(devices.size(), true),
      all_corrected_(devices.size(), corrected),
      measured_sum_(devices.size(), 0),
      corrected_sum_(devices.size(), 0) {
  for (const auto& device : devices) {
    DeviceTotal total;
    total.device = device.name;
    total.device_id = device.id;
    totals_.push_back(total);
  }
}

void ProfileTotals::add(size_t device, const TotalsEntry& p) {
  DeviceTotal& total = totals_[device];
  total.predicted_ms += p.predicted_ms;
  (p.bound == Bound::memory ? total.memory_bound_kernels : total.compute_bound_kernels) += 1;
  if (p.measured_ms) measured_sum_[device] += *p.measured_ms; else all_measured_[device] = false;
  if (p.corrected_ms) corrected_sum_[device] += *p.corrected_ms; else all_corrected_[device] = false;
  any_ = true;
}

std::vector<DeviceTotal> ProfileTotals::finish() && {
  for (size_t d = 0; d < totals_.size(); ++d) {
    if (all_measured_[d] && any_) totals_[d].measured_ms = measured_sum_[d];
    if (all_corrected_[d] && any_) totals_[d].corrected_ms = corrected_sum_[d];
  }
  return std::move(totals_);
}

std::vector<DeviceTotal> predict_profile(const Predictor& predictor, const KernelProfile& profile,
                                         const std::vector<DeviceProfile>& devices, const DeviceProfile* reference,
                                         const std::function<void(KernelPrediction&&)>& visit) {
  ProfileTotals totals(devices, reference != nullptr);
  size_t index = 0;
  predict_kernels(predictor, profile, 0, profile.kernels.size(), devices, reference, [&](KernelPrediction&& p) {
    totals.add(index++ % devices.size(), TotalsEntry::of(p));
    visit(std::move(p));
  });
  return std::move(totals).finish();
}

ProfilePrediction predict_profile(const Predictor& predictor, const KernelProfile& profile,
                                  const std::vector<DeviceProfile>& devices, const DeviceProfile* reference) {
  ProfilePrediction result;
  result.kernels.reserve(profile.kernels.size() * devices.size());
  result.totals = predict_profile(predictor, profile, devices, reference,
                                  [&](KernelPrediction&& p) { result.kernels.push_back(std::move(p)); });
  return result;
}

std::vector<DeviceTotal> predict_profile_on_every_core(const Predictor& predictor, const KernelProfile& profile,
                                                       const std::vector<DeviceProfile>& devices,
                                                       const DeviceProfile* reference,
                                                       const std::function<void(size_t, KernelPrediction&&)>& store) {
  constexpr size_t kKernelsPerRange = 64;
  const size_t kernels = profile.kernels.size(), device_count = devices.size();
  const size_t ranges = (kernels + kKernelsPerRange - 1) / kKernelsPerRange;
  std::vector<TotalsEntry> entries(kernels * device_count);
  const auto prepared = predictor.prepare(devices);
  for_each_parallel(ranges, [&](size_t r) {
    const size_t first = r * kKernelsPerRange, last = std::min(kernels, first + kKernelsPerRange);
    size_t slot = first * device_count;
    predict_kernels(
        predictor, profile, first, last, devices, reference,
        [&](KernelPrediction&& p) {
          entries[slot] = TotalsEntry::of(p);
          store(slot, std::move(p));
          ++slot;
        },
        prepared.get());
  });
  // Summed in the kernels' order, as predict_profile sums them.
  ProfileTotals totals(devices, reference != nullptr);
  for (size_t i = 0; i < entries.size(); ++i) totals.add(i % device_count, entries[i]);
  return std::move(totals).finish();
}

ProfilePrediction predict_profile_on_every_core(const Predictor& predictor, const KernelProfile& profile,
                                                const std::vector<DeviceProfile>& devices,
                                                const DeviceProfile* reference,
                                                const std::function<void(KernelPrediction&)>& trim) {
  ProfilePrediction result;
  result.kernels.resize(profile.kernels.size() * devices.size());
  result.totals = predict_profile_on_every_core(predictor, profile, devices, reference,
                                                [&](size_t i, KernelPrediction&& p) {
                                                  if (trim) trim(p);
                                                  result.kernels[i] = std::move(p);
                                                });
  return result;
}

}  // namespace roofcast
