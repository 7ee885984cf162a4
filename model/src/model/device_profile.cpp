#include "roofcast/model/device_profile.hpp"

#include <cmath>
#include <utility>

namespace roofcast {

std::optional<std::string> find_problem(const DeviceThroughput& t) {
  const std::pair<const char*, double> all[] = {
      {"fp32_gflops", t.fp32_gflops},           {"fp64_gflops", t.fp64_gflops},
      {"int32_mad_giops", t.int32_mad_giops},   {"int32_add_giops", t.int32_add_giops},
      {"shared_ldst_gops", t.shared_ldst_gops}, {"dram_gbps", t.dram_gbps}};
  for (const auto& [name, value] : all) {
    if (!std::isfinite(value) || value <= 0) return std::string("throughput.") + name + ": must be a number > 0";
  }
  return std::nullopt;
}

}  // namespace roofcast
