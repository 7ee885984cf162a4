#include "roofcast/microbench/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace roofcast::microbench {

Summary summarize(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("summarize: no samples");
  for (const double s : samples)
    if (!std::isfinite(s)) throw std::invalid_argument("summarize: non-finite sample");
  std::sort(samples.begin(), samples.end());
  const size_t n = samples.size();
  Summary summary;
  summary.count = static_cast<int>(n);
  summary.min = samples.front();
  summary.max = samples.back();
  summary.median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  return summary;
}

Summary rates_from_times(const std::vector<double>& times_ms, double work_per_launch, double rate_unit_per_ms) {
  std::vector<double> rates;
  rates.reserve(times_ms.size());
  for (const double t : times_ms) {
    if (!(t > 0)) throw std::invalid_argument("rates_from_times: a repetition took no time");
    rates.push_back(work_per_launch / t / rate_unit_per_ms);
  }
  return summarize(std::move(rates));
}

}  // namespace roofcast::microbench
