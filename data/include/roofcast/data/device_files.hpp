#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofcast/model/device_profile.hpp"

namespace roofcast {

// The data folders searched for device profiles given by name, in order: $ROOFCAST_DATA_DIR,
// share/roofcast beside the running program's bin/ (an installed roofcast), then the source
// tree's data/. Each holds devices/*.json and devices/measured/*.json (docs/formats.md).
std::vector<std::filesystem::path> data_folders();

// A device-profile file of a data folder; `id` is its file name without .json ("h100-sxm").
struct DeviceFile {
  std::string id;
  std::filesystem::path path;
};

// A device-profile file, read and parsed; InputError naming it when it is larger than any device
// profile (input_limits::kMaxDeviceProfileBytes) or not one.
DeviceProfile read_device_profile_file(const std::filesystem::path& path);

// Every device-profile file of the data folders, by folder order then name; an id found in an
// earlier folder hides the same id in a later one. Files whose id is a bundled device's are left
// out (the binary has those compiled in).
std::vector<DeviceFile> device_files();

}  // namespace roofcast
