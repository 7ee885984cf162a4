#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofcast/formats/collector_records.hpp"

namespace roofcast::profiler {

// A device of the run, from its "device" records.
struct DeviceInfo {
  std::string name;
  std::string chip;
};

// One process of a run, in start order.
struct ProcessInfo {
  int pid = 0;
  bool ended = false;                       // its end record was written
  bool aborted = false;                     // ended by abort() or a fatal signal it flushed on
  std::map<std::string, std::string> env;   // the variables the launcher asked it to record
};

// Everything one run of the application left in the records folder.
struct RunRecords {
  std::vector<ProcessInfo> process_info;  // by LaunchRecord::process
  std::vector<LaunchRecord> launches;    // process by process, in launch order
  std::vector<CopyRecord> copies;        // process by process, in completion order
  std::map<int, DeviceInfo> devices;     // by device index
  std::vector<std::string> errors;       // from the collector, one line each
  std::vector<std::string> warnings;
  int processes = 0;
  int incomplete_processes = 0;          // files with no end record (killed, _exit)
  std::optional<size_t> passes;          // counter run: replay passes per launch
};

// Reads every `roofcast-<mode>-<pid>.jsonl` file in `folder` (parse_collector_file). Throws
// InputError naming the file and line for a malformed record.
RunRecords read_run_records(const std::filesystem::path& folder, const std::string& mode);

// The process files of one run taken together, in the order they were listed: processes in start
// order (those that start together, such as MPI ranks, by their recorded variables first).
RunRecords run_records(std::vector<CollectorFile> files);

// Joins the counter run's launches to the timing run's: same process (by start order, or by the
// launches two processes share where start order pairs fewer), same kernel, same launch shape,
// same occurrence of that (kernel, shape) pair. The result holds
// the timing records with the metrics of their counterpart.
struct JoinedRuns {
  std::vector<LaunchRecord> launches;
  size_t timing_only = 0;    // timing launches with no counter counterpart
  size_t counters_only = 0;  // counter launches with no timing counterpart
};
// `keep_unprofiled` (a sampled counter run): every timing launch is kept, those without a
// counter counterpart with no metrics, and launches are paired by index only.
JoinedRuns join_runs(const RunRecords& timing, const RunRecords& counters, bool keep_unprofiled = false);

}  // namespace roofcast::profiler
