#include "roofcast/model/kernel_profile.hpp"

namespace roofcast {

KernelParameters kernel_parameters_of(const KernelRecord& kernel) {
  if (const auto* counters = std::get_if<KernelCounters>(&kernel.description))
    return kernel_parameters_from_counters(counters->thesis);
  return std::get<KernelParameters>(kernel.description);
}

}  // namespace roofcast
