#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "roofcast/model/device_profile.hpp"

namespace roofcast {

// A key of a device profile's `throughput` object that the multi-pipeline model reads, beyond
// the thesis' six (docs/bench.md says how `roofcast bench` measures each).
struct BenchKey {
  std::string_view key;   // "block_dispatch_gblocks"
  std::string_view term;  // what the model leaves out or derives without it: "block dispatch"
  // true: `roofcast bench` measures it on every GPU; false: only on GPUs with that unit (the
  // tensor peaks), so a profile without it is not incomplete.
  bool every_gpu = true;
};

// Every key the pipes model reads, in one list: device_rates_of reads each through
// bench_value(), which refuses a key that is not here. Tests hold the shipped device profiles
// against it, and `roofcast bench --complete` measures what a profile lacks of it.
std::span<const BenchKey> pipes_bench_keys();

// The value of `key` in the device profile, 0 when absent. Throws std::logic_error when `key`
// is not in pipes_bench_keys(): a key the model reads must be listed.
double bench_value(const DeviceProfile& device, std::string_view key);

// The every-GPU keys the device profile lacks (absent, or not > 0), in the list's order.
std::vector<std::string> missing_bench_keys(const DeviceProfile& device);

// What the pipes model leaves out on this device for want of bench keys, one line naming the
// keys and the terms, and the command that measures them (`roofcast bench --complete`, naming
// the profile's file); "" when it lacks none. A profile with none of the keys (the thesis' six
// throughputs, published) is said to be one.
std::string missing_bench_keys_note(const DeviceProfile& device);

}  // namespace roofcast
