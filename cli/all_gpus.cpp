#include "all_gpus.hpp"

#include <algorithm>

#include "roofcast/data/spec_devices.hpp"

namespace roofcast {

void append_all_gpus(std::vector<DeviceProfile>& devices) {
  const auto add = [&](DeviceProfile device) {
    if (std::none_of(devices.begin(), devices.end(), [&](const DeviceProfile& d) { return d.name == device.name; }))
      devices.push_back(std::move(device));
  };
  const SpecInputs inputs = load_spec_inputs();
  for (const auto& reference : inputs.references)
    if (reference.mps_percentage >= 100) add(reference.profile);
  for (auto& device : unmeasured_spec_devices()) add(std::move(device));
}

}  // namespace roofcast
