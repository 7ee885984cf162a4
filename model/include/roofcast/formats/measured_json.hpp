#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace roofcast {

// Measured kernel times on one device, with no counters: what `roofcast profile
// --timing-only` writes (also where counters cannot be collected, e.g. under MPS) and what
// `roofcast validate` compares predictions with. Format "roofcast-measured", version 1:
// {"format":"roofcast-measured","version":1,"device":"NVIDIA H100 80GB HBM3",
//  "kernels":[{"name":..,"invocations":N,"measured_ms":total,"min_ms":..,"median_ms":..,"max_ms":..}]}
struct MeasuredKernel {
  std::string name;
  int64_t invocations = 1;
  double measured_ms = 0;  // total over the invocations
  double min_ms = 0;
  double median_ms = 0;
  double max_ms = 0;
};

struct MeasuredTimes {
  std::string device;
  std::vector<MeasuredKernel> kernels;
};

// Throws InputError naming `source` and the field at fault.
MeasuredTimes parse_measured_times(std::string_view json_text, const std::string& source);
nlohmann::json to_json(const MeasuredTimes& times);

}  // namespace roofcast
