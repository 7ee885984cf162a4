#include "roofcast/model/validation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace roofcast {

namespace {

// APE bounds are inclusive; the slack keeps e.g. 110 vs 100 ms (APE 0.1000...01) within 10 %.
constexpr double kShareSlack = 1e-12;

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

double share_within(const std::vector<double>& apes, double bound) {
  const auto count = std::count_if(apes.begin(), apes.end(), [bound](double a) { return a <= bound + kShareSlack; });
  return static_cast<double>(count) / static_cast<double>(apes.size());
}

AccuracyGroup summarize_group(const std::string& device, const std::vector<const ValidatedPrediction*>& entries,
                              const std::string& reference_device) {
  AccuracyGroup group;
  group.device = device;
  std::vector<double> errors, corrected_errors;
  for (const ValidatedPrediction* entry : entries) {
    errors.push_back(entry->error());
    if (entry->device != reference_device) {
      if (const auto corrected = entry->corrected_error()) corrected_errors.push_back(*corrected);
    }
  }
  group.uncorrected = summarize_errors(errors);
  if (!corrected_errors.empty()) group.corrected = summarize_errors(corrected_errors);
  return group;
}

std::string fixed(double value, int digits) {
  char buffer[48];
  std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
  return buffer;
}

}  // namespace

double ValidatedPrediction::error() const { return prediction_error(predicted_ms, measured_ms); }
double ValidatedPrediction::ape() const { return std::abs(error()); }

std::optional<double> ValidatedPrediction::corrected_error() const {
  if (!corrected_ms) return std::nullopt;
  return prediction_error(*corrected_ms, measured_ms);
}

std::optional<double> ValidatedPrediction::corrected_ape() const {
  if (const auto e = corrected_error()) return std::abs(*e);
  return std::nullopt;
}

AccuracySummary summarize_errors(std::span<const double> errors) {
  AccuracySummary s;
  if (errors.empty()) return s;
  std::vector<double> apes;
  for (const double e : errors) {
    apes.push_back(std::abs(e));
    if (e > 0) ++s.over_predicted;
    if (e < 0) ++s.under_predicted;
  }
  s.kernels = static_cast<int>(errors.size());
  s.mean_ape = std::accumulate(apes.begin(), apes.end(), 0.0) / static_cast<double>(apes.size());
  s.median_ape = median_of(apes);
  s.within_10 = share_within(apes, 0.10);
  s.within_25 = share_within(apes, 0.25);
  s.within_50 = share_within(apes, 0.50);
  return s;
}

ValidationReport summarize_validation(std::string model, std::string reference_device,
                                      std::vector<ValidatedPrediction> entries) {
  ValidationReport report;
  report.model = std::move(model);
  report.reference_device = std::move(reference_device);
  report.entries = std::move(entries);

  std::vector<std::string> device_order;
  for (const auto& entry : report.entries) {
    if (std::find(device_order.begin(), device_order.end(), entry.device) == device_order.end())
      device_order.push_back(entry.device);
  }
  for (const auto& device : device_order) {
    std::vector<const ValidatedPrediction*> of_device;
    for (const auto& entry : report.entries) {
      if (entry.device == device) of_device.push_back(&entry);
    }
    report.devices.push_back(summarize_group(device, of_device, report.reference_device));
  }
  std::vector<const ValidatedPrediction*> all;
  for (const auto& entry : report.entries) all.push_back(&entry);
  report.overall = summarize_group("", all, report.reference_device);
  return report;
}

std::vector<std::string> miss_hints(const ValidatedPrediction& entry) {
  std::vector<std::string> hints;
  const double error = entry.error();
  const double per_launch_ms = entry.measured_ms / static_cast<double>(std::max<int64_t>(entry.invocations, 1));
  const KernelParameters& k = entry.parameters;

  if (per_launch_ms < 0.5 && error < 0)
    hints.push_back("short launches (" + fixed(per_launch_ms, 3) +
                    " ms each): launch overhead and latency are not modelled");
  if (k.type == KernelType::int32)
    hints.push_back("integer kernel: every integer instruction is costed as a multiply-add");
  if (k.type != KernelType::int32 && k.D_ops < 0.01)
    hints.push_back("its type's operations are " + fixed(100 * k.D_ops, 2) +
                    " % of its instructions: a few stray floating-point instructions may have set K_type, "
                    "or its work runs on units the counters do not see (tensor cores)");
  if (!std::isfinite(k.O_krn()))
    hints.push_back("no DRAM traffic counted: an L2-resident working set, whose cache traffic is not modelled");
  if (entry.E_util && (*entry.E_util < 0.8 || *entry.E_util > 1.25))
    hints.push_back("the model misses on the reference device too (E_util " + fixed(*entry.E_util, 2) +
                    "): a cost the counters do not show");
  if (entry.bound == Bound::memory && error < 0)
    hints.push_back("memory bound, yet slower than its DRAM bytes need: latency, uncoalesced or partial-sector "
                    "access, or too little parallelism");
  if (entry.bound == Bound::memory && error > 0)
    hints.push_back("memory bound, yet faster than its DRAM bytes allow at the measured bandwidth: cache hits, "
                    "or read-heavy streams beating the mean read/write/copy bandwidth");
  if (entry.bound == Bound::compute && error < 0)
    hints.push_back("compute bound, yet slower than its instruction mix allows: dependencies, divergence, or "
                    "costs not modelled (transcendentals, wide shared accesses, bank conflicts)");
  if (entry.bound == Bound::compute && error > 0)
    hints.push_back("compute bound, yet faster than its instruction mix allows: instruction costs overestimated "
                    "(integer adds costed as multiply-adds, dual issue)");
  return hints;
}

double AccuracyEntry::absolute_percentage_error() const {
  return std::abs(predicted_ms - measured_ms) / measured_ms * 100;
}

}  // namespace roofcast
