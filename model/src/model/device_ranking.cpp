#include "roofcast/model/device_ranking.hpp"

#include <algorithm>

namespace roofcast {

namespace {

void add_kernels(DeviceRank& rank, const ProfilePrediction& prediction, const KernelProfile& profile,
                 const DeviceProfile& device, size_t top) {
  const auto overhead = device.extra_throughput.find("launch_overhead_us");
  for (const auto& p : prediction.kernels) {
    if (p.device != device.name) continue;
    rank.kernels_ms += p.thesis.predicted_ms;
    rank.top_kernels.push_back({p.kernel, p.thesis.predicted_ms, 0, p.thesis.bound});
    if (overhead == device.extra_throughput.end()) continue;
    for (const auto& kernel : profile.kernels) {
      if (kernel.name != p.kernel) continue;
      const double per_invocation_ms = p.thesis.predicted_ms / kernel.invocations;
      rank.launch_gaps_ms += kernel.invocations * std::max(0.0, overhead->second * 1e-3 - per_invocation_ms);
    }
  }
  for (auto& k : rank.top_kernels) k.share = rank.kernels_ms > 0 ? k.predicted_ms / rank.kernels_ms : 0;
  std::stable_sort(rank.top_kernels.begin(), rank.top_kernels.end(),
                   [](const auto& a, const auto& b) { return a.predicted_ms > b.predicted_ms; });
  if (rank.top_kernels.size() > top) rank.top_kernels.resize(top);
}

void add_transfers(DeviceRank& rank, const KernelProfile& profile, const DeviceProfile& device) {
  for (const auto& transfer : profile.transfers) {
    const std::string key = transfer_key(transfer.kind, transfer.pinned);
    const auto fit = device.transfers.find(key);
    TransferPrediction& p = rank.transfers.emplace_back();
    p.key = key;
    p.count = transfer.count;
    p.bytes = transfer.bytes;
    if (device.name == profile.reference_device) p.measured_ms = transfer.measured_ms;
    if (fit == device.transfers.end()) {
      if (std::find(rank.missing_transfer_fits.begin(), rank.missing_transfer_fits.end(), key) ==
          rank.missing_transfer_fits.end())
        rank.missing_transfer_fits.push_back(key);
      continue;
    }
    p.predicted_ms = predict_transfer_ms(fit->second, transfer.bytes, transfer.count);
    rank.transfers_ms += *p.predicted_ms;
  }
}

}  // namespace

std::vector<DeviceRank> rank_devices(const ProfilePrediction& prediction, const KernelProfile& profile,
                                     const std::vector<DeviceProfile>& devices, size_t top) {
  std::vector<DeviceRank> ranks;
  for (const auto& device : devices) {
    DeviceRank rank;
    rank.device = device.name;
    add_kernels(rank, prediction, profile, device, top);
    add_transfers(rank, profile, device);
    rank.total_ms = rank.kernels_ms + rank.launch_gaps_ms + rank.transfers_ms;
    rank.transfer_share = rank.total_ms > 0 ? rank.transfers_ms / rank.total_ms : 0;
    ranks.push_back(std::move(rank));
  }
  std::stable_sort(ranks.begin(), ranks.end(), [](const auto& a, const auto& b) { return a.total_ms < b.total_ms; });
  if (ranks.empty()) return ranks;
  const double slowest = ranks.back().total_ms;
  const DeviceRank& first = ranks.front();
  // What repeats with each iteration of the kernels, as opposed to the copies.
  auto per_iteration_ms = [](const DeviceRank& r) { return r.kernels_ms + r.launch_gaps_ms; };
  for (auto& rank : ranks) {
    rank.speedup_vs_slowest = rank.total_ms > 0 ? slowest / rank.total_ms : 0;
    if (&rank != &first && per_iteration_ms(rank) < per_iteration_ms(first) && rank.transfers_ms > first.transfers_ms)
      rank.break_even_iterations =
          (rank.transfers_ms - first.transfers_ms) / (per_iteration_ms(first) - per_iteration_ms(rank));
  }
  return ranks;
}

}  // namespace roofcast
