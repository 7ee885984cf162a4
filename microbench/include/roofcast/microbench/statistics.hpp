#pragma once

#include <vector>

namespace roofcast::microbench {

// Median, minimum and maximum of repeated measurements of one quantity.
struct Summary {
  double median = 0;
  double min = 0;
  double max = 0;
  int count = 0;
};

// Throws std::invalid_argument when `samples` is empty or holds a non-finite value.
Summary summarize(std::vector<double> samples);

// Per-repetition rates from per-repetition times: work / time for each sample. The
// fastest repetition gives the largest rate, so min and max swap roles.
Summary rates_from_times(const std::vector<double>& times_ms, double work_per_launch, double rate_unit_per_ms);

}  // namespace roofcast::microbench
