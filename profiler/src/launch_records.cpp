#include "roofcast/profiler/launch_records.hpp"

#include <algorithm>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/profiler/collector_protocol.hpp"

namespace roofcast::profiler {

namespace {

// Reads one process' file of the run.
CollectorFile read_process_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string file = printable(path.string());
  if (!in) throw InputError(fmt::format("{}: cannot read the collector's records", file));
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return parse_collector_file(text, file);
}

}  // namespace

RunRecords read_run_records(const std::filesystem::path& folder, const std::string& mode) {
  const std::string prefix = fmt::format("{}{}-", protocol::kFilePrefix, mode);
  std::vector<CollectorFile> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    const std::string file = entry.path().filename().string();
    if (file.starts_with(prefix) && file.ends_with(protocol::kFileSuffix))
      files.push_back(read_process_file(entry.path()));
  }
  if (error) throw InputError(fmt::format("{}: cannot list the collector's records: {}", printable(folder.string()), error.message()));
  return run_records(std::move(files));
}

RunRecords run_records(std::vector<CollectorFile> files) {
  RunRecords run;
  for (const auto& file : files) {
    for (const auto& record : file.devices) {
      DeviceInfo& device = run.devices[record.index];
      if (record.name) device.name = *record.name;
      if (record.chip) device.chip = *record.chip;
    }
    if (file.passes) run.passes = file.passes;
    run.errors.insert(run.errors.end(), file.errors.begin(), file.errors.end());
    run.warnings.insert(run.warnings.end(), file.warnings.begin(), file.warnings.end());
  }
  // Processes that start together (MPI ranks, forked children) start in either order from run
  // to run: their recorded rank variables come first, then whether they ended (a process killed
  // in both runs, whose records are cut, goes after the others in both), so that both runs
  // number them alike.
  std::sort(files.begin(), files.end(), [](const CollectorFile& a, const CollectorFile& b) {
    return std::make_tuple(std::cref(a.env), !a.ended, a.start_ns, a.pid) <
           std::make_tuple(std::cref(b.env), !b.ended, b.start_ns, b.pid);
  });
  run.processes = static_cast<int>(files.size());
  for (size_t p = 0; p < files.size(); ++p) {
    if (!files[p].ended) ++run.incomplete_processes;
    run.process_info.push_back({files[p].pid, files[p].ended, files[p].aborted, files[p].env});
    for (auto& launch : files[p].launches) {
      launch.process = static_cast<int>(p);
      run.launches.push_back(std::move(launch));
    }
    for (auto& copy : files[p].copies) {
      copy.process = static_cast<int>(p);
      run.copies.push_back(std::move(copy));
    }
  }
  return run;
}

namespace {

using Shape = std::tuple<int, std::string, std::array<unsigned, 3>, std::array<unsigned, 3>>;

Shape shape_of(const LaunchRecord& l) { return {l.process, l.name, l.grid, l.block}; }

// Both runs apply the same filter in the same launch order, so a launch has the same
// (process, index) in each. A multi-threaded application may launch in another order in the
// second run; then launches are paired by the n-th occurrence of each (kernel, shape).
JoinedRuns join_with(const RunRecords& timing, const RunRecords& counters, bool keep_unprofiled,
                     const std::function<std::tuple<Shape, uint64_t>(const LaunchRecord&, size_t occurrence)>& key) {
  auto keys_of = [&](const std::vector<LaunchRecord>& launches) {
    std::map<Shape, size_t> seen;
    std::vector<std::tuple<Shape, uint64_t>> keys;
    for (const auto& l : launches) keys.push_back(key(l, seen[shape_of(l)]++));
    return keys;
  };
  const auto counter_keys = keys_of(counters.launches);
  std::map<std::tuple<Shape, uint64_t>, const LaunchRecord*> by_key;
  for (size_t i = 0; i < counters.launches.size(); ++i) by_key[counter_keys[i]] = &counters.launches[i];
  JoinedRuns joined;
  const auto timing_keys = keys_of(timing.launches);
  size_t matched = 0;
  for (size_t i = 0; i < timing.launches.size(); ++i) {
    const auto found = by_key.find(timing_keys[i]);
    if (found == by_key.end()) {
      ++joined.timing_only;
      if (keep_unprofiled) joined.launches.push_back(timing.launches[i]);
      continue;
    }
    LaunchRecord launch = timing.launches[i];
    launch.metrics = found->second->metrics;
    joined.launches.push_back(std::move(launch));
    ++matched;
  }
  joined.counters_only = counters.launches.size() - matched;
  return joined;
}

using ShapeCounts = std::map<std::tuple<std::string, std::array<unsigned, 3>, std::array<unsigned, 3>>, size_t>;

std::vector<ShapeCounts> shapes_by_process(const RunRecords& run) {
  std::vector<ShapeCounts> shapes(static_cast<size_t>(std::max(run.processes, 0)));
  for (const auto& l : run.launches)
    if (l.process >= 0 && static_cast<size_t>(l.process) < shapes.size()) ++shapes[l.process][{l.name, l.grid, l.block}];
  return shapes;
}

// Launches of the same (kernel, grid, block) two processes both made.
size_t shared_launches(const ShapeCounts& a, const ShapeCounts& b) {
  size_t shared = 0;
  for (const auto& [shape, count] : a)
    if (const auto found = b.find(shape); found != b.end()) shared += std::min(count, found->second);
  return shared;
}

// For each counter-run process, the timing-run process it pairs with, where their launches say
// otherwise than start order (none: start order stands).
// Processes that start together with nothing recorded to tell them apart (forked children
// without rank variables) start in either order from run to run; start order then pairs a
// process with another's launches, whose shapes differ (ranks launch different grids). Each
// counter process takes, in turn, the unpaired timing process with which it shares the most
// launches (same kernel, grid and block); start order stays where that shares no fewer.
std::optional<std::vector<int>> pairing_by_launches(const RunRecords& timing, const RunRecords& counters) {
  const auto timing_shapes = shapes_by_process(timing), counter_shapes = shapes_by_process(counters);
  const size_t n = std::min(timing_shapes.size(), counter_shapes.size());
  std::vector<int> to_timing(counter_shapes.size());
  std::vector<bool> taken(timing_shapes.size(), false);
  size_t by_order = 0, by_launches = 0;
  for (size_t c = 0; c < counter_shapes.size(); ++c) {
    if (c < n) by_order += shared_launches(counter_shapes[c], timing_shapes[c]);
    std::optional<size_t> best;
    size_t best_shared = 0;
    for (size_t t = 0; t < timing_shapes.size(); ++t) {
      if (taken[t]) continue;
      const size_t shared = shared_launches(counter_shapes[c], timing_shapes[t]);
      if (!best || shared > best_shared || (shared == best_shared && t == c)) best = t, best_shared = shared;
    }
    to_timing[c] = best ? static_cast<int>(*best) : static_cast<int>(timing_shapes.size() + c);
    if (best) taken[*best] = true;
    by_launches += best_shared;
  }
  if (by_launches <= by_order) return std::nullopt;
  return to_timing;
}

}  // namespace

JoinedRuns join_runs(const RunRecords& timing, const RunRecords& counter_run, bool keep_unprofiled) {
  // The counter run's launches are copied only where its processes must be renumbered.
  std::optional<RunRecords> renumbered;
  if (const auto to_timing = pairing_by_launches(timing, counter_run)) {
    renumbered = counter_run;
    for (auto& l : renumbered->launches)
      if (l.process >= 0 && static_cast<size_t>(l.process) < to_timing->size()) l.process = (*to_timing)[l.process];
  }
  const RunRecords& counters = renumbered ? *renumbered : counter_run;
  JoinedRuns by_index = join_with(timing, counters, keep_unprofiled, [](const LaunchRecord& l, size_t) {
    return std::tuple<Shape, uint64_t>{shape_of(l), l.index};
  });
  // A sample is chosen by each shape's occurrences, so the n-th occurrences of two runs are not
  // the same launches: pairing by occurrence only holds when every launch was profiled.
  if (keep_unprofiled || (by_index.timing_only == 0 && by_index.counters_only == 0)) return by_index;
  JoinedRuns by_occurrence = join_with(timing, counters, false, [](const LaunchRecord& l, size_t occurrence) {
    return std::tuple<Shape, uint64_t>{shape_of(l), occurrence};
  });
  return by_occurrence.launches.size() > by_index.launches.size() ? by_occurrence : by_index;
}

}  // namespace roofcast::profiler
