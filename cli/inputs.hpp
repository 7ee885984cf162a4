#pragma once

#include <string>
#include <vector>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"

namespace roofcast {

// A device given on the command line: a device-profile file, or a bundled device's name.
DeviceProfile load_device(const std::string& name_or_file);
// A kernel profile given on the command line: a file, or a bundled profile's id.
KernelProfile load_profile(const std::string& name_or_file);

// The devices of --device (repeatable) and --all-devices; every bundled device when neither is given.
std::vector<DeviceProfile> load_devices(const std::vector<std::string>& names_or_files, bool all_bundled);

}  // namespace roofcast
