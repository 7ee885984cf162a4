#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"

namespace roofcast {

// A file of data/ compiled into the binary.
struct BundledFile {
  enum class Kind { device, profile };
  Kind kind;
  std::string_view id;    // the file name without .json, e.g. "thesis-gtx-660"
  std::string_view text;  // the JSON
};

std::span<const BundledFile> bundled_files();

// Every bundled device profile, parsed.
std::vector<DeviceProfile> bundled_devices();

// A device profile by bundled name or file id, ignoring case, spaces and dashes
// ("GTX-1060 6GB", "gtx1060-6gb" and "thesis-gtx-1060-6gb" all match); nullopt if none.
std::optional<DeviceProfile> find_bundled_device(std::string_view name);

// A bundled kernel profile by its id ("thesis-redblack"); nullopt if none.
std::optional<KernelProfile> find_bundled_profile(std::string_view id);

// The ids of the bundled kernel profiles.
std::vector<std::string> bundled_profile_ids();

}  // namespace roofcast
