#pragma once

// The files `roofcast profile` writes, built from the runs (profile_application.cpp): one per
// output name, each holding the processes whose names come out equal.
#include <set>
#include <string>
#include <vector>

#include "roofcast/profiler/app_launcher.hpp"
#include "roofcast/profiler/launch_records.hpp"
#include "roofcast/profiler/profile_application.hpp"

namespace roofcast::profiler {

// An output file with the processes (by LaunchRecord::process) that go into it.
struct OutputGroup {
  std::string file;
  std::set<int> processes;
};

// Each output file of the timing run's processes that launched kernels, in order of first use
// (the same file for all without a pattern; a process that launched no kernel gets none).
std::vector<OutputGroup> output_groups(const std::string& output, bool per_process, const RunRecords& timing);

struct ProfiledRun {
  const ProfileRequest& request;
  const RunRecords& timing;
  DeviceInfo device;  // the one most launches ran on
  bool per_process = false;
  std::vector<OutputGroup> groups;
};

// The roofcast-measured files of a timing run with no counter run (--timing-only, or the
// application was interrupted); `notes` go into each.
std::vector<ProfileOutput> measured_outputs(const ProfiledRun& run, const AppExit& timing_exit,
                                            const std::vector<std::string>& notes);

// How the application was run: the run that timed it (the one run where there was one) and the
// run that counted.
struct RunExits {
  AppExit timing;
  AppExit counters;  // the same as `timing` where there was one run
  int runs = 2;
  // RunCount::automatic with a second run: the shapes it profiled spread over their launches,
  // and why (spread_reasons_text).
  size_t spread_shapes = 0;
  std::string spread_reasons;
  // RunCount::automatic: the shapes the first run sampled over the whole run itself.
  size_t in_run_spread_shapes = 0;
};

// The kernel profiles of the joined runs; `notes` (about the runs) go into each, beside those
// about its own kernels. Each profile reads back as a kernel profile (parse_kernel_profile).
std::vector<ProfileOutput> profile_outputs(const ProfiledRun& run, const JoinedRuns& joined, const RunRecords& counters,
                                           const RunExits& exits, const std::vector<std::string>& metrics,
                                           const std::vector<std::string>& notes);

}  // namespace roofcast::profiler
