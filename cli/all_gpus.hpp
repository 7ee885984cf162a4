#pragma once

#include <vector>

#include "roofcast/model/device_profile.hpp"

namespace roofcast {

// --all-gpus of rank and report: appends every whole-GPU measured device profile of the data
// folders and the derived profile of every GPU of the spec table that none of them is
// (data/specs, docs/derived-devices.md); a device already in `devices` is not added again.
void append_all_gpus(std::vector<DeviceProfile>& devices);

}  // namespace roofcast
