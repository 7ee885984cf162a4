#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "roofcast/formats/collector_record_fields.hpp"

namespace roofcast {

// Reading the collector's record lines (collector_record_fields.hpp): one line into one record,
// one process' file into its records. Every number is held to the ranges of the profile the
// records become (input_limits.hpp); errors are InputErrors naming the file, line and field.

// One recorded kernel launch.
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

// The records of one line, by "type"; each holds the fields the line gave.
struct ProcessRecord {
  std::optional<int> pid;
  std::optional<int64_t> start_ns;
  std::map<std::string, std::string> env;
};
struct DeviceRecord {
  int index = 0;
  std::optional<std::string> name;
  std::optional<std::string> chip;
};
struct ConfigRecord {
  size_t passes = 0;  // counter run: replay passes per launch
};
struct ErrorRecord {
  std::string message;
};
struct WarningRecord {
  std::string message;
};
struct EndRecord {
  bool aborted = false;  // ended by abort() or a fatal signal it flushed on
};
// A record with nothing to read: progress, debug, or a type this reader does not know.
struct OtherRecord {};

using CollectorRecord = std::variant<OtherRecord, ProcessRecord, DeviceRecord, ConfigRecord, LaunchRecord, CopyRecord,
                                     ErrorRecord, WarningRecord, EndRecord>;

// One process' file, its records taken together.
struct CollectorFile {
  int pid = 0;
  int64_t start_ns = 0;
  std::map<std::string, std::string> env;  // the variables the launcher asked it to record
  std::vector<LaunchRecord> launches;      // by index
  std::vector<CopyRecord> copies;          // in completion order
  std::vector<DeviceRecord> devices;       // as written
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
  std::optional<size_t> passes;
  bool ended = false;    // its end record was written
  bool aborted = false;
};

// The text of one process' file; `file` names it in errors, with the line ("FILE:LINE: ...").
// Empty lines are skipped. A last line that is not valid JSON is the cut line of a process
// killed mid-write and is left out; anywhere else it is an error, as is a whole record of the
// wrong shape on any line.
CollectorFile parse_collector_file(std::string_view text, const std::string& file);

}  // namespace roofcast
