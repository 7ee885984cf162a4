#include "roofcast/plots/chart_values.hpp"

#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "roofcast/formats/input_error.hpp"

namespace roofcast {

bool chartable(double value) { return std::isfinite(value) && value >= kChartMin && value <= kChartMax; }

void require_finite_times(const KernelPrediction& p) {
  for (const auto& [what, value] : {std::pair<const char*, std::optional<double>>{"predicted", p.predicted_ms()},
                                    {"measured", p.measured_ms},
                                    {"corrected", p.corrected_ms}}) {
    if (!value || (std::isfinite(*value) && *value >= 0)) continue;
    throw InputError(fmt::format("kernel {} on {}: the {} time is not a finite number >= 0 ({} ms): a counter or "
                                 "throughput of the inputs is near the limit of double precision",
                                 p.kernel, p.device, what, *value));
  }
}

void require_finite_times(const ProfilePrediction& prediction) {
  for (const auto& p : prediction.kernels) require_finite_times(p);
}

}  // namespace roofcast
