#pragma once

#include <string>
#include <vector>

#include "roofcast/plots/gnuplot_chart.hpp"
#include "roofcast/plots/validation_entries.hpp"

namespace roofcast {

// Accuracy of predictions: predicted vs measured time (log-log, with y = x and a +-25 % band),
// beside the cumulative distribution of the absolute percentage error, per device.
// `source_note` says where the measured times come from; it is printed under the title.
// `model` names the model in the title ("thesis", "pipes"); hollow points are its corrected
// (thesis: E_util) or calibrated (pipes) predictions.
GnuplotChart accuracy_chart(const std::vector<AccuracyEntry>& entries, const std::string& source_note,
                            const ChartTarget& target, const std::string& model = "thesis");

}  // namespace roofcast
