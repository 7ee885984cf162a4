#include "roofcast/plots/report_warnings.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

#include <fmt/format.h>

#include "roofcast/model/for_each_parallel.hpp"

namespace roofcast {

namespace {

double counter(const KernelCounters& counters, const std::string& name) {
  const auto it = counters.extra.find(name);
  return it == counters.extra.end() ? -1 : it->second;
}

std::string joined_devices(const std::vector<std::string>& devices) {
  if (devices.size() <= 3) return fmt::format("{}", fmt::join(devices, ", "));
  return fmt::format("{}, {} and {} more", devices[0], devices[1], devices.size() - 2);
}

// The L2 bytes the counters add up to, or -1 when the counters are missing.
double l2_bytes_sum(const KernelCounters& counters) {
  if (const double bytes = counter(counters, "lts__t_bytes.sum"); bytes >= 0) return bytes;
  const double read = counter(counters, "lts__t_sectors_op_read.sum");
  const double write = counter(counters, "lts__t_sectors_op_write.sum");
  if (read >= 0 && write >= 0) {
    double sectors = read + write;
    for (const char* name : {"lts__t_sectors_op_atom.sum", "lts__t_sectors_op_red.sum"})
      sectors += std::max(0.0, counter(counters, name));
    return 32 * sectors;
  }
  const double nvprof_read = counter(counters, "l2_read_transactions");
  const double nvprof_write = counter(counters, "l2_write_transactions");
  if (nvprof_read >= 0 && nvprof_write >= 0) return 32 * (nvprof_read + nvprof_write);
  return -1;
}

}  // namespace

const char* to_string(ReportWarning::Kind kind) {
  switch (kind) {
    case ReportWarning::Kind::l2_traffic: return "L2 traffic";
    case ReportWarning::Kind::short_invocation: return "short invocations";
    case ReportWarning::Kind::low_utilization: return "low utilization";
  }
  return "";
}

std::string explanation(ReportWarning::Kind kind) {
  switch (kind) {
    case ReportWarning::Kind::l2_traffic:
      return fmt::format("L2 traffic above {}x the DRAM traffic: the working set lives in cache, which the model does "
                         "not see; a GPU with a smaller L2 may be much slower than predicted.",
                         kL2TrafficWarningRatio);
    case ReportWarning::Kind::short_invocation:
      return fmt::format("Invocations under {} ms: launch overhead and latency, which the model ignores, dominate; "
                         "read the prediction as a lower bound on time.",
                         kShortInvocationMs);
    case ReportWarning::Kind::low_utilization:
      return fmt::format("Compute bound with E_mix x E_instr under {:.0f} %: most instructions are not the kernel's "
                         "operations (loads/stores, integer, control), so it reaches a small share of the peak; the "
                         "thesis model errs most on such instruction mixes.",
                         100 * kLowUtilizationWarning);
  }
  return "";
}

double l2_bytes_of(const KernelRecord& kernel) {
  const auto* counters = std::get_if<KernelCounters>(&kernel.description);
  if (!counters) return -1;
  // Counters near the double range sum to infinity: no number to show, so no warning.
  const double bytes = l2_bytes_sum(*counters);
  return std::isfinite(bytes) ? bytes : -1;
}

namespace {

// The warnings of kernel `k` (report_warnings), appended to `warnings`.
void add_kernel_warnings(const KernelProfile& profile, const ProfilePrediction& prediction, size_t k,
                         std::vector<ReportWarning>& warnings) {
  const size_t device_count = prediction.totals.size();  // kernel k on device d: kernels[k * devices + d]
  const KernelRecord& kernel = profile.kernels[k];
  const KernelParameters parameters = kernel_parameters_of(kernel);

  const double l2 = l2_bytes_of(kernel);
  if (l2 >= 0 && l2 > kL2TrafficWarningRatio * parameters.W_traf)
    warnings.push_back({ReportWarning::Kind::l2_traffic, kernel.name,
                        fmt::format("L2 traffic {:.4g} MB, {} the DRAM traffic ({:.4g} MB)", l2 / 1e6,
                                    parameters.W_traf > 0 ? fmt::format("{:.1f}x", l2 / parameters.W_traf)
                                                          : std::string("far above"),
                                    parameters.W_traf / 1e6)});

  std::vector<std::string> short_on, low_on;
  double shortest = INFINITY, lowest = INFINITY;
  for (size_t d = 0; d < device_count; ++d) {
    const KernelPrediction& p = prediction.kernels.at(k * device_count + d);
    const double per_invocation = p.predicted_ms() / kernel.invocations;
    const double measured_per_invocation = p.measured_ms ? *p.measured_ms / kernel.invocations : INFINITY;
    if (std::min(per_invocation, measured_per_invocation) < kShortInvocationMs) {
      short_on.push_back(p.device);
      shortest = std::min({shortest, per_invocation, measured_per_invocation});
    }
    // The thesis model's adjustment of the peak; other models cost the instruction mix themselves.
    const ThesisPrediction* thesis = p.prediction.thesis();
    const double utilization = thesis ? parameters.E_mix * thesis->E_instr : 1;
    if (p.prediction.bound == Bound::compute && utilization < kLowUtilizationWarning) {
      low_on.push_back(p.device);
      lowest = std::min(lowest, utilization);
    }
  }
  if (!short_on.empty())
    warnings.push_back({ReportWarning::Kind::short_invocation, kernel.name,
                        fmt::format("{:.3g} ms per invocation on {}", shortest, joined_devices(short_on))});
  if (!low_on.empty())
    warnings.push_back({ReportWarning::Kind::low_utilization, kernel.name,
                        fmt::format("E_mix x E_instr {:.1f} % ({}) on {}", 100 * lowest, to_string(parameters.type),
                                    joined_devices(low_on))});
}

}  // namespace

std::vector<ReportWarning> report_warnings(const KernelProfile& profile, const ProfilePrediction& prediction) {
  // Kernels in parts on every core (a million predictions are read), their warnings in order.
  return joined_in_parallel<ReportWarning>(
      profile.kernels.size(), 1024, [&](size_t first, size_t last, std::vector<ReportWarning>& part) {
        for (size_t k = first; k < last; ++k) add_kernel_warnings(profile, prediction, k, part);
      });
}

}  // namespace roofcast
