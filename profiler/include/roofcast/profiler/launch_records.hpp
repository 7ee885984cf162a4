#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace roofcast::profiler {

// One recorded kernel launch, as the injection library wrote it (collector_protocol.hpp).
struct LaunchRecord {
  int process = 0;       // the process' place in start order within its run (0 = the application)
  uint64_t index = 0;    // place among the process' recorded launches
  std::string name;      // mangled
  std::string demangled;
  int device = 0;
  std::array<unsigned, 3> grid{};
  std::array<unsigned, 3> block{};
  unsigned dynamic_shared_bytes = 0;
  // From the timing run.
  std::optional<double> duration_ns;
  unsigned registers = 0;
  unsigned static_shared_bytes = 0;
  // From the counter run: CUPTI metric name -> value.
  std::map<std::string, double> metrics;
};

// One memcpy or memset of the timing run (the collector records all of them, whatever the
// kernel filters).
struct CopyRecord {
  int process = 0;
  std::string kind;      // h2d, d2h, d2d, p2p (between GPUs), h2h, memset, unknown
  bool pinned = false;   // host side page-locked (h2d, d2h)
  double bytes = 0;
  double count = 1;      // copies this record stands for (> 1 for cudaMemcpyBatchAsync)
  double duration_ns = 0;
  int device = 0;
};

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

// Reads every `roofcast-<mode>-<pid>.jsonl` file in `folder`. Throws InputError naming the
// file and line for a malformed record.
RunRecords read_run_records(const std::filesystem::path& folder, const std::string& mode);

// Joins the counter run's launches to the timing run's: same process (by start order), same
// kernel, same launch shape, same occurrence of that (kernel, shape) pair. The result holds
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
