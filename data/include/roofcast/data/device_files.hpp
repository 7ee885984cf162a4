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

// The device called `name` (device_name_key: case, spaces and punctuation ignored): a bundled
// device by name or id, else a device file by id ("h100-sxm"), else the one device file whose
// device has that name, else a GPU of the spec table, derived ("spec:a100-sxm-80gb" or
// "a100-sxm-80gb", find_spec_device). nullopt when none; throws InputError when the name fits
// several files' devices, naming them.
std::optional<DeviceProfile> find_named_device(std::string_view name);

}  // namespace roofcast
