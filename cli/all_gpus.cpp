#include "all_gpus.hpp"

#include <algorithm>

#include "roofcast/data/spec_devices.hpp"
#include "roofcast/model/device_name.hpp"

namespace roofcast {

void append_all_gpus(std::vector<DeviceProfile>& devices) {
  const auto add = [&](DeviceProfile device) {
    if (std::none_of(devices.begin(), devices.end(), [&](const DeviceProfile& d) { return d.name == device.name; }))
      devices.push_back(std::move(device));
  };
  const SpecInputs inputs = load_spec_inputs();
  // One measured profile per GPU of the table: the one named like its spec id ("h100-sxm"), else the first by id.
  for (const auto& gpu : inputs.table.gpus) {
    const MeasuredReference* chosen = nullptr;
    for (const auto& reference : inputs.references) {
      if (reference.mps_percentage < 100 || inputs.table.gpu_of_device_name(reference.device_name) != &gpu) continue;
      if (!chosen || same_device_name(reference.id, gpu.id) ||
          (!same_device_name(chosen->id, gpu.id) && reference.id < chosen->id))
        chosen = &reference;
    }
    if (chosen) add(chosen->profile);
  }
  for (auto& device : unmeasured_spec_devices()) add(std::move(device));
}

}  // namespace roofcast
