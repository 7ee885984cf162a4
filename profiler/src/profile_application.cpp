#include "roofcast/profiler/profile_application.hpp"

#include <dlfcn.h>
#include <stdlib.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "profile_outputs.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/profiler/collector_protocol.hpp"
#include "roofcast/profiler/companions.hpp"
#include "roofcast/profiler/launch_records.hpp"
#include "roofcast/profiler/launch_sample.hpp"
#include "roofcast/profiler/metric_set.hpp"
#include "roofcast/profiler/output_pattern.hpp"
#include "roofcast/profiler/progress_monitor.hpp"

namespace roofcast::profiler {

namespace {

namespace fs = std::filesystem;

std::string companion(const char* file) {
  const auto path = find_companion(file);
  if (!path)
    throw InputError(fmt::format("profile: the CUPTI collector was not built ({} is in neither {}; rebuild roofcast "
                                 "where CUDA 13 with CUPTI is installed)",
                                 file, companion_folders_text()));
  return path->string();
}

// The device most launches ran on.
DeviceInfo main_device(const RunRecords& run) {
  std::map<int, size_t> uses;
  for (const auto& launch : run.launches) ++uses[launch.device];
  int device = run.devices.empty() ? 0 : run.devices.begin()->first;
  size_t most = 0;
  for (const auto& [index, count] : uses)
    if (count > most) most = count, device = index;
  const auto found = run.devices.find(device);
  return found == run.devices.end() ? DeviceInfo{} : found->second;
}

std::map<std::string, std::string> collector_environment(const ProfileRequest& request, const std::string& library,
                                                         const std::string& folder, const char* mode) {
  std::map<std::string, std::string> env = {{protocol::kInjectionPathVariable, library},
                                            {protocol::kModeVariable, mode},
                                            {protocol::kOutputDirVariable, folder}};
  if (!request.kernel_regex.empty()) env[protocol::kKernelRegexVariable] = request.kernel_regex;
  if (request.launch_skip > 0) env[protocol::kSkipVariable] = std::to_string(request.launch_skip);
  if (request.launch_count >= 0) env[protocol::kCountVariable] = std::to_string(request.launch_count);
  if (request.device >= 0) env[protocol::kDeviceVariable] = std::to_string(request.device);
  return env;
}

// Shows what the collector reported; returns false when the run produced nothing usable.
bool report(const RunRecords& run, const char* what, const ProfileMessage& message) {
  // The collector's messages quote kernel names: shown printable.
  for (const auto& error : run.errors) message(fmt::format("{} run: {}", what, printable(error)));
  for (const auto& warning : run.warnings) message(fmt::format("warning: {} run: {}", what, printable(warning)));
  if (run.incomplete_processes > 0)
    message(fmt::format("warning: {} run: {} process(es) ended without flushing (killed or _exit); their last records "
                        "may be missing",
                        what, run.incomplete_processes));
  return run.errors.empty();
}

bool nvidia_driver_present() {
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (driver != nullptr) dlclose(driver);
  return driver != nullptr;
}

std::string why_nothing_recorded(const RunRecords& timing, const ProfileRequest& request) {
  if (timing.processes == 0 && !nvidia_driver_present())
    return "no NVIDIA GPU driver found (libcuda.so.1 is not installed): there is nothing to profile here";
  if (timing.processes == 0)
    return fmt::format("the collector was never loaded: {} made no CUDA call (is it a CUDA program?), or no NVIDIA GPU "
                       "is usable",
                       request.command[0]);
  return "no kernel launch was recorded (the application launched no kernel, or none matched the filters)";
}

class RecordsFolder {
 public:
  explicit RecordsFolder(const std::string& requested) {
    if (!requested.empty()) {
      fs::create_directories(requested);
      path_ = requested;
      return;
    }
    std::string pattern = (fs::temp_directory_path() / "roofcast-profile-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) throw InputError("profile: cannot create a temporary folder for the records");
    path_ = pattern;
    owned_ = true;
  }
  ~RecordsFolder() {
    std::error_code ignored;
    if (owned_) fs::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  bool owned_ = false;
};

// Signals that mean the application was stopped from outside (Ctrl-C, kill, a closed
// terminal), not that it failed on its own: no second run is started after one of them.
bool interrupted(const AppExit& exit) {
  return exit.signaled && (exit.signal == SIGINT || exit.signal == SIGTERM || exit.signal == SIGKILL ||
                           exit.signal == SIGHUP || exit.signal == SIGQUIT);
}

// Runs the application once, with a status line on stderr while it runs where asked.
AppExit run_monitored(const ProfileRequest& request, const std::map<std::string, std::string>& env,
                      const fs::path& folder, const char* mode, uint64_t planned) {
  ProgressMonitor monitor(folder, mode, planned, request.show_progress);
  const AppExit exit = run_application(request.command, env);
  monitor.stop();
  return exit;
}

// The variables both runs record: the pattern's and the launchers' rank variables. Processes
// that start together (MPI ranks, torchrun workers) start in either order, so the runs'
// processes are matched by these values first (run_records), not by start order alone.
std::string recorded_variables(const std::string& output) {
  std::vector<std::string> recorded = pattern_variables(output);
  for (const char* name : protocol::kRankVariables)
    if (std::find(recorded.begin(), recorded.end(), name) == recorded.end()) recorded.push_back(name);
  std::string joined;
  for (const auto& name : recorded) joined += (joined.empty() ? "" : ",") + name;
  return joined;
}

// The sample plan: each shape's launches per process in the timing run, so that the counter run
// can spread its picks over them. Returns the launches the counter run will profile.
uint64_t plan_sample(const RunRecords& timing, uint64_t sample, const std::string& folder,
                     std::map<std::string, std::string>& env) {
  uint64_t planned = 0;
  std::map<std::tuple<int, SampleShape>, uint64_t> counts;
  for (const auto& launch : timing.launches) ++counts[{launch.process, SampleShape{launch.name, launch.grid, launch.block}}];
  SamplePlan plan;
  for (const auto& [key, count] : counts) {
    plan.add(std::get<1>(key), count);
    planned += sampled_count(count, sample);
  }
  if (sample > 0) {
    const std::string plan_path = (fs::path(folder) / "sample-plan.txt").string();
    if (!plan.write(plan_path)) throw InputError(fmt::format("profile: cannot write {}", printable(plan_path)));
    env[protocol::kSampleVariable] = std::to_string(sample);
    env[protocol::kSamplePlanVariable] = plan_path;
  }
  return planned;
}

std::string joined_metric_names(const std::vector<std::string>& metrics) {
  std::string joined;
  for (const auto& metric : metrics) joined += (joined.empty() ? "" : ",") + metric;
  return joined;
}

// --single-run: the timing and the counter collector in one run of the application; each writes
// its own records, so the two are joined as the records of two runs are.
ProfileResult profile_in_one_run(const ProfileRequest& request, const ProfileMessage& message,
                                 const std::string& library, const std::string& recorded_env, MetricSetName set,
                                 bool per_process, const fs::path& folder) {
  auto env = collector_environment(request, library, folder, "single");
  const std::vector<std::string> metrics = metric_names(set);
  env[protocol::kMetricsVariable] = joined_metric_names(metrics);
  env[protocol::kCacheControlVariable] = request.cache_control;
  env[protocol::kRecordEnvVariable] = recorded_env;
  if (request.sample > 0) env[protocol::kSampleVariable] = std::to_string(request.sample);  // no plan: the first N
  // How many CUDA processes the application runs is not known before it runs: they take the
  // GPU's counters in turns whatever their number, unless the user says it runs one. Giving
  // the counters back after every launch makes each launch's replay passes slower (pytorch_ops
  // on an H200, 119 profiled launches: 66 s against 49 s).
  env[protocol::kShareCountersVariable] = request.one_process ? std::string("0") : std::string("1");
  const AppExit exit = run_monitored(request, env, folder, "counters", 0);
  const RunRecords timing = read_run_records(folder, "timing");
  const RunRecords counters = read_run_records(folder, "counters");
  bool usable = report(timing, "timing", message);
  usable = report(counters, "counter", message) && usable;
  if (timing.launches.empty() && usable) {
    message(why_nothing_recorded(timing, request));
    usable = false;
  }
  ProfileResult result;
  result.application = exit;
  if (!usable) return result;
  const ProfiledRun run{request, timing, main_device(timing), per_process,
                        output_groups(request.output, per_process, timing)};
  const JoinedRuns joined = join_runs(timing, counters, request.sample > 0);
  if (joined.counters_only > 0)
    message(fmt::format("warning: {} counted launch(es) have no timed counterpart; they are left out",
                        joined.counters_only));
  std::vector<std::string> notes;
  if (exit.exit_code != 0 || exit.signaled || counters.incomplete_processes > 0)
    notes.push_back(fmt::format("the application {}: the launches it made before are recorded, later ones are "
                                "missing",
                                how_it_ended(exit)));
  if (joined.launches.empty()) {
    message("no launch has both timing and counters");
    return result;
  }
  result.outputs = profile_outputs(run, joined, counters, {exit, exit}, metrics, notes);
  return result;
}

}  // namespace

ProfileResult profile_application(const ProfileRequest& request, const ProfileMessage& message) {
  MetricSetName set = MetricSetName::full;
  if (!parse_metric_set_name(request.metric_set, set))
    throw InputError(fmt::format("profile: --metrics: expected thesis or full, found \"{}\"", request.metric_set));
  if (request.one_process && !request.single_run)
    throw InputError("profile: --one-process goes with --single-run (two runs count the processes in the first run)");
  if (request.single_run && (request.timing_only || request.cache_control != "all"))
    throw InputError("profile: --single-run profiles in the run that times: it needs counters (no --timing-only) and "
                     "--cache-control all");
  const std::string library = companion(protocol::kInjectionLibraryName);
  const bool per_process = is_per_process(request.output);
  if (!per_process) check_replaceable(request.output);  // before the application runs, not after
  const std::string recorded_env = recorded_variables(request.output);
  RecordsFolder folder(request.records_dir);
  if (request.single_run)
    return profile_in_one_run(request, message, library, recorded_env, set, per_process, folder.path());
  const fs::path timing_folder = fs::path(folder.path()) / "timing";
  const fs::path counter_folder = fs::path(folder.path()) / "counters";
  fs::create_directories(timing_folder);

  auto timing_env = collector_environment(request, library, timing_folder, "timing");
  timing_env[protocol::kRecordEnvVariable] = recorded_env;
  const AppExit timing_exit = run_monitored(request, timing_env, timing_folder, "timing", 0);
  const RunRecords timing = read_run_records(timing_folder, "timing");
  bool usable = report(timing, "timing", message);
  if (timing.launches.empty() && usable) {
    message(why_nothing_recorded(timing, request));
    usable = false;
  }
  const ProfiledRun run{request, timing, main_device(timing), per_process,
                        output_groups(request.output, per_process, timing)};
  ProfileResult result;
  result.application = timing_exit;

  if (usable && (request.timing_only || interrupted(timing_exit))) {
    std::vector<std::string> notes;
    if (!request.timing_only) {
      notes.push_back(fmt::format("the application {} during the timing run: no counter run was made, so this file "
                                  "holds measured times only (no counters), of the launches made before it ended",
                                  how_it_ended(timing_exit)));
      message(notes.back());
    }
    result.outputs = measured_outputs(run, timing_exit, notes);
    return result;
  }
  if (!usable) return result;

  fs::create_directories(counter_folder);
  auto env = collector_environment(request, library, counter_folder, "counters");
  const std::vector<std::string> metrics = metric_names(set);
  env[protocol::kMetricsVariable] = joined_metric_names(metrics);
  env[protocol::kCacheControlVariable] = request.cache_control;
  env[protocol::kRecordEnvVariable] = recorded_env;
  const uint64_t planned = plan_sample(timing, request.sample, folder.path(), env);
  // Only one profiling session can hold a GPU's counters: where the application ran several
  // CUDA processes, they take turns one launch at a time (slower per launch).
  // Every CUDA process counts, not only those whose launches were recorded: a process whose
  // timing records were lost (killed, _exit) still profiles in the counter run. (A std::string:
  // GCC 12 warns falsely, -Wrestrict, on assigning the literal here.)
  if (timing.processes > 1) env[protocol::kShareCountersVariable] = std::string("1");
  const AppExit counter_exit = run_monitored(request, env, counter_folder, "counters", planned);
  if (counter_exit.exit_code != timing_exit.exit_code)
    message(fmt::format("warning: the application exited with {} in the counter run, {} in the timing run",
                        counter_exit.exit_code, timing_exit.exit_code));
  if (interrupted(counter_exit)) result.application = counter_exit;
  const RunRecords counters = read_run_records(counter_folder, "counters");
  usable = report(counters, "counter", message);
  const uint64_t sample = request.sample;
  const JoinedRuns joined = join_runs(timing, counters, sample > 0);
  if (sample == 0 && joined.timing_only + joined.counters_only > 0)
    message(fmt::format("warning: {} timed launch(es) had no counters and {} counted launch(es) no timing (the two "
                        "runs launched different kernels); they are left out",
                        joined.timing_only, joined.counters_only));
  if (sample > 0 && joined.counters_only > 0)
    message(fmt::format("warning: {} counted launch(es) have no timed counterpart (the two runs launched different "
                        "kernels); they are left out",
                        joined.counters_only));
  std::vector<std::string> notes;
  const size_t profiled = counters.launches.size() - joined.counters_only;
  const bool ended_early = counter_exit.exit_code != 0 || counter_exit.signaled || counters.incomplete_processes > 0;
  if (ended_early && (sample > 0 ? profiled < planned : joined.timing_only > 0))
    notes.push_back(fmt::format("the application {} during the counter run ({} in the timing run), after {} of the {} "
                                "launches to profile: counters of the later ones are missing",
                                how_it_ended(counter_exit), how_it_ended(timing_exit), profiled,
                                sample > 0 ? planned : timing.launches.size()));
  if (usable && joined.launches.empty()) {
    message("no launch has both timing and counters");
    usable = false;
  }
  if (usable) result.outputs = profile_outputs(run, joined, counters, {timing_exit, counter_exit}, metrics, notes);
  return result;
}

int list_collector_metrics(const std::string& metric_set, const std::string& chip, int device,
                           const ProfileMessage& message) {
  std::vector<std::string> command = {companion(protocol::kCuptiToolName), "list-metrics", "--metrics", metric_set};
  if (!chip.empty()) command.insert(command.end(), {"--chip", chip});
  if (device >= 0) command.insert(command.end(), {"--device", std::to_string(device)});
  const AppExit result = run_application(command, {});
  if (result.signaled) message(fmt::format("{} was killed by signal {}", command[0], result.signal));
  return result.exit_code;
}

}  // namespace roofcast::profiler
