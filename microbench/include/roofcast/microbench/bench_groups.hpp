#pragma once
// The suite's characterizer groups and the device-profile keys each writes: one list that the
// suite runs its steps by and `roofcast bench --complete` plans with (bench_completion.hpp).
// Standard headers only: the HIP build of microbench/gpu includes it.

#include <string>
#include <vector>

namespace roofcast::microbench {

// A step of the suite (run_suite runs them in this order) and the `throughput` keys it writes.
struct BenchGroup {
  std::string name;               // "atomics", "launch overhead"...: the progress bar shows it
  std::vector<std::string> keys;  // none for the roofline sweep and the copies (not throughput keys)
};
const std::vector<BenchGroup>& bench_groups();

}  // namespace roofcast::microbench
