#include "roofcast/profiler/spread_plan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include <fmt/format.h>

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

std::set<SampleShape> keep_in_run_samples(std::vector<LaunchRecord>& launches, uint64_t sample) {
  std::map<ProcessShape, uint64_t> totals;
  for (const auto& launch : launches) ++totals[{launch.process, sample_shape(launch)}];
  std::map<ProcessShape, uint64_t> occurrences;
  std::set<ProcessShape> holes;  // an in-run sample launch without counters
  for (const auto& launch : launches) {
    const ProcessShape key{launch.process, sample_shape(launch)};
    if (in_run_sampled(occurrences[key]++, totals[key], sample) && launch.metrics.empty()) holes.insert(key);
  }
  std::set<SampleShape> sampled, not_sampled;
  for (const auto& [key, total] : totals) {
    const SampleShape& shape = std::get<1>(key);
    if (holes.contains(key))
      not_sampled.insert(shape);
    else if (sample > 0 && total > sample)
      sampled.insert(shape);
  }
  for (const auto& shape : not_sampled) sampled.erase(shape);
  occurrences.clear();
  for (auto& launch : launches) {
    const ProcessShape key{launch.process, sample_shape(launch)};
    const uint64_t occurrence = occurrences[key]++;
    if (sampled.contains(std::get<1>(key)) && !in_run_sampled(occurrence, totals[key], sample)) launch.metrics.clear();
  }
  return sampled;
}

bool alike_in_time(std::vector<double> durations_ns) {
  if (durations_ns.size() < 2) return true;
  std::sort(durations_ns.begin(), durations_ns.end());
  const double median = percentile(durations_ns, 0.5);
  const double tolerance = std::max(kRelativeTolerance * median, kAbsoluteToleranceNs);
  return median - percentile(durations_ns, 0.1) <= tolerance && percentile(durations_ns, 0.9) - median <= tolerance;
}

std::map<SampleShape, SpreadReason> shapes_to_spread(const std::vector<LaunchRecord>& launches,
                                                     const std::set<SampleShape>& sampled_in_run) {
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
  std::map<SampleShape, SpreadReason> spread;
  auto add = [&](const SampleShape& shape, SpreadReason reason) {
    auto [known, added] = spread.emplace(shape, reason);
    if (!added) known->second = std::min(known->second, reason);
  };
  for (const auto& [key, shape] : by_shape) {
    const SampleShape& launch_shape = std::get<1>(key);
    if (shape.unprofiled == 0 || sampled_in_run.contains(launch_shape)) continue;  // counters enough
    if (shape.profiled == 0) {  // no counters at all otherwise
      add(launch_shape, SpreadReason::no_counters);
      continue;
    }
    if (shape_ns[launch_shape] < kMinShareOfKernelTime * all_ns) continue;
    const bool timed = shape.unprofiled_ns.size() == shape.unprofiled;
    if (!same_instructions(shape))
      add(launch_shape, SpreadReason::instructions_differ);
    else if (shape.unprofiled > shape.profiled && (!timed || !alike_in_time(shape.unprofiled_ns)))
      add(launch_shape, SpreadReason::times_differ);
  }
  return spread;
}

std::set<SampleShape> shapes_of(const std::map<SampleShape, SpreadReason>& spread) {
  std::set<SampleShape> shapes;
  for (const auto& [shape, reason] : spread) shapes.insert(shape);
  return shapes;
}

std::string spread_reasons_text(const std::map<SampleShape, SpreadReason>& spread) {
  std::map<SpreadReason, size_t> counts;
  for (const auto& [shape, reason] : spread) ++counts[reason];
  std::string text;
  for (const auto& [reason, count] : counts) {
    const char* why = reason == SpreadReason::no_counters ? "with no counters in the first run (CUDA graph kernels)"
                      : reason == SpreadReason::instructions_differ ? "whose launches count different instructions"
                                                                    : "whose launch times differ";
    text += fmt::format("{}{} {}", text.empty() ? "" : ", ", count, why);
  }
  return text;
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
