#pragma once

#include <string>
#include <vector>

#include "roofcast/model/device_profile.hpp"

namespace roofcast {

// Where the pipes model goes without a term for want of bench keys in a device's profile
// (missing_bench_keys_note), one line per device, "DEVICE: note"; devices with the same note
// (the thesis' devices: none of the keys) share a line. None for `--model thesis`, which reads
// only the six throughputs.
std::vector<std::string> missing_bench_key_notes(const std::vector<DeviceProfile>& devices, const std::string& model);

// The same lines on stderr as warnings ("roofcast: warning: ..."), for the table, CSV and
// markdown outputs; JSON outputs carry them in their notes instead.
void warn_missing_bench_keys(const std::vector<DeviceProfile>& devices, const std::string& model);

}  // namespace roofcast
