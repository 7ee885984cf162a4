#pragma once

#include <string>
#include <vector>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/predictor.hpp"
#include "roofcast/model/thesis_prediction.hpp"
#include "roofcast/plots/gnuplot_chart.hpp"

namespace roofcast {

// One device on a kernel's quadrant-split chart (model.md): its measured point (B_mem, T_op),
// its point after the E_mix x E_instr adjustment (B_mem, T'_op), and where it lands on the
// kernel's line y = O_krn x (a vertical drop when memory bound, a horizontal move when compute bound).
struct QuadrantDevicePoint {
  std::string device;
  double bandwidth = 0;      // B_mem, GB/s
  double T_op = 0;           // peak of the kernel's type
  double T_op_adjusted = 0;  // T'_op = E_mix x E_instr x T_op
  double line_x = 0, line_y = 0;  // the point on the kernel's line: attained (bandwidth used, throughput)
  Bound bound = Bound::compute;
  double predicted_ms = 0;
};

// The landing point and the predicted time are `predictor`'s (with a model other than the
// thesis', the throughput its time implies); the peaks and T'_op are the thesis model's.
std::vector<QuadrantDevicePoint> quadrant_points(const KernelRecord& kernel, const std::vector<DeviceProfile>& devices,
                                                 const Predictor& predictor);

// Log-log axes (the default) keep devices of very different peaks readable; the kernel's
// half-line y = O_krn x is then the diagonal of slope 1 through (1, O_krn). Linear axes
// show it from the origin, as the thesis draws it.
enum class QuadrantScale { log, linear };

GnuplotChart quadrant_chart(const KernelRecord& kernel, const std::vector<DeviceProfile>& devices,
                            const ChartTarget& target, const Predictor& predictor,
                            QuadrantScale scale = QuadrantScale::log);

}  // namespace roofcast
