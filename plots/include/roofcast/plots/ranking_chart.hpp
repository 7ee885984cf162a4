#pragma once

#include <string>
#include <vector>

#include "roofcast/model/device_ranking.hpp"
#include "roofcast/plots/gnuplot_chart.hpp"

namespace roofcast {

// `roofcast rank`'s chart: one horizontal bar per device, fastest on top, split into the
// predicted kernel time, launch gaps and copies, with the total at the end of each bar.
GnuplotChart ranking_chart(const std::vector<DeviceRank>& ranks, const std::string& profile_label,
                           const ChartTarget& target);

}  // namespace roofcast
