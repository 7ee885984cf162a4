#include "roofcast/profiler/spread_plan.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace roofcast::profiler {

namespace {

constexpr double kRelativeTolerance = 0.02;
constexpr double kAbsoluteToleranceNs = 200;

// The value at fraction q of the sorted values (nearest rank).
double percentile(const std::vector<double>& sorted, double q) {
  const auto rank = static_cast<size_t>(std::lround(q * static_cast<double>(sorted.size() - 1)));
  return sorted[rank];
}

struct ShapeLaunches {
  size_t profiled = 0;
  std::vector<double> unprofiled_ns;
  size_t unprofiled = 0;
};

}  // namespace

bool alike_in_time(std::vector<double> durations_ns) {
  if (durations_ns.size() < 2) return true;
  std::sort(durations_ns.begin(), durations_ns.end());
  const double median = percentile(durations_ns, 0.5);
  const double tolerance = std::max(kRelativeTolerance * median, kAbsoluteToleranceNs);
  return median - percentile(durations_ns, 0.1) <= tolerance && percentile(durations_ns, 0.9) - median <= tolerance;
}

std::set<SampleShape> shapes_to_spread(const std::vector<LaunchRecord>& launches) {
  std::map<std::tuple<int, SampleShape>, ShapeLaunches> by_shape;
  for (const auto& launch : launches) {
    ShapeLaunches& shape = by_shape[{launch.process, SampleShape{launch.name, launch.grid, launch.block}}];
    if (!launch.metrics.empty()) {
      ++shape.profiled;
      continue;
    }
    ++shape.unprofiled;
    if (launch.duration_ns && std::isfinite(*launch.duration_ns)) shape.unprofiled_ns.push_back(*launch.duration_ns);
  }
  std::set<SampleShape> spread;
  for (const auto& [key, shape] : by_shape) {
    if (shape.unprofiled == 0) continue;  // every launch has its own counters
    const bool timed = shape.unprofiled_ns.size() == shape.unprofiled;
    if (shape.profiled == 0 || !timed || !alike_in_time(shape.unprofiled_ns)) spread.insert(std::get<1>(key));
  }
  return spread;
}

}  // namespace roofcast::profiler
