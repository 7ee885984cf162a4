#include "roofcast/profiler/kernel_summary.hpp"

#include <algorithm>
#include <limits>

#include "roofcast/profiler/metric_set.hpp"

namespace roofcast::profiler {

namespace {

double median_of(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  if (n == 0) return 0;
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

bool is_summable(const std::string& metric) {
  if (const MetricInfo* info = find_metric(metric)) return info->summable;
  return metric.ends_with(".sum");
}

// How much one launch counts in the mean of a ratio metric (occupancy...): its duration, so
// the mean is over the kernel's run time; else its warp instructions; else 1. A kernel of one
// long launch and a few one-block launches is then described by the long one.
double ratio_weight(const LaunchRecord& launch) {
  if (launch.duration_ns && *launch.duration_ns > 0) return *launch.duration_ns;
  if (const auto it = launch.metrics.find("smsp__inst_executed.sum"); it != launch.metrics.end() && it->second > 0)
    return it->second;
  return 1;
}

nlohmann::json launch_json(const LaunchRecord& launch) {
  nlohmann::json entry = {{"process", launch.process},
                          {"index", launch.index},
                          {"device", launch.device},
                          {"grid", launch.grid},
                          {"block", launch.block},
                          {"registers", launch.registers},
                          {"static_shared_bytes", launch.static_shared_bytes},
                          {"dynamic_shared_bytes", launch.dynamic_shared_bytes}};
  if (launch.duration_ns) entry["duration_ms"] = *launch.duration_ns / 1e6;
  if (!launch.metrics.empty()) entry["counters"] = launch.metrics;
  return entry;
}

}  // namespace

std::vector<KernelSummary> summarize_kernels(const std::vector<LaunchRecord>& launches) {
  std::vector<KernelSummary> kernels;
  std::map<std::string, size_t> position;
  for (const auto& launch : launches) {
    auto [it, added] = position.try_emplace(launch.name, kernels.size());
    if (added) {
      kernels.emplace_back();
      kernels.back().name = launch.demangled;
      kernels.back().mangled_name = launch.name;
    }
    kernels[it->second].launches.push_back(&launch);
  }
  for (auto& kernel : kernels) {
    kernel.invocations = static_cast<int64_t>(kernel.launches.size());
    std::vector<double> durations;
    std::map<std::string, double> weights;                 // of the ratio metrics
    std::vector<std::map<std::string, double>> shape_sums;  // counts over each shape's profiled launches
    for (const LaunchRecord* launch : kernel.launches) {
      if (launch->duration_ns) durations.push_back(*launch->duration_ns / 1e6);
      auto shape = std::find_if(kernel.shapes.begin(), kernel.shapes.end(), [&](const LaunchShapeSummary& s) {
        return s.grid == launch->grid && s.block == launch->block && s.registers == launch->registers &&
               s.static_shared_bytes == launch->static_shared_bytes &&
               s.dynamic_shared_bytes == launch->dynamic_shared_bytes;
      });
      if (shape == kernel.shapes.end()) {
        shape = kernel.shapes.insert(kernel.shapes.end(),
                                     LaunchShapeSummary{launch->grid, launch->block, launch->registers,
                                                        launch->static_shared_bytes, launch->dynamic_shared_bytes, 0, 0});
        shape_sums.emplace_back();
      }
      ++shape->invocations;
      if (launch->metrics.empty()) continue;
      ++shape->profiled_invocations;
      ++kernel.profiled_invocations;
      auto& sums = shape_sums[static_cast<size_t>(shape - kernel.shapes.begin())];
      const double weight = ratio_weight(*launch);
      for (const auto& [metric, value] : launch->metrics) {
        if (is_summable(metric)) {
          sums[metric] += value;
        } else {
          kernel.counters[metric] += weight * value;
          weights[metric] += weight;
        }
      }
    }
    for (auto& [metric, value] : kernel.counters) value /= weights[metric];
    int64_t covered = 0;  // invocations of the shapes that have profiled launches
    for (size_t i = 0; i < kernel.shapes.size(); ++i) {
      const LaunchShapeSummary& shape = kernel.shapes[i];
      if (shape.profiled_invocations == 0) continue;
      covered += shape.invocations;
      const double factor = static_cast<double>(shape.invocations) / static_cast<double>(shape.profiled_invocations);
      for (const auto& [metric, sum] : shape_sums[i]) kernel.counters[metric] += sum * factor;
    }
    if (covered > 0 && covered < kernel.invocations)
      for (auto& [metric, value] : kernel.counters)
        if (is_summable(metric)) value *= static_cast<double>(kernel.invocations) / static_cast<double>(covered);
    kernel.scaled = kernel.profiled_invocations > 0 && kernel.profiled_invocations < kernel.invocations;
    if (!durations.empty()) {
      for (double d : durations) kernel.total_ms += d;
      kernel.min_ms = *std::min_element(durations.begin(), durations.end());
      kernel.max_ms = *std::max_element(durations.begin(), durations.end());
      kernel.median_ms = median_of(durations);
    }
  }
  return kernels;
}

nlohmann::json kernel_profile_json(const std::vector<KernelSummary>& kernels, const ProfileProvenance& provenance,
                                   bool per_launch) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& kernel : kernels) {
    nlohmann::json entry = {{"name", kernel.name}, {"mangled_name", kernel.mangled_name},
                            {"invocations", kernel.invocations}};
    if (kernel.total_ms > 0) {
      entry["measured_ms"] = kernel.total_ms;
      entry["min_ms"] = kernel.min_ms;
      entry["median_ms"] = kernel.median_ms;
      entry["max_ms"] = kernel.max_ms;
    }
    entry["counters"] = kernel.counters;
    if (kernel.profiled_invocations > 0) {
      entry["profiled_invocations"] = kernel.profiled_invocations;
      // "none": every invocation was profiled; "per_launch_shape": counts are each shape's
      // profiled sum x invocations / profiled invocations (launch_shapes say how many of each).
      entry["counter_scaling"] = kernel.scaled ? "per_launch_shape" : "none";
    }
    nlohmann::json shapes = nlohmann::json::array();
    for (const auto& s : kernel.shapes) {
      shapes.push_back({{"grid", s.grid}, {"block", s.block}, {"registers", s.registers},
                        {"static_shared_bytes", s.static_shared_bytes}, {"dynamic_shared_bytes", s.dynamic_shared_bytes},
                        {"invocations", s.invocations}});
      if (kernel.scaled) shapes.back()["profiled_invocations"] = s.profiled_invocations;
    }
    entry["launch_shapes"] = shapes;
    if (per_launch) {
      nlohmann::json launches = nlohmann::json::array();
      for (const LaunchRecord* launch : kernel.launches) launches.push_back(launch_json(*launch));
      entry["launches"] = launches;
    }
    list.push_back(entry);
  }
  nlohmann::json collector = {{"tool", "roofcast profile"}, {"command", provenance.command}, {"date", provenance.date},
                              {"metric_set", provenance.metric_set}, {"metrics", provenance.metrics}};
  if (!provenance.chip.empty()) collector["chip"] = provenance.chip;
  if (provenance.passes) collector["replay_passes"] = *provenance.passes;
  if (!provenance.cache_control.empty()) collector["cache_control"] = provenance.cache_control;
  nlohmann::json profile = {{"format", "roofcast-profile"}, {"version", 1}};
  if (!provenance.reference_device.empty()) profile["reference_device"] = provenance.reference_device;
  profile["collector"] = collector;
  profile["kernels"] = list;
  return profile;
}

MeasuredTimes measured_times(const std::vector<KernelSummary>& kernels, const std::string& device) {
  MeasuredTimes times;
  times.device = device;
  for (const auto& kernel : kernels) {
    if (kernel.total_ms <= 0) continue;
    times.kernels.push_back({kernel.name, kernel.invocations, kernel.total_ms, kernel.min_ms, kernel.median_ms,
                             kernel.max_ms});
  }
  return times;
}

}  // namespace roofcast::profiler
