#pragma once

// The values a chart or report may draw and print. Every number they write is finite: a
// prediction that is not (counters or throughputs near the limit of double precision) is an
// error naming the kernel and device; a finite value too small or too large for a log axis
// is left out of that chart with a note where the chart names what it leaves out.

#include "roofcast/model/profile_prediction.hpp"

namespace roofcast {

// Log axes span at most kChartMin..kChartMax, so that products and quotients of two values
// (O_krn x B_mem, peak / bandwidth) and an axis's margins stay far from the double range.
inline constexpr double kChartMin = 1e-30, kChartMax = 1e30;

// A value that a log axis can show: finite and in [kChartMin, kChartMax].
bool chartable(double value);

// InputError naming the first kernel and device whose predicted, measured or corrected time
// is not a finite number >= 0.
void require_finite_times(const ProfilePrediction& prediction);
// The same check for one prediction, as a streamed prediction (predict_profile's callback) comes.
void require_finite_times(const KernelPrediction& prediction);

}  // namespace roofcast
