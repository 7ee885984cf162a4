#include "roofcast/profiler/spread_plan.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace roofcast::profiler {

namespace {

constexpr double kRelativeTolerance = 0.02;
constexpr double kAbsoluteToleranceNs = 200;
constexpr double kMinShareOfKernelTime = 0.01;

// The value at fraction q of the sorted values (nearest rank).
double percentile(const std::vector<double>& sorted, double q) {
  const auto rank = static_cast<size_t>(std::lround(q * static_cast<double>(sorted.size() - 1)));
  return sorted[rank];
}

struct ShapeLaunches {
  size_t profiled = 0;
  std::vector<double> unprofiled_ns;
  size_t unprofiled = 0;
  std::map<std::string, std::pair<double, double>> instruction_range;  // of the profiled launches
};

// Instruction counters: a kernel whose launches do the same work counts the same instructions.
bool is_instruction_metric(const std::string& metric) { return metric.find("inst_executed") != std::string::npos; }

bool same_instructions(const ShapeLaunches& shape) {
  for (const auto& [metric, range] : shape.instruction_range) {
    const auto [low, high] = range;
    if (high - low > kRelativeTolerance * high) return false;
  }
  return true;
}

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
  std::map<SampleShape, double> shape_ns;
  double all_ns = 0;
  for (const auto& launch : launches) {
    const SampleShape key{launch.name, launch.grid, launch.block};
    ShapeLaunches& shape = by_shape[{launch.process, key}];
    const double ns = launch.duration_ns && std::isfinite(*launch.duration_ns) ? *launch.duration_ns : 0;
    shape_ns[key] += ns;
    all_ns += ns;
    if (!launch.metrics.empty()) {
      ++shape.profiled;
      for (const auto& [metric, value] : launch.metrics) {
        if (!is_instruction_metric(metric) || !std::isfinite(value)) continue;
        auto [range, first] = shape.instruction_range.try_emplace(metric, value, value);
        if (!first) range->second = {std::min(range->second.first, value), std::max(range->second.second, value)};
      }
      continue;
    }
    ++shape.unprofiled;
    if (launch.duration_ns && std::isfinite(*launch.duration_ns)) shape.unprofiled_ns.push_back(*launch.duration_ns);
  }
  std::set<SampleShape> spread;
  for (const auto& [key, shape] : by_shape) {
    const SampleShape& sample_shape = std::get<1>(key);
    if (shape.unprofiled == 0) continue;  // every launch has its own counters
    if (shape.profiled == 0) {            // no counters at all otherwise
      spread.insert(sample_shape);
      continue;
    }
    if (shape_ns[sample_shape] < kMinShareOfKernelTime * all_ns) continue;
    const bool timed = shape.unprofiled_ns.size() == shape.unprofiled;
    if (!timed || !alike_in_time(shape.unprofiled_ns) || !same_instructions(shape)) spread.insert(sample_shape);
  }
  return spread;
}

}  // namespace roofcast::profiler
