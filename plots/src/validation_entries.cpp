#include "roofcast/plots/validation_entries.hpp"

#include "roofcast/model/for_each_parallel.hpp"

namespace roofcast {

std::vector<AccuracyEntry> validation_entries_from(const ProfilePrediction& prediction) {
  // Predictions in parts on every core (a million of them), their entries in order.
  return joined_in_parallel<AccuracyEntry>(
      prediction.kernels.size(), 8192, [&](size_t first, size_t last, std::vector<AccuracyEntry>& part) {
        for (size_t i = first; i < last; ++i) {
          const KernelPrediction& p = prediction.kernels[i];
          if (!p.measured_ms || !(*p.measured_ms > 0) || !(p.predicted_ms() > 0)) continue;
          AccuracyEntry e;
          e.kernel = p.kernel;
          e.device = p.device;
          e.predicted_ms = p.predicted_ms();
          e.measured_ms = *p.measured_ms;
          e.corrected_ms = p.corrected_ms;
          e.bound = to_string(p.prediction.bound);
          part.push_back(std::move(e));
        }
      });
}

}  // namespace roofcast
