#pragma once

#include <cstdint>
#include <optional>
#include <regex>
#include <string>

namespace roofcast::profiler {

// Which kernel launches a run records, as ncu's -k/-s/-c/--devices: launches whose
// (demangled) name matches `name_regex` on device `device` are counted; the first `skip`
// of them are passed over, then at most `count` are recorded. Both runs of one profile
// apply the same filter in the same launch order, which is what lets them be joined.
struct LaunchFilterSettings {
  std::string name_regex;           // empty: every kernel
  uint64_t skip = 0;
  std::optional<uint64_t> count;    // nullopt: no limit
  std::optional<int> device;        // nullopt: every device
};

class LaunchFilter {
 public:
  explicit LaunchFilter(const LaunchFilterSettings& settings);

  // Called once per launch, in launch order. Returns the launch's index among the recorded
  // launches of this process, or nullopt when it is not recorded.
  std::optional<uint64_t> admit(const std::string& demangled_name, int device);

 private:
  LaunchFilterSettings settings_;
  std::optional<std::regex> regex_;
  uint64_t matched_ = 0;
  uint64_t recorded_ = 0;
};

}  // namespace roofcast::profiler
