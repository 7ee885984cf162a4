#include "roofcast/plots/validation_entries.hpp"

namespace roofcast {

std::vector<AccuracyEntry> validation_entries_from(const ProfilePrediction& prediction) {
  std::vector<AccuracyEntry> entries;
  for (const auto& p : prediction.kernels) {
    if (!p.measured_ms || !(*p.measured_ms > 0) || !(p.predicted_ms() > 0)) continue;
    AccuracyEntry e;
    e.kernel = p.kernel;
    e.device = p.device;
    e.predicted_ms = p.predicted_ms();
    e.measured_ms = *p.measured_ms;
    e.corrected_ms = p.corrected_ms;
    e.bound = to_string(p.prediction.bound);
    entries.push_back(std::move(e));
  }
  return entries;
}

}  // namespace roofcast
