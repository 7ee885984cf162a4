#include "roofcast/profiler/launch_records.hpp"

#include <algorithm>
#include <fstream>
#include <functional>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/profiler/collector_protocol.hpp"

namespace roofcast::profiler {

namespace {

using nlohmann::json;

struct ProcessFile {
  int64_t start_ns = 0;
  int pid = 0;
  std::vector<LaunchRecord> launches;
  std::vector<CopyRecord> copies;
  bool ended = false;
};

std::array<unsigned, 3> dims(const json& value) {
  return {value.at(0).get<unsigned>(), value.at(1).get<unsigned>(), value.at(2).get<unsigned>()};
}

LaunchRecord parse_launch(const json& line) {
  LaunchRecord launch;
  launch.index = line.at("index").get<uint64_t>();
  launch.name = line.at("name").get<std::string>();
  launch.demangled = line.value("demangled", launch.name);
  launch.device = line.value("device", 0);
  launch.grid = dims(line.at("grid"));
  launch.block = dims(line.at("block"));
  launch.dynamic_shared_bytes = line.value("dynamic_shared_bytes", 0u);
  if (line.contains("duration_ns")) launch.duration_ns = line.at("duration_ns").get<double>();
  launch.registers = line.value("registers", 0u);
  launch.static_shared_bytes = line.value("static_shared_bytes", 0u);
  if (line.contains("metrics"))
    for (const auto& [metric, value] : line.at("metrics").items())
      if (value.is_number()) launch.metrics[metric] = value.get<double>();
  return launch;
}

CopyRecord parse_copy(const json& line) {
  CopyRecord copy;
  copy.kind = line.at("type") == "memset" ? "memset" : line.at("direction").get<std::string>();
  copy.pinned = line.value("pinned", false);
  copy.bytes = line.at("bytes").get<double>();
  copy.count = line.value("count", 1.0);
  copy.duration_ns = line.at("duration_ns").get<double>();
  copy.device = line.value("device", 0);
  return copy;
}

ProcessFile read_process_file(const std::filesystem::path& path, RunRecords& run) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("{}: cannot read the collector's records", path.string()));
  ProcessFile process;
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) {
    if (text.empty()) continue;
    try {
      const json line = json::parse(text);
      const std::string type = line.at("type").get<std::string>();
      if (type == "process") {
        process.start_ns = line.value("start_ns", int64_t{0});
        process.pid = line.value("pid", 0);
      } else if (type == "device") {
        DeviceInfo& device = run.devices[line.at("index").get<int>()];
        device.name = line.value("name", device.name);
        device.chip = line.value("chip", device.chip);
      } else if (type == "config") {
        run.passes = line.at("passes").get<size_t>();
      } else if (type == "launch") {
        process.launches.push_back(parse_launch(line));
      } else if (type == "copy" || type == "memset") {
        process.copies.push_back(parse_copy(line));
      } else if (type == "error") {
        run.errors.push_back(line.at("message").get<std::string>());
      } else if (type == "warning") {
        run.warnings.push_back(line.at("message").get<std::string>());
      } else if (type == "end") {
        process.ended = true;
      }
    } catch (const json::exception& error) {
      // A process killed mid-write leaves a cut last line; anything else is a real fault.
      if (in.peek() == std::char_traits<char>::eof()) break;
      throw InputError(fmt::format("{}:{}: bad collector record: {}", path.string(), number, error.what()));
    }
  }
  std::sort(process.launches.begin(), process.launches.end(),
            [](const LaunchRecord& a, const LaunchRecord& b) { return a.index < b.index; });
  return process;
}

}  // namespace

RunRecords read_run_records(const std::filesystem::path& folder, const std::string& mode) {
  RunRecords run;
  const std::string prefix = fmt::format("{}{}-", protocol::kFilePrefix, mode);
  std::vector<ProcessFile> processes;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    const std::string file = entry.path().filename().string();
    if (file.starts_with(prefix) && file.ends_with(protocol::kFileSuffix))
      processes.push_back(read_process_file(entry.path(), run));
  }
  if (error) throw InputError(fmt::format("{}: cannot list the collector's records: {}", folder.string(), error.message()));
  std::sort(processes.begin(), processes.end(), [](const ProcessFile& a, const ProcessFile& b) {
    return std::tie(a.start_ns, a.pid) < std::tie(b.start_ns, b.pid);
  });
  run.processes = static_cast<int>(processes.size());
  for (size_t p = 0; p < processes.size(); ++p) {
    if (!processes[p].ended) ++run.incomplete_processes;
    for (auto& launch : processes[p].launches) {
      launch.process = static_cast<int>(p);
      run.launches.push_back(std::move(launch));
    }
    for (auto& copy : processes[p].copies) {
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
JoinedRuns join_with(const RunRecords& timing, const RunRecords& counters,
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

}  // namespace

JoinedRuns join_runs(const RunRecords& timing, const RunRecords& counters) {
  JoinedRuns by_index = join_with(timing, counters, [](const LaunchRecord& l, size_t) {
    return std::tuple<Shape, uint64_t>{shape_of(l), l.index};
  });
  if (by_index.timing_only == 0 && by_index.counters_only == 0) return by_index;
  JoinedRuns by_occurrence = join_with(timing, counters, [](const LaunchRecord& l, size_t occurrence) {
    return std::tuple<Shape, uint64_t>{shape_of(l), occurrence};
  });
  return by_occurrence.launches.size() > by_index.launches.size() ? by_occurrence : by_index;
}

}  // namespace roofcast::profiler
