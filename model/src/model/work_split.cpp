#include "roofcast/model/work_split.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

namespace roofcast {

namespace {

// Whole blocks per device summing to `total`, each as close to share x total as the
// largest-remainder method allows.
std::vector<long long> round_to_blocks(const std::vector<double>& shares, long long total) {
  std::vector<long long> blocks(shares.size());
  std::vector<double> remainders(shares.size());
  long long assigned = 0;
  for (size_t i = 0; i < shares.size(); ++i) {
    const double exact = shares[i] * static_cast<double>(total);
    blocks[i] = static_cast<long long>(std::floor(exact));
    remainders[i] = exact - static_cast<double>(blocks[i]);
    assigned += blocks[i];
  }
  std::vector<size_t> order(shares.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return remainders[a] > remainders[b]; });
  for (size_t k = 0; assigned < total; ++k, ++assigned) blocks[order[k % order.size()]] += 1;
  return blocks;
}

}  // namespace

WorkSplit split_work(const std::vector<DeviceTime>& devices, long long total_blocks, double small_gain) {
  WorkSplit split;
  split.total_blocks = total_blocks;
  if (devices.empty() || total_blocks <= 0) return split;

  double speed_sum = 0;
  for (const auto& d : devices) speed_sum += 1 / d.alone_ms;
  std::vector<double> shares;
  for (const auto& d : devices) shares.push_back((1 / d.alone_ms) / speed_sum);
  const std::vector<long long> blocks = round_to_blocks(shares, total_blocks);

  split.ideal_ms = 1 / speed_sum;
  split.fastest_alone_ms = std::min_element(devices.begin(), devices.end(), [](auto& a, auto& b) {
                             return a.alone_ms < b.alone_ms;
                           })->alone_ms;
  split.ideal_gain = 1 - split.ideal_ms / split.fastest_alone_ms;
  for (size_t i = 0; i < devices.size(); ++i) {
    DeviceShare share;
    share.device = devices[i].device;
    share.alone_ms = devices[i].alone_ms;
    share.sm_count = devices[i].sm_count;
    share.ideal_share = shares[i];
    share.blocks = blocks[i];
    share.rounded_ms = devices[i].alone_ms * static_cast<double>(blocks[i]) / static_cast<double>(total_blocks);
    split.rounded_ms = std::max(split.rounded_ms, share.rounded_ms);
    if (share.blocks == 0)
      split.warnings.push_back(fmt::format("{} gets no block: leave it out", share.device));
    else if (share.sm_count > 0 && share.blocks < share.sm_count)
      split.warnings.push_back(fmt::format("{} gets {} blocks, under one wave ({} SMs): its part is latency bound",
                                           share.device, share.blocks, share.sm_count));
    split.devices.push_back(share);
  }
  if (split.ideal_gain < small_gain)
    split.warnings.push_back(fmt::format("the ideal gain over the fastest device alone is {:.1f} %, under {:.0f} %: "
                                         "splitting may not pay for its coordination",
                                         100 * split.ideal_gain, 100 * small_gain));
  return split;
}

}  // namespace roofcast
