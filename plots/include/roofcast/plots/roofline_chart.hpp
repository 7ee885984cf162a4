#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/kernel_type.hpp"
#include "roofcast/model/predictor.hpp"
#include "roofcast/model/profile_prediction.hpp"
#include "roofcast/model/thesis_prediction.hpp"
#include "roofcast/plots/gnuplot_chart.hpp"

namespace roofcast {

// One roof of a device: a compute peak (horizontal) or a bandwidth (a slope of 1 in log-log).
struct RooflineCeiling {
  enum class Kind { compute, bandwidth };
  Kind kind = Kind::compute;
  std::string name;   // "fp64", "fp32", "int32 MAD", "fp16", "DRAM", "L2"...
  double value = 0;   // GFLOP/s, GIOP/s or GB/s
  std::string unit;   // "GFLOP/s", "GIOP/s", "GB/s"
  std::string label() const;  // "fp32 1941 GFLOP/s"
};

// The device's ceilings: fp64, fp32 and int32 MAD, DRAM, and every further peak of its
// extra throughputs (keys ending in _gflops/_tflops/_giops/_tops are compute peaks, keys
// ending in _gbps/_tbps bandwidths; DRAM variants such as dram_read_gbps are left out).
std::vector<RooflineCeiling> roofline_ceilings(const DeviceProfile& device);

// Where a kernel of a profile sits on a device's roofline: at its operational intensity and
// the throughput `predictor`'s time implies it attains there (W_comp / predicted time; the thesis
// model's T'_op when compute bound, O_krn x B_mem when memory bound), and, when its time on that device was measured, at the throughput that
// measurement implies (W_comp / measured time).
struct RooflineKernelPoint {
  int number = 0;  // 1-based, the kernel's position in the profile
  std::string name;
  KernelType type = KernelType::fp32;
  Bound bound = Bound::compute;
  double O_krn = 0;
  double predicted_gops = 0;
  double predicted_ms = 0;
  double time_share = 0;  // share of the profile's predicted time on this device, 0..1
  std::optional<double> measured_gops;
  std::optional<double> measured_ms;
  bool drawable = true;  // false when O_krn or the throughput is 0, infinite or beyond kChartMin..kChartMax
  // An int kernel (no floating-point instruction) that copies: it stores about the bytes it loads,
  // with no atomics and under 4 integer operations per DRAM byte. Drawn as "copy", not as integer work.
  bool data_movement_only = false;
};

std::vector<RooflineKernelPoint> roofline_kernel_points(const DeviceProfile& device, const KernelProfile& profile,
                                                        const Predictor& predictor);
// The same from predictions already made of `profile`: device `device_index` of `prediction` (kernel-major).
std::vector<RooflineKernelPoint> roofline_kernel_points(const ProfilePrediction& prediction, const KernelProfile& profile,
                                                        size_t device_index);

// The roofline chart of `device` (log-log: ops/byte vs GFLOP/s), with the kernels of `profile`
// as points when one is given. `profile_label` names the profile in the title. A profile of
// more than `max_kernels` kernels has only the `max_kernels` with the most predicted time on
// the device drawn (numbered from the heaviest); the key says how many were left out.
GnuplotChart roofline_chart(const DeviceProfile& device, const KernelProfile* profile, const std::string& profile_label,
                            const ChartTarget& target, const Predictor& predictor, size_t max_kernels = SIZE_MAX);
// The same with the kernels' points already made (roofline_kernel_points) by `model`, or none.
GnuplotChart roofline_chart(const DeviceProfile& device, std::optional<std::vector<RooflineKernelPoint>> points,
                            const std::string& profile_label, const ChartTarget& target, const std::string& model,
                            size_t max_kernels = SIZE_MAX);

}  // namespace roofcast
