#include "roofcast/microbench/transfer_fit.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include <Eigen/QR>

namespace roofcast::microbench {

double fitted_copy_ms(const CopyTimeFit& fit, double bytes) {
  return fit.latency_us * 1e-3 + bytes / (fit.bandwidth_gbps * 1e6);
}

CopyTimeFit fit_copy_times(const std::vector<CopyTimeSample>& samples) {
  double largest = 0, smallest = 0;
  for (const auto& s : samples) {
    if (!std::isfinite(s.bytes) || !std::isfinite(s.time_ms) || s.bytes <= 0 || s.time_ms <= 0)
      throw std::invalid_argument("copy-time fit: a sample of " + std::to_string(s.bytes) + " bytes in " +
                                  std::to_string(s.time_ms) + " ms (both must be positive)");
    largest = std::max(largest, s.bytes);
    smallest = smallest == 0 ? s.bytes : std::min(smallest, s.bytes);
  }
  if (samples.size() < 2 || largest == smallest)
    throw std::invalid_argument("copy-time fit: needs at least two different sizes");

  // time = a + b * x with x = bytes / largest (scaled so the system stays well conditioned); each
  // row divided by its measured time, so that the residuals are relative ones.
  const auto n = static_cast<Eigen::Index>(samples.size());
  Eigen::MatrixX2d design(n, 2);
  Eigen::VectorXd ones(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto& s = samples[static_cast<size_t>(i)];
    design(i, 0) = 1 / s.time_ms;
    design(i, 1) = s.bytes / largest / s.time_ms;
    ones(i) = 1;
  }
  const Eigen::Vector2d line = design.colPivHouseholderQr().solve(ones);
  double intercept = line(0), slope = line(1);
  if (intercept < 0) {  // a copy cannot take less than nothing: the best line through the origin
    intercept = 0;
    slope = design.col(1).dot(ones) / design.col(1).squaredNorm();
  }
  if (!(slope > 0) || !std::isfinite(slope))
    throw std::invalid_argument("copy-time fit: time does not grow with size (no positive bandwidth)");

  CopyTimeFit fit;
  fit.latency_us = intercept * 1e3;
  fit.bandwidth_gbps = largest / slope / 1e6;  // bytes per ms / 1e6 = GB/s
  for (const auto& s : samples)
    fit.worst_relative_residual =
        std::max(fit.worst_relative_residual, std::abs(fitted_copy_ms(fit, s.bytes) - s.time_ms) / s.time_ms);
  return fit;
}

void fit_transfer_sweep(TransferSweep& sweep) {
  std::vector<CopyTimeSample> samples;
  for (const auto& p : sweep.points) samples.push_back({p.bytes, p.time_ms.median});
  try {
    const CopyTimeFit fit = fit_copy_times(samples);
    sweep.bandwidth_gbps = fit.bandwidth_gbps;
    sweep.latency_us = fit.latency_us;
    sweep.worst_relative_residual = fit.worst_relative_residual;
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(sweep.key + ": " + error.what());
  }
}

}  // namespace roofcast::microbench
