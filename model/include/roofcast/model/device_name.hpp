#pragma once

#include <string>
#include <string_view>

namespace roofcast {

// The one rule by which a device name given anywhere (--device, a profile's reference_device,
// a measured-time file's device, a device-profile file's name) matches another: letters and
// digits only, case ignored. "NVIDIA H200" = "nvidia-h200", "GTX-1060 6GB" = "gtx_1060_6gb".
std::string device_name_key(std::string_view name);
bool same_device_name(std::string_view a, std::string_view b);

}  // namespace roofcast
