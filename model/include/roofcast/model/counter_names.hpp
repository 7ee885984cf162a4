#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace roofcast {

// The nine counters of the thesis model, under their nvprof name and their
// CUDA 13 (CUPTI Range Profiler / Nsight Compute) name, with what each counts. The one list
// of their names: the collector's metric set takes its thesis rows from here.
struct ThesisCounterName {
  std::string_view nvprof;
  std::string_view cupti;
  std::string_view meaning;
};

// In model.md's order.
std::span<const ThesisCounterName> thesis_counter_names();

// The nvprof name of a thesis counter given either spelling; nullopt for other counters.
std::optional<std::string_view> canonical_thesis_counter(std::string_view name);

// True for a counter that is a total over the kernel's launches, adding up over its blocks: the
// `.sum` counters, and the busiest L2 slice's atomic cycles (a maximum over slices, but a total
// over time). Not rates, averages or percentages.
bool is_total_counter(std::string_view name);

}  // namespace roofcast
