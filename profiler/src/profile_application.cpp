#include "roofcast/profiler/profile_application.hpp"

#include <dlfcn.h>
#include <stdlib.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <set>
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
#include "roofcast/profiler/records_folder.hpp"
#include "roofcast/profiler/spread_plan.hpp"

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

// kInRunSpreadBudget, or the number in roofcast's own environment variable of that name (for
// diagnosis and tests: 0 profiles no launch past the first N).
std::string in_run_spread_budget() {
  const char* text = std::getenv(protocol::kInRunSpreadVariable);
  if (text == nullptr || *text == '\0') return fmt::format("{}", kInRunSpreadBudget);
  char* end = nullptr;
  const double budget = std::strtod(text, &end);
  if (*end != '\0' || !std::isfinite(budget) || budget < 0)
    throw InputError(fmt::format("profile: {}: expected a number from 0 (a share of the run time), found \"{}\"",
                                 protocol::kInRunSpreadVariable, printable(text)));
  return text;
}

// Writes the counter run's sample plan and points the run at it; returns the launches it will
// profile.
uint64_t plan_sample(const RunRecords& timing, uint64_t sample, const CounterRunPlan& what, const std::string& folder,
                     std::map<std::string, std::string>& env) {
  const SamplePlan plan = counter_run_sample_plan(timing.launches, what);
  // "Every launch" of the planned shapes only: a sample as large as any count.
  if (sample == 0 && what.only != nullptr) sample = std::numeric_limits<uint64_t>::max();
  if (sample > 0) {
    const std::string plan_path = (fs::path(folder) / "sample-plan.txt").string();
    if (!plan.write(plan_path)) throw InputError(fmt::format("profile: cannot write {}", printable(plan_path)));
    env[protocol::kSampleVariable] = std::to_string(sample);
    env[protocol::kSamplePlanVariable] = plan_path;
  }
  return planned_launches(timing.launches, plan, sample);
}

std::string joined_metric_names(const std::vector<std::string>& metrics) {
  std::string joined;
  for (const auto& metric : metrics) joined += (joined.empty() ? "" : ",") + metric;
  return joined;
}

// What every run of `roofcast profile` shares.
struct Session {
  const ProfileRequest& request;
  const ProfileMessage& message;
  std::string library;       // the injection library
  std::string recorded_env;  // recorded_variables()
  std::vector<std::string> metrics;
  bool per_process = false;
};

std::map<std::string, std::string> counter_environment(const Session& session, const fs::path& folder,
                                                       const char* mode) {
  auto env = collector_environment(session.request, session.library, folder, mode);
  env[protocol::kMetricsVariable] = joined_metric_names(session.metrics);
  env[protocol::kCacheControlVariable] = session.request.cache_control;
  env[protocol::kRecordEnvVariable] = session.recorded_env;
  // Processes pass the GPU's counters on request; one alone keeps them (counter_turns.hpp).
  env[protocol::kShareCountersVariable] = std::string("1");
  return env;
}

// A run of the application that times every launch and profiles the first `sample` launches of
// each shape (RunCount::automatic and one): the timing and the counter collector each write
// their own records, joined as the records of two runs are.
struct FirstRun {
  AppExit exit;
  RunRecords timing;
  RunRecords counters;
  bool usable = false;
};

FirstRun time_and_count(const Session& session, const fs::path& folder) {
  auto env = counter_environment(session, folder, "single");
  if (session.request.sample > 0) env[protocol::kSampleVariable] = std::to_string(session.request.sample);  // no plan
  // Past the first N, the in-run grid on a budget (spread_plan.hpp): where that samples a shape
  // over the whole run, no counter run is needed for it.
  if (session.request.runs == RunCount::automatic) env[protocol::kInRunSpreadVariable] = in_run_spread_budget();
  FirstRun run;
  run.exit = run_monitored(session.request, env, folder, "counters", 0);
  run.timing = read_run_records(folder, "timing");
  run.counters = read_run_records(folder, "counters");
  run.usable = report(run.timing, "timing", session.message);
  run.usable = report(run.counters, "counter", session.message) && run.usable;
  if (run.timing.launches.empty() && run.usable) {
    session.message(why_nothing_recorded(run.timing, session.request));
    run.usable = false;
  }
  return run;
}

// The counter run after a timing run, spread over the launches in `timing`.
struct CounterRun {
  AppExit exit;
  RunRecords records;
  bool usable = false;
  uint64_t planned = 0;  // launches it was to profile
};

CounterRun count_spread(const Session& session, const RunRecords& timing, const CounterRunPlan& what,
                        const fs::path& folder) {
  fs::create_directories(folder);
  auto env = counter_environment(session, folder, "counters");
  CounterRun run;
  run.planned = plan_sample(timing, session.request.sample, what, folder.string(), env);
  run.exit = run_monitored(session.request, env, folder, "counters", run.planned);
  run.records = read_run_records(folder, "counters");
  run.usable = report(run.records, "counter", session.message);
  return run;
}

// The note for a profile whose counter run ended before it profiled all it was to.
std::optional<std::string> counter_run_note(const CounterRun& counters, const AppExit& timing_exit, size_t profiled,
                                            uint64_t to_profile, bool all_profiled) {
  const bool ended_early =
      counters.exit.exit_code != 0 || counters.exit.signaled || counters.records.incomplete_processes > 0;
  if (!ended_early || all_profiled) return std::nullopt;
  return fmt::format("the application {} during the counter run ({} in the timing run), after {} of the {} launches "
                     "to profile: counters of the later ones are missing",
                     how_it_ended(counters.exit), how_it_ended(timing_exit), profiled, to_profile);
}

void warn_on_exit_codes(const Session& session, const AppExit& timing, const AppExit& counters) {
  if (counters.exit_code != timing.exit_code)
    session.message(fmt::format("warning: the application exited with {} in the counter run, {} in the timing run",
                                counters.exit_code, timing.exit_code));
}

// Counter-run launches with no timed counterpart, where there are any.
void warn_on_unpaired_counts(const Session& session, size_t counters_only) {
  if (counters_only > 0)
    session.message(fmt::format("warning: {} counted launch(es) have no timed counterpart (the two runs launched "
                                "different kernels); they are left out",
                                counters_only));
}

bool has_counters(const JoinedRuns& joined) {
  return std::any_of(joined.launches.begin(), joined.launches.end(),
                     [](const LaunchRecord& l) { return !l.metrics.empty(); });
}

// RunCount::automatic and one: the first run; for automatic, then a counter run for the shapes
// whose first launches do not stand for the rest (spread_plan.hpp).
ProfileResult profile_from_first_run(const Session& session, const fs::path& folder) {
  const ProfileRequest& request = session.request;
  const FirstRun first = time_and_count(session, folder);
  ProfileResult result;
  result.application = first.exit;
  if (!first.usable) return result;
  const ProfiledRun run{request, first.timing, main_device(first.timing), session.per_process,
                        output_groups(request.output, session.per_process, first.timing)};
  // Every timed launch, with the metrics of those profiled, in the timing records' order.
  JoinedRuns joined = join_runs(first.timing, first.counters, true);
  if (joined.counters_only > 0)
    session.message(fmt::format("warning: {} counted launch(es) have no timed counterpart; they are left out",
                                joined.counters_only));
  std::vector<std::string> notes;
  if (first.exit.exit_code != 0 || first.exit.signaled || first.counters.incomplete_processes > 0)
    notes.push_back(fmt::format("the application {}: the launches it made before are recorded, later ones are "
                                "missing",
                                how_it_ended(first.exit)));
  RunExits exits;  // one run so far
  exits.timing = exits.counters = first.exit;
  exits.runs = 1;
  const RunRecords* counter_records = &first.counters;
  std::optional<CounterRun> second;
  std::map<SampleShape, SpreadReason> reasons;
  if (request.runs == RunCount::automatic) {
    const std::set<SampleShape> sampled_in_run = keep_in_run_samples(joined.launches, request.sample);
    exits.in_run_spread_shapes = sampled_in_run.size();
    if (!interrupted(first.exit)) reasons = shapes_to_spread(joined.launches, sampled_in_run);
  }
  const std::set<SampleShape> spread = shapes_of(reasons);
  if (!spread.empty()) {
    const CounterRunPlan plan{&spread, first_profiled(joined.launches, spread)};
    second = count_spread(session, first.timing, plan, folder / "spread");
    warn_on_exit_codes(session, first.exit, second->exit);
    if (interrupted(second->exit)) result.application = second->exit;
    if (!second->usable) {
      // The first run's counters are kept: its first launches stand for all.
      notes.push_back(fmt::format("the counter run for the {} launch shape(s) whose launches differ failed; their "
                                  "counters are those of their first launches",
                                  spread.size()));
    } else {
      exits.counters = second->exit;
      exits.runs = 2;
      exits.spread_shapes = spread.size();
      exits.spread_reasons = spread_reasons_text(reasons);
      counter_records = &second->records;
      const JoinedRuns spread_joined = join_runs(first.timing, second->records, true);
      warn_on_unpaired_counts(session, spread_joined.counters_only);
      const size_t profiled = take_spread_counters(joined.launches, spread_joined.launches, plan, request.sample);
      if (const auto note =
              counter_run_note(*second, first.exit, profiled, second->planned, profiled >= second->planned))
        notes.push_back(*note);
    }
  }
  if (!has_counters(joined)) {
    session.message("no launch has both timing and counters");
    return result;
  }
  result.outputs = profile_outputs(run, joined, *counter_records, exits, session.metrics, notes);
  return result;
}

// RunCount::two (and any run with --cache-control none): a timing run, then a counter run.
ProfileResult profile_in_two_runs(const Session& session, const fs::path& folder) {
  const ProfileRequest& request = session.request;
  const fs::path timing_folder = folder / "timing";
  fs::create_directories(timing_folder);
  auto timing_env = collector_environment(request, session.library, timing_folder, "timing");
  timing_env[protocol::kRecordEnvVariable] = session.recorded_env;
  const AppExit timing_exit = run_monitored(request, timing_env, timing_folder, "timing", 0);
  const RunRecords timing = read_run_records(timing_folder, "timing");
  bool usable = report(timing, "timing", session.message);
  if (timing.launches.empty() && usable) {
    session.message(why_nothing_recorded(timing, request));
    usable = false;
  }
  const ProfiledRun run{request, timing, main_device(timing), session.per_process,
                        output_groups(request.output, session.per_process, timing)};
  ProfileResult result;
  result.application = timing_exit;

  if (usable && (request.timing_only || interrupted(timing_exit))) {
    std::vector<std::string> notes;
    if (!request.timing_only) {
      notes.push_back(fmt::format("the application {} during the timing run: no counter run was made, so this file "
                                  "holds measured times only (no counters), of the launches made before it ended",
                                  how_it_ended(timing_exit)));
      session.message(notes.back());
    }
    result.outputs = measured_outputs(run, timing_exit, notes);
    return result;
  }
  if (!usable) return result;

  const CounterRun counters = count_spread(session, timing, {}, folder / "counters");
  warn_on_exit_codes(session, timing_exit, counters.exit);
  if (interrupted(counters.exit)) result.application = counters.exit;
  usable = counters.usable;
  const uint64_t sample = request.sample;
  const JoinedRuns joined = join_runs(timing, counters.records, sample > 0);
  if (sample == 0 && joined.timing_only + joined.counters_only > 0)
    session.message(fmt::format("warning: {} timed launch(es) had no counters and {} counted launch(es) no timing "
                                "(the two runs launched different kernels); they are left out",
                                joined.timing_only, joined.counters_only));
  if (sample > 0) warn_on_unpaired_counts(session, joined.counters_only);
  std::vector<std::string> notes;
  const size_t profiled = counters.records.launches.size() - joined.counters_only;
  const uint64_t to_profile = sample > 0 ? counters.planned : timing.launches.size();
  const bool all_profiled = sample > 0 ? profiled >= counters.planned : joined.timing_only == 0;
  if (const auto note = counter_run_note(counters, timing_exit, profiled, to_profile, all_profiled))
    notes.push_back(*note);
  if (usable && joined.launches.empty()) {
    session.message("no launch has both timing and counters");
    usable = false;
  }
  if (usable) {
    RunExits exits;
    exits.timing = timing_exit;
    exits.counters = counters.exit;
    result.outputs = profile_outputs(run, joined, counters.records, exits, session.metrics, notes);
  }
  return result;
}

}  // namespace

ProfileResult profile_application(const ProfileRequest& request, const ProfileMessage& message) {
  MetricSetName set = MetricSetName::full;
  if (!parse_metric_set_name(request.metric_set, set))
    throw InputError(fmt::format("profile: --metrics: expected thesis or full, found \"{}\"", request.metric_set));
  if (request.runs == RunCount::one && (request.timing_only || request.cache_control != "all"))
    throw InputError("profile: --single-run (--runs one) profiles in the run that times: it needs counters (no "
                     "--timing-only) and --cache-control all");
  const Session session{request,
                        message,
                        companion(protocol::kInjectionLibraryName),
                        recorded_variables(request.output),
                        metric_names(set),
                        is_per_process(request.output)};
  if (!session.per_process) check_replaceable(request.output);  // before the application runs, not after
  const RecordsFolder folder(request.records_dir);
  if (folder.note()) message(*folder.note());
  // Timing and counting in one run needs the collector's own replay (--cache-control all).
  if (!request.timing_only && request.cache_control == "all" && request.runs != RunCount::two)
    return profile_from_first_run(session, folder.path());
  return profile_in_two_runs(session, folder.path());
}

int list_collector_metrics(const std::string& metric_set, const std::string& chip, int device,
                           const ProfileMessage& message) {
  std::vector<std::string> command = {companion(protocol::kCuptiToolName), "list-metrics", "--metrics", metric_set};
  if (!chip.empty()) command.insert(command.end(), {"--chip", chip});
  if (device >= 0) command.insert(command.end(), {"--device", std::to_string(device)});
  const AppExit result = run_application(command, {});
  // `--list-metrics | head`: the reader left; quiet, as any program whose pipe closes.
  if (result.signaled && result.signal != SIGPIPE)
    message(fmt::format("{} was killed by signal {}", command[0], result.signal));
  return result.exit_code;
}

}  // namespace roofcast::profiler
