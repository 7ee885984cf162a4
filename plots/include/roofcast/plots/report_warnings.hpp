#pragma once

#include <string>
#include <vector>

#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/profile_prediction.hpp"

namespace roofcast {

// Why a prediction deserves less trust than the model's arithmetic suggests.
struct ReportWarning {
  enum class Kind { l2_traffic, short_invocation, low_utilization };
  Kind kind;
  std::string kernel;
  std::string detail;  // the numbers and devices, e.g. "0.074 ms per invocation on GTX-1060 6GB"
};

// What a kind of warning means for the predictions, in one sentence.
std::string explanation(ReportWarning::Kind kind);

// Thresholds behind the warnings (model.md, "Known limits").
inline constexpr double kL2TrafficWarningRatio = 2.0;       // L2 bytes / DRAM bytes
inline constexpr double kShortInvocationMs = 0.1;           // per invocation
inline constexpr double kLowUtilizationWarning = 0.25;      // E_mix x E_instr, when compute bound

// L2 bytes of a kernel from its extra counters (lts__t_bytes.sum, lts__t_sectors_op_read/write.sum
// [+ atom, red], or nvprof's l2_read/write_transactions), or -1 when they were not collected.
double l2_bytes_of(const KernelRecord& kernel);

// Warnings for every kernel of `profile` on the devices of `prediction`:
// L2 traffic above 2x the DRAM traffic (when the counters show it), invocations under
// 0.1 ms (predicted on a device, or measured), and low utilization (E_mix x E_instr under
// 25 % while compute bound).
std::vector<ReportWarning> report_warnings(const KernelProfile& profile, const ProfilePrediction& prediction);

const char* to_string(ReportWarning::Kind kind);

}  // namespace roofcast
