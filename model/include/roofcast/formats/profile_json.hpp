#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"

namespace roofcast {

// Parsers of the public formats (formats.md). `source` names the file in error
// messages. They throw InputError on any bad input.
DeviceProfile parse_device_profile(std::string_view json_text, const std::string& source);
KernelProfile parse_kernel_profile(std::string_view json_text, const std::string& source);

// parse_kernel_profile without its fast path for well-formed profiles (profile_json_fast_path.hpp):
// the same result and the same errors, slower. Tests and the fuzz target compare the two.
KernelProfile parse_kernel_profile_checked(std::string_view json_text, const std::string& source);

// Writers: the JSON object of each format. Fields the model does not hold
// (provenance, per-launch records...) are the writer's to add to the result.
nlohmann::json to_json(const DeviceProfile& device);
nlohmann::json to_json(const KernelProfile& profile);

}  // namespace roofcast
