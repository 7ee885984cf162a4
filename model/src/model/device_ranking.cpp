#include "roofcast/model/device_ranking.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include "roofcast/model/device_name.hpp"
#include "roofcast/model/for_each_parallel.hpp"

namespace roofcast {

namespace {

// `device_index`: the device's place in the devices `prediction` was made for (kernel-major:
// kernel k on device d is prediction.kernels[k * devices + d]).
void add_kernels(DeviceRank& rank, const std::vector<TotalsEntry>& predictions, const KernelProfile& profile,
                 const DeviceProfile& device, size_t device_index, size_t device_count, size_t top) {
  const auto overhead = device.extra_throughput.find("launch_overhead_us");
  auto prediction_of = [&](size_t k) -> const TotalsEntry& { return predictions[k * device_count + device_index]; };
  for (size_t k = 0; k < profile.kernels.size(); ++k) {
    const double predicted_ms = prediction_of(k).predicted_ms;
    rank.kernels_ms += predicted_ms;
    if (overhead == device.extra_throughput.end()) continue;
    const auto invocations = static_cast<double>(profile.kernels[k].invocations);
    rank.launch_gaps_ms += invocations * std::max(0.0, overhead->second * 1e-3 - predicted_ms / invocations);
  }
  // The `top` longest kernels, ties in profile order.
  std::vector<size_t> order(profile.kernels.size());
  std::iota(order.begin(), order.end(), 0);
  const auto kept = static_cast<std::ptrdiff_t>(std::min(top, order.size()));
  std::partial_sort(order.begin(), order.begin() + kept, order.end(), [&](size_t a, size_t b) {
    const double a_ms = prediction_of(a).predicted_ms, b_ms = prediction_of(b).predicted_ms;
    return a_ms != b_ms ? a_ms > b_ms : a < b;
  });
  for (auto k = order.begin(); k != order.begin() + kept; ++k) {
    const TotalsEntry& p = prediction_of(*k);
    rank.top_kernels.push_back({profile.kernels[*k].name, p.predicted_ms,
                                rank.kernels_ms > 0 ? p.predicted_ms / rank.kernels_ms : 0, p.bound});
  }
}

void add_transfers(DeviceRank& rank, const KernelProfile& profile, const DeviceProfile& device) {
  for (const auto& transfer : profile.transfers) {
    const std::string key = transfer_key(transfer.kind, transfer.pinned);
    const auto fit = device.transfers.find(key);
    TransferPrediction& p = rank.transfers.emplace_back();
    p.key = key;
    p.count = transfer.count;
    p.bytes = transfer.bytes;
    if (same_device_name(device.name, profile.reference_device)) p.measured_ms = transfer.measured_ms;
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
  std::vector<TotalsEntry> entries;
  entries.reserve(prediction.kernels.size());
  for (const auto& p : prediction.kernels) entries.push_back(TotalsEntry::of(p));
  return rank_devices(entries, profile, devices, top);
}

std::vector<DeviceRank> rank_devices(const std::vector<TotalsEntry>& predictions, const KernelProfile& profile,
                                     const std::vector<DeviceProfile>& devices, size_t top) {
  if (predictions.size() != profile.kernels.size() * devices.size())
    throw std::invalid_argument("rank_devices: the prediction is not of this profile on these devices");
  std::vector<DeviceRank> ranks(devices.size());
  for_each_parallel(devices.size(), [&](size_t d) {  // each device reads its prediction of every kernel
    const DeviceProfile& device = devices[d];
    DeviceRank& rank = ranks[d];
    rank.device = device.name;
    rank.device_id = device.id;
    rank.derived = device.derivation.has_value();
    add_kernels(rank, predictions, profile, device, d, devices.size(), top);
    add_transfers(rank, profile, device);
    rank.total_ms = rank.kernels_ms + rank.launch_gaps_ms + rank.transfers_ms;
    rank.transfer_share = rank.total_ms > 0 ? rank.transfers_ms / rank.total_ms : 0;
  });
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
