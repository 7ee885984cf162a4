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

ProfileTotals::ProfileTotals(const std::vector<DeviceProfile>& devices, bool corrected) {
  for (const auto& device : devices) {
    DeviceSum& sum = sums_.emplace_back();
    sum.total.device = device.name;
    sum.total.device_id = device.id;
    sum.all_corrected = corrected;
  }
}

void ProfileTotals::add(size_t device, const TotalsEntry& p) {
  DeviceSum& sum = sums_[device];
  sum.total.predicted_ms += p.predicted_ms;
  (p.bound == Bound::memory ? sum.total.memory_bound_kernels : sum.total.compute_bound_kernels) += 1;
  if (p.measured_ms) sum.measured_ms += *p.measured_ms; else sum.all_measured = false;
  if (p.corrected_ms) sum.corrected_ms += *p.corrected_ms; else sum.all_corrected = false;
  sum.any = true;
}

void ProfileTotals::add_all(size_t count, const std::function<TotalsEntry(size_t)>& entry) {
  const size_t devices = sums_.size();
  for_each_parallel(devices, [&](size_t d) {
    for (size_t i = d; i < count; i += devices) add(d, entry(i));
  });
}

std::vector<DeviceTotal> ProfileTotals::finish() && {
  std::vector<DeviceTotal> totals;
  for (DeviceSum& sum : sums_) {
    if (sum.all_measured && sum.any) sum.total.measured_ms = sum.measured_ms;
    if (sum.all_corrected && sum.any) sum.total.corrected_ms = sum.corrected_ms;
    totals.push_back(std::move(sum.total));
  }
  return totals;
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

namespace {

// Kernels in ranges on every core, each prediction to `store(i, p)` (i: its place, kernel-major)
// on the thread that made it; the first error in kernel order is thrown.
void predict_ranges_on_every_core(const Predictor& predictor, const KernelProfile& profile,
                                  const std::vector<DeviceProfile>& devices, const DeviceProfile* reference,
                                  const std::function<void(size_t, KernelPrediction&&)>& store) {
  constexpr size_t kKernelsPerRange = 64;
  const size_t kernels = profile.kernels.size();
  const size_t ranges = (kernels + kKernelsPerRange - 1) / kKernelsPerRange;
  const auto prepared = predictor.prepare(devices);
  for_each_parallel(ranges, [&](size_t r) {
    const size_t first = r * kKernelsPerRange, last = std::min(kernels, first + kKernelsPerRange);
    size_t slot = first * devices.size();
    predict_kernels(
        predictor, profile, first, last, devices, reference, [&](KernelPrediction&& p) { store(slot++, std::move(p)); },
        prepared.get());
  });
}

}  // namespace

std::vector<TotalsEntry> predict_entries_on_every_core(const Predictor& predictor, const KernelProfile& profile,
                                                       const std::vector<DeviceProfile>& devices,
                                                       const DeviceProfile* reference) {
  std::vector<TotalsEntry> entries(profile.kernels.size() * devices.size());
  predict_ranges_on_every_core(predictor, profile, devices, reference,
                               [&](size_t i, KernelPrediction&& p) { entries[i] = TotalsEntry::of(p); });
  return entries;
}

ProfilePrediction predict_profile_on_every_core(const Predictor& predictor, const KernelProfile& profile,
                                                const std::vector<DeviceProfile>& devices,
                                                const DeviceProfile* reference,
                                                const std::function<void(KernelPrediction&)>& trim) {
  ProfilePrediction result;
  result.kernels.resize(profile.kernels.size() * devices.size());
  predict_ranges_on_every_core(predictor, profile, devices, reference, [&](size_t i, KernelPrediction&& p) {
    if (trim) trim(p);
    result.kernels[i] = std::move(p);
  });
  ProfileTotals totals(devices, reference != nullptr);
  totals.add_all(result.kernels.size(), [&](size_t i) { return TotalsEntry::of(result.kernels[i]); });
  result.totals = std::move(totals).finish();
  return result;
}

}  // namespace roofcast
