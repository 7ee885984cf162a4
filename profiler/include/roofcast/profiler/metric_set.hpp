#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace roofcast::profiler {

// One counter the collector asks CUPTI for, by its CUDA 13 (Range Profiler / Nsight
// Compute) name. `nvprof` is the nvprof-era name where one exists, for importers.
struct MetricInfo {
  std::string_view name;
  std::string_view nvprof;     // empty where nvprof had no such metric
  std::string_view meaning;
  bool summable = true;        // a count: totals over invocations are sums; else a ratio (mean)
};

// The nine counters of the thesis model (model.md), by their CUDA 13 names.
std::span<const MetricInfo> thesis_metrics();
// The extension set: fp16 and tensor instructions, shared-memory instructions, wavefronts and
// bank conflicts, global ld/st instructions, L1/L2 bytes, access widths, occupancy, warp efficiency.
std::span<const MetricInfo> extension_metrics();
// The pipes group, for the multi-pipeline model (issue 7): warp instructions per pipe and per
// tensor instruction kind, tensor ops by source type, atomics and reductions, L2 read/write
// sectors from the SMs, the SM clock. Part of the full set.
std::span<const MetricInfo> pipes_metrics();
// The latency group (issue 13): warps launched, warp-cycles per stall reason, L1/L2 hit and
// miss sectors, local-memory instructions, atomic requests at L1 and L2, same-address
// serialization in L1, the busiest L2 slice's atomic-unit cycles against the L2 cycles
// elapsed, bulk-copy (TMA) instructions and bytes. Part of the full set.
std::span<const MetricInfo> latency_metrics();

enum class MetricSetName { thesis, full };

// The metric names of a set: thesis = the nine; full = the nine, the extension set, the pipes
// group and the latency group.
std::vector<std::string> metric_names(MetricSetName set);
// "thesis" / "full"; nullopt-like failure is reported by the caller.
bool parse_metric_set_name(std::string_view text, MetricSetName& set);

// Information about a metric of either set; nullptr when the name is not one of ours.
const MetricInfo* find_metric(std::string_view name);

// Whether CUPTI collects the metric by patching the kernel's SASS (software counter, own pass).
inline bool is_sass_metric(std::string_view name) { return name.find("__sass_") != std::string_view::npos; }

}  // namespace roofcast::profiler
