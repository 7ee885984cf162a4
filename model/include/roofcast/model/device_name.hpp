#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace roofcast {

// The one rule by which a device name given anywhere (--device, a profile's reference_device,
// a measured-time file's device, a device-profile file's name) matches another: letters and
// digits only, case ignored. "NVIDIA H200" = "nvidia-h200", "GTX-1060 6GB" = "gtx_1060_6gb".
std::string device_name_key(std::string_view name);
bool same_device_name(std::string_view a, std::string_view b);

// Whether `query` names the device called `name` the way a person shortens it: each of the
// query's words (letters and digits, case ignored) is one or more consecutive words of the
// name, in the name's order ("H100", "nvidia h100", "gtx660" and "GTX-660" all name "NVIDIA H100
// 80GB HBM3" or "GTX-660"). A partition (the words from "MPS" or "MIG" on: "H200 MPS 25%",
// "h200-mps25") must be the same in both: a query without one names the whole GPU only.
bool device_name_matches(std::string_view query, std::string_view name);

// The keys of the short forms of `name` that device_name_matches takes, each a run of
// consecutive words with the partition ("h100", "nvidiah100", "h100mps25"...), for "did you mean".
std::vector<std::string> device_name_forms(std::string_view name);

}  // namespace roofcast
