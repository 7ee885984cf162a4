#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "roofcast/profiler/app_launcher.hpp"

namespace roofcast::profiler {

// How many runs of the application `roofcast profile` makes (docs/profiler.md, "Runs").
enum class RunCount {
  // One run that times every launch and profiles the first `sample` launches of each shape; then
  // a counter run, spread over the launches, only for the shapes whose launches differ in time
  // or got no counters there (spread_plan.hpp).
  automatic,
  one,  // --runs one (--single-run): the first run only
  two,  // --runs two: a timing run, then a counter run spread over every shape
};

// `roofcast profile`: runs an unmodified application under the CUPTI collector (the injection
// library, loaded through CUDA_INJECTION64_PATH) and builds its kernel profile. Plain C++:
// everything that needs CUPTI lives in the injection library and in roofcast-cupti, found beside
// the running binary (companions.hpp), so this builds and runs without CUDA.
struct ProfileRequest {
  std::vector<std::string> command;  // APP ARGS...
  // The output file, or a pattern with %p or %q{VAR} (output_pattern.hpp) for one file per process.
  std::string output;
  bool timing_only = false;          // one run, no counters: roofcast-measured files
  std::string metric_set = "full";   // thesis | full
  std::string cache_control = "all";  // all | none
  bool per_launch = false;           // every launch's record under its kernel
  std::string kernel_regex;          // ECMAScript, on demangled names; empty: every kernel
  uint64_t launch_skip = 0;
  int64_t launch_count = -1;         // -1: no limit
  int device = -1;                   // -1: every device
  std::string records_dir;           // where the collector's records stay; empty: a temporary folder
  uint64_t sample = 5;               // counters for at most this many launches per shape; 0: all
  bool show_progress = false;        // a status line on stderr while the application runs
  // automatic and one time and profile in the same run, which needs cache_control "all";
  // with "none" automatic makes two runs.
  RunCount runs = RunCount::automatic;
};

// One file of the result, in the order the processes that go into it first launched.
struct ProfileOutput {
  std::string file;
  std::vector<std::string> messages;  // to show before it (notes, warnings)
  std::optional<std::string> text;    // the file's JSON; none: nothing to write for it
  std::string summary;                // to show once it is written
};

struct ProfileResult {
  std::vector<ProfileOutput> outputs;
  AppExit application;  // the run whose exit roofcast passes on: an interrupted one, else the timing run
};

// One line to show now (no newline), while the application runs: what the collector reported,
// what was left out and why.
using ProfileMessage = std::function<void(const std::string&)>;

// Runs the application (once or twice, as `runs` says; once for timing_only) and builds the
// profiles of its processes. Throws InputError where the collector
// was not built, the output cannot be replaced, the application cannot be started, or the
// collector's records are malformed.
ProfileResult profile_application(const ProfileRequest& request, const ProfileMessage& message);

// `roofcast profile --list-metrics`: runs roofcast-cupti list-metrics (the set, its replay passes)
// for the local GPU (`device`; -1: none named) or `chip` offline; its output is ours. Returns its
// exit code.
int list_collector_metrics(const std::string& metric_set, const std::string& chip, int device,
                           const ProfileMessage& message);

}  // namespace roofcast::profiler
