#include "roofcast/profiler/spread_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

namespace roofcast::profiler {

SampleShape sample_shape(const LaunchRecord& launch) { return {launch.name, launch.grid, launch.block}; }

namespace {

using ProcessShape = std::tuple<int, SampleShape>;

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
  size_t unprofiled = 0;
  std::vector<double> unprofiled_ns;  // of those that were timed
  std::map<std::string, std::pair<double, double>> instruction_range;  // of the profiled launches
};

// Launches alike in work count the same instructions (is_instruction_metric).
bool same_instructions(const ShapeLaunches& shape) {
  for (const auto& [metric, range] : shape.instruction_range) {
    const auto [low, high] = range;
    if (high - low > kInstructionTolerance * high) return false;
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
  std::map<ProcessShape, ShapeLaunches> by_shape;
  std::map<SampleShape, double> shape_ns;
  double all_ns = 0;
  for (const auto& launch : launches) {
    const SampleShape key = sample_shape(launch);
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
    const SampleShape& launch_shape = std::get<1>(key);
    if (shape.unprofiled == 0) continue;  // every launch has its own counters
    if (shape.profiled == 0) {            // no counters at all otherwise
      spread.insert(launch_shape);
      continue;
    }
    if (shape_ns[launch_shape] < kMinShareOfKernelTime * all_ns) continue;
    const bool timed = shape.unprofiled_ns.size() == shape.unprofiled;
    if (!timed || !alike_in_time(shape.unprofiled_ns) || !same_instructions(shape)) spread.insert(launch_shape);
  }
  return spread;
}

SamplePlan counter_run_sample_plan(const std::vector<LaunchRecord>& timing_launches, const CounterRunPlan& what) {
  std::map<ProcessShape, uint64_t> counts;
  for (const auto& launch : timing_launches) ++counts[{launch.process, sample_shape(launch)}];
  SamplePlan plan;
  for (const auto& [key, count] : counts) {
    const SampleShape& shape = std::get<1>(key);
    const bool wanted = what.only == nullptr || what.only->contains(shape);
    const auto already = what.already_profiled.find(shape);
    // A shape planned with no launches is never sampled.
    plan.add(shape, wanted ? count : 0, already == what.already_profiled.end() ? 0 : already->second);
  }
  return plan;
}

uint64_t planned_launches(const std::vector<LaunchRecord>& timing_launches, const SamplePlan& plan, uint64_t sample) {
  std::map<ProcessShape, uint64_t> counts;
  for (const auto& launch : timing_launches) ++counts[{launch.process, sample_shape(launch)}];
  uint64_t planned = 0;
  for (const auto& [key, count] : counts) {
    const SampleShape& shape = std::get<1>(key);
    const uint64_t total = plan.launches(shape).value_or(0);
    for (uint64_t occurrence = plan.already_profiled(shape); occurrence < std::min(count, total); ++occurrence)
      planned += is_sampled(occurrence, total, sample);
  }
  return planned;
}

std::map<SampleShape, uint64_t> first_profiled(const std::vector<LaunchRecord>& launches,
                                               const std::set<SampleShape>& spread) {
  std::map<ProcessShape, uint64_t> leading;
  std::set<ProcessShape> ended;  // a launch without counters ends the leading run
  for (const auto& launch : launches) {
    const ProcessShape key{launch.process, sample_shape(launch)};
    if (!spread.contains(std::get<1>(key)) || ended.contains(key)) continue;
    if (launch.metrics.empty())
      ended.insert(key);
    else
      ++leading[key];
  }
  std::map<SampleShape, uint64_t> by_shape;
  for (const auto& [key, count] : leading) by_shape[std::get<1>(key)] = std::max(by_shape[std::get<1>(key)], count);
  return by_shape;
}

size_t take_spread_counters(std::vector<LaunchRecord>& launches, const std::vector<LaunchRecord>& counter_run_launches,
                            const CounterRunPlan& plan, uint64_t sample) {
  std::map<SampleShape, uint64_t> totals;  // the plan's counts: the most over the processes
  std::map<ProcessShape, uint64_t> occurrences;
  for (const auto& launch : launches) {
    const SampleShape shape = sample_shape(launch);
    totals[shape] = std::max(totals[shape], ++occurrences[{launch.process, shape}]);
  }
  occurrences.clear();
  if (sample == 0) sample = std::numeric_limits<uint64_t>::max();
  size_t counted = 0;
  for (size_t i = 0; i < launches.size() && i < counter_run_launches.size(); ++i) {
    LaunchRecord& launch = launches[i];
    const SampleShape shape = sample_shape(launch);
    if (plan.only == nullptr || !plan.only->contains(shape)) continue;
    const uint64_t occurrence = occurrences[{launch.process, shape}]++;
    const auto already = plan.already_profiled.find(shape);
    const bool from_first_run = already != plan.already_profiled.end() && occurrence < already->second;
    if (!is_sampled(occurrence, totals[shape], sample))
      launch.metrics.clear();
    else if (!from_first_run)
      launch.metrics = counter_run_launches[i].metrics;
    counted += !from_first_run && !launch.metrics.empty();
  }
  return counted;
}

}  // namespace roofcast::profiler
