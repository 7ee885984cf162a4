#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

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

// What a program that measured a device writes beside the format's fields (`roofcast bench`:
// per-point spread, fit quality, hardware, clocks, statistics, provenance). Readers ignore it.
struct DeviceProfileDetails {
  std::vector<nlohmann::json> roofline_sweep;        // objects merged into the sweep's points, in order
  std::map<std::string, nlohmann::json> transfers;   // objects merged into the copy fits, by key
  nlohmann::json members = nlohmann::json::object(); // further members; objects merge with the format's
};
// The device-profile document with `details` beside the format's fields; where both give a
// member, the format's value is kept.
nlohmann::json to_json(const DeviceProfile& device, const DeviceProfileDetails& details);

}  // namespace roofcast
