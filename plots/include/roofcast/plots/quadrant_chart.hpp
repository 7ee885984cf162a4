#pragma once

#include <string>
#include <vector>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/predictor.hpp"
#include "roofcast/model/thesis_prediction.hpp"
#include "roofcast/plots/gnuplot_chart.hpp"

namespace roofcast {

// One device on a kernel's quadrant-split chart (model.md): its measured point (B_mem, T_op), its
// adjusted point (B', T'), where a vertical drop (memory bound: the adjusted point lies above the
// kernel's line y = O_krn x) or a horizontal move (compute bound: below it) meets the line, and
// the point on the line at the throughput the model predicts.
// Thesis model: B' = B_mem, T' = T'_op = E_mix x E_instr x T_op, and the prediction is where the
// drop or move lands. Pipes model: B' = the kernel's DRAM bytes / its memory time, T' = its
// operations / its compute time (the largest memory and compute costs, docs/pipes-model.md); the
// latency and launch time the model adds below that lower the prediction further along the line.
struct QuadrantDevicePoint {
  std::string device;
  double bandwidth = 0;           // B_mem, GB/s
  double T_op = 0;                // peak of the kernel's type
  double bandwidth_adjusted = 0;  // B'
  double T_op_adjusted = 0;       // T'
  double landing_x = 0, landing_y = 0;  // where the drop or move meets the kernel's line
  double line_x = 0, line_y = 0;  // the prediction on the kernel's line: attained (bandwidth used, throughput)
  Bound bound = Bound::compute;
  double predicted_ms = 0;
};

// The landing point and the predicted time are `predictor`'s (with a model other than the
// thesis', the throughput its time implies); the peaks are the device's.
std::vector<QuadrantDevicePoint> quadrant_points(const KernelRecord& kernel, const std::vector<DeviceProfile>& devices,
                                                 const Predictor& predictor);

// What the chart shows, in words, for a caption (the HTML report's): how each device's points
// are made with `model` ("thesis", "pipes"...).
std::string quadrant_caption(const std::string& model);

// Log-log axes (the default) keep devices of very different peaks readable; the kernel's
// half-line y = O_krn x is then the diagonal of slope 1 through (1, O_krn). Linear axes
// show it from the origin, as the thesis draws it.
enum class QuadrantScale { log, linear };

GnuplotChart quadrant_chart(const KernelRecord& kernel, const std::vector<DeviceProfile>& devices,
                            const ChartTarget& target, const Predictor& predictor,
                            QuadrantScale scale = QuadrantScale::log);

}  // namespace roofcast
