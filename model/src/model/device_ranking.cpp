#include "roofcast/model/device_ranking.hpp"

#include <algorithm>

namespace roofcast {

std::vector<DeviceRank> rank_devices(const ProfilePrediction& prediction, size_t top) {
  std::vector<DeviceRank> ranks;
  for (const auto& total : prediction.totals) {
    DeviceRank rank;
    rank.device = total.device;
    rank.kernels_ms = total.predicted_ms;
    for (const auto& p : prediction.kernels) {
      if (p.device != total.device) continue;
      rank.top_kernels.push_back({p.kernel, p.thesis.predicted_ms,
                                  total.predicted_ms > 0 ? p.thesis.predicted_ms / total.predicted_ms : 0,
                                  p.thesis.bound});
    }
    std::stable_sort(rank.top_kernels.begin(), rank.top_kernels.end(),
                     [](const auto& a, const auto& b) { return a.predicted_ms > b.predicted_ms; });
    if (rank.top_kernels.size() > top) rank.top_kernels.resize(top);
    ranks.push_back(std::move(rank));
  }
  std::stable_sort(ranks.begin(), ranks.end(), [](const auto& a, const auto& b) { return a.kernels_ms < b.kernels_ms; });
  if (!ranks.empty()) {
    const double slowest = ranks.back().kernels_ms;
    for (auto& rank : ranks) rank.speedup_vs_slowest = rank.kernels_ms > 0 ? slowest / rank.kernels_ms : 0;
  }
  return ranks;
}

}  // namespace roofcast
