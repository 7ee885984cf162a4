#pragma once
// Copy cost as a straight line: time = latency + bytes / bandwidth, fitted to a size sweep.
// Pure C++ (no GPU headers): the suite calls it after measuring, the tests with made-up points.

#include <vector>

#include "roofcast/microbench/suite_result.hpp"

namespace roofcast::microbench {

struct CopyTimeSample {
  double bytes = 0;
  double time_ms = 0;
};

struct CopyTimeFit {
  double latency_us = 0;
  double bandwidth_gbps = 0;  // 1e9 bytes per second
  // max over the samples of |fitted - measured| / measured
  double worst_relative_residual = 0;
};

// Least squares on relative residuals (each sample weighted by 1 / time^2), so that the
// microsecond-long small copies weigh as much as the millisecond-long large ones. A negative
// latency is refitted as zero. Throws std::invalid_argument naming the problem when there
// are fewer than two distinct sizes, a size or time that is not positive and finite, or the
// fitted bandwidth is not positive.
CopyTimeFit fit_copy_times(const std::vector<CopyTimeSample>& samples);

// The fitted time of one copy of `bytes`, in milliseconds.
double fitted_copy_ms(const CopyTimeFit& fit, double bytes);

// Fits a sweep's median times and stores bandwidth, latency and worst residual in it.
void fit_transfer_sweep(TransferSweep& sweep);

}  // namespace roofcast::microbench
