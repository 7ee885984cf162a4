#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace roofcast::profiler {

// The chip name ("GH100"), marketing name and counter availability of a local GPU, read
// through a primary context. Throws std::runtime_error with a one-line reason when there is
// no NVIDIA GPU or driver, or when counters are not permitted.
struct LocalDevice {
  int index = 0;
  std::string name;
  std::string chip;
  std::vector<uint8_t> counter_availability;
};

LocalDevice open_local_device(int index);

}  // namespace roofcast::profiler
