#include "roofcast/profiler/launch_records.hpp"

#include <algorithm>
#include <fstream>
#include <functional>
#include <tuple>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/input_limits.hpp"
#include "roofcast/formats/json_field.hpp"
#include "roofcast/formats/printable_text.hpp"
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
  bool aborted = false;
  std::map<std::string, std::string> env;
};

// Record lines are held to the ranges of the profile they become (input_limits.hpp).
constexpr double kMaxIndex = 9007199254740992.0;  // 2^53: launch indices exact in a double
constexpr double kMaxDevices = 1e6;

std::array<unsigned, 3> dims(const Field& field, const double (&max)[3]) {
  if (field.array().size() != 3) field.fail("expected [x, y, z]");
  std::array<unsigned, 3> result{};
  for (size_t i = 0; i < 3; ++i) result[i] = static_cast<unsigned>(field.element(i).whole(1, max[i]));
  return result;
}

unsigned optional_whole(const Field& line, const std::string& key, double max) {
  return line.has(key) ? static_cast<unsigned>(line.member(key).whole(0, max)) : 0u;
}

LaunchRecord parse_launch(const Field& line) {
  LaunchRecord launch;
  launch.index = static_cast<uint64_t>(line.member("index").whole(0, kMaxIndex));
  launch.name = line.member("name").non_empty_string();
  launch.demangled = line.has("demangled") ? line.member("demangled").non_empty_string() : launch.name;
  launch.device = line.has("device") ? static_cast<int>(line.member("device").whole(0, kMaxDevices)) : 0;
  launch.grid = dims(line.member("grid"), input_limits::kMaxGrid);
  launch.block = dims(line.member("block"), input_limits::kMaxBlock);
  if (static_cast<double>(launch.block[0]) * launch.block[1] * launch.block[2] > input_limits::kMaxThreadsPerBlock)
    line.member("block").fail(fmt::format("more than {:g} threads per block", input_limits::kMaxThreadsPerBlock));
  launch.dynamic_shared_bytes = optional_whole(line, "dynamic_shared_bytes", input_limits::kMaxSharedBytesPerBlock);
  if (line.has("duration_ns")) launch.duration_ns = line.member("duration_ns").non_negative();
  launch.registers = optional_whole(line, "registers", input_limits::kMaxRegistersPerThread);
  launch.static_shared_bytes = optional_whole(line, "static_shared_bytes", input_limits::kMaxSharedBytesPerBlock);
  if (line.has("metrics")) {
    const Field metrics = line.member("metrics");
    for (const auto& item : metrics.object().items())
      if (item.value().is_number()) launch.metrics[item.key()] = metrics.member(item.key()).non_negative();
  }
  return launch;
}

CopyRecord parse_copy(const Field& line) {
  CopyRecord copy;
  copy.kind = line.member("type").string() == "memset" ? "memset" : line.member("direction").non_empty_string();
  copy.pinned = line.has("pinned") && line.member("pinned").boolean();
  copy.bytes = line.member("bytes").non_negative();
  copy.count = line.has("count") ? line.member("count").positive() : 1.0;
  copy.duration_ns = line.member("duration_ns").non_negative();
  copy.device = line.has("device") ? static_cast<int>(line.member("device").whole(0, kMaxDevices)) : 0;
  return copy;
}

void read_record(const Field& line, ProcessFile& process, RunRecords& run) {
  const std::string type = line.member("type").string();
  if (type == "process") {
    if (line.has("start_ns")) process.start_ns = static_cast<int64_t>(line.member("start_ns").whole(0, 9.2e18));
    if (line.has("pid")) process.pid = static_cast<int>(line.member("pid").whole(0, 2147483647.0));
    if (line.has("env")) {
      const Field env = line.member("env");
      for (const auto& item : env.object().items()) process.env[item.key()] = env.member(item.key()).string();
    }
  } else if (type == "device") {
    DeviceInfo& device = run.devices[static_cast<int>(line.member("index").whole(0, kMaxDevices))];
    if (line.has("name")) device.name = line.member("name").string();
    if (line.has("chip")) device.chip = line.member("chip").string();
  } else if (type == "config") {
    run.passes = static_cast<size_t>(line.member("passes").whole(0, kMaxIndex));
  } else if (type == "launch") {
    process.launches.push_back(parse_launch(line));
  } else if (type == "copy" || type == "memset") {
    process.copies.push_back(parse_copy(line));
  } else if (type == "error") {
    run.errors.push_back(line.member("message").string());
  } else if (type == "warning") {
    run.warnings.push_back(line.member("message").string());
  } else if (type == "end") {
    process.ended = true;
    process.aborted = line.has("aborted") && line.member("aborted").boolean();
  }
}

ProcessFile read_process_file(const std::filesystem::path& path, RunRecords& run) {
  std::ifstream in(path);
  if (!in) throw InputError(fmt::format("{}: cannot read the collector's records", printable(path.string())));
  ProcessFile process;
  std::string text;
  const std::string file = printable(path.string());
  for (int number = 1; std::getline(in, text); ++number) {
    if (text.empty()) continue;
    json line;
    try {
      line = json::parse(text);
    } catch (const json::exception&) {
      // A process killed mid-write leaves a cut last line; anything else is a real fault.
      if (in.peek() == std::char_traits<char>::eof()) break;
      throw InputError(fmt::format("{}:{}: bad collector record: not valid JSON", file, number));
    }
    read_record(Field(line, fmt::format("{}:{}", file, number), ""), process, run);
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
  if (error) throw InputError(fmt::format("{}: cannot list the collector's records: {}", printable(folder.string()), error.message()));
  // Processes that start together (MPI ranks) start in either order from run to run: their
  // recorded rank variables come first, so that both runs number them alike.
  std::sort(processes.begin(), processes.end(), [](const ProcessFile& a, const ProcessFile& b) {
    return std::tie(a.env, a.start_ns, a.pid) < std::tie(b.env, b.start_ns, b.pid);
  });
  run.processes = static_cast<int>(processes.size());
  for (size_t p = 0; p < processes.size(); ++p) {
    if (!processes[p].ended) ++run.incomplete_processes;
    run.process_info.push_back({processes[p].pid, processes[p].ended, processes[p].aborted, processes[p].env});
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

}  // namespace

JoinedRuns join_runs(const RunRecords& timing, const RunRecords& counters, bool keep_unprofiled) {
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
