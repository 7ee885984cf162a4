#pragma once

#include <string>
#include <vector>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/pipes_prediction.hpp"

namespace roofcast {

// One way a kernel wastes the GPU (`roofcast explain`, docs/tuning.md), with the time the pipes
// model predicts if it were fixed: the same kernel with that one cost at its ideal.
struct Diagnostic {
  std::string name;      // "uncoalesced global loads", "warp divergence", "shared bank conflicts", ...
  bool measured = false; // false: the profile lacks the counters (`finding` names them)
  bool applies = false;  // measured, and worse than the ideal by more than the noise
  double observed = 0;   // e.g. sectors per request; active threads per warp instruction
  double ideal = 0;
  std::string finding;   // one line for people
  double predicted_ms = 0;  // as profiled
  double fixed_ms = 0;      // if fixed; 0 when it does not apply
};

// `terms`: the pipes model's, as the prediction the diagnostics go with (`explain --ablate`).
std::vector<Diagnostic> diagnose(const KernelRecord& kernel, const DeviceProfile& device, const PipesTerms& terms = {});

}  // namespace roofcast
