#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofcast/formats/measured_json.hpp"
#include "roofcast/profiler/launch_records.hpp"

namespace roofcast::profiler {

struct LaunchShapeSummary {
  std::array<unsigned, 3> grid{};
  std::array<unsigned, 3> block{};
  unsigned registers = 0;
  unsigned static_shared_bytes = 0;
  unsigned dynamic_shared_bytes = 0;
  int64_t invocations = 0;
  int64_t profiled_invocations = 0;  // of them, with counters
};

// One kernel's launches taken together.
struct KernelSummary {
  std::string name;          // demangled
  std::string mangled_name;
  int64_t invocations = 0;
  double total_ms = 0, min_ms = 0, median_ms = 0, max_ms = 0;
  // Counts: totals over all invocations; where only some were profiled (a sampled counter
  // run), each launch shape's profiled sum times invocations / profiled invocations of the
  // shape (and shapes with none profiled as the kernel's others). Ratios: means over the
  // profiled launches, weighted by duration.
  std::map<std::string, double> counters;
  int64_t profiled_invocations = 0;  // launches with counters
  bool scaled = false;               // counts were scaled from fewer launches than invocations
  std::vector<LaunchShapeSummary> shapes;  // distinct launch shapes, in order of first use
  std::vector<const LaunchRecord*> launches;
};

// Groups launches by kernel (mangled name), in order of each kernel's first launch.
std::vector<KernelSummary> summarize_kernels(const std::vector<LaunchRecord>& launches);

// Where a profile came from, written beside the kernels.
struct ProfileProvenance {
  std::string reference_device;
  std::string chip;
  std::string command;
  std::string date;           // UTC, ISO 8601
  std::string metric_set;     // thesis | full
  std::optional<size_t> passes;
  std::vector<std::string> metrics;
  std::string cache_control;  // all | none (empty: not recorded)
};

// The kernel profile (formats.md) with counters keyed by their CUDA 13 names; per-launch
// records under each kernel when `per_launch`.
nlohmann::json kernel_profile_json(const std::vector<KernelSummary>& kernels, const ProfileProvenance& provenance,
                                   bool per_launch);

// The measured-time file of --timing-only.
MeasuredTimes measured_times(const std::vector<KernelSummary>& kernels, const std::string& device);

}  // namespace roofcast::profiler
