// `roofcast profile [options] -- APP ARGS...`: runs an unmodified application under the CUPTI
// collector (profiler/cupti/injection, loaded through CUDA_INJECTION64_PATH) and writes its
// kernel profile. Plain C++: everything that needs CUPTI lives in the injection library and in
// roofcast-cupti beside this binary, so roofcast builds and runs without CUDA.
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <csignal>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "roofcast/formats/command_line.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/json_text.hpp"
#include "roofcast/formats/measured_json.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/profiler/app_launcher.hpp"
#include "roofcast/profiler/collector_protocol.hpp"
#include "roofcast/profiler/companions.hpp"
#include "roofcast/profiler/kernel_summary.hpp"
#include "roofcast/profiler/launch_records.hpp"
#include "roofcast/profiler/launch_sample.hpp"
#include "roofcast/profiler/metric_set.hpp"
#include "roofcast/profiler/output_pattern.hpp"
#include "roofcast/profiler/progress_monitor.hpp"
#include "roofcast/profiler/transfer_summary.hpp"

namespace roofcast {

namespace {

namespace fs = std::filesystem;
using namespace roofcast::profiler;

struct ProfileOptions {
  std::vector<std::string> command;
  std::string output;
  bool timing_only = false;
  std::string metric_set = "full";
  std::string cache_control = "all";
  bool per_launch = false;
  std::string kernel_regex;
  uint64_t launch_skip = 0;
  int64_t launch_count = -1;
  int device = -1;
  std::string records_dir;
  bool list_metrics = false;
  std::string chip;
  std::string sample = "5";
};

[[noreturn]] void exit_with(int code) {
  std::cout.flush();
  std::cerr.flush();
  std::exit(code);
}

std::string companion(const char* file) {
  const auto path = find_companion(file);
  if (!path)
    throw InputError(fmt::format("profile: the CUPTI collector was not built ({} is in neither {}; rebuild roofcast "
                                 "where CUDA 13 with CUPTI is installed)",
                                 file, companion_folders_text()));
  return path->string();
}

void list_metrics(const ProfileOptions& options) {
  std::vector<std::string> command = {companion(protocol::kCuptiToolName), "list-metrics", "--metrics",
                                      options.metric_set};
  if (!options.chip.empty()) command.insert(command.end(), {"--chip", options.chip});
  if (options.device >= 0) command.insert(command.end(), {"--device", std::to_string(options.device)});
  const AppExit result = run_application(command, {});
  if (result.signaled)
    std::cerr << fmt::format("roofcast profile: {} was killed by signal {}\n", command[0], result.signal);
  exit_with(result.exit_code);
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

std::map<std::string, std::string> collector_environment(const ProfileOptions& options, const std::string& library,
                                                         const std::string& folder, const char* mode) {
  std::map<std::string, std::string> env = {{protocol::kInjectionPathVariable, library},
                                            {protocol::kModeVariable, mode},
                                            {protocol::kOutputDirVariable, folder}};
  if (!options.kernel_regex.empty()) env[protocol::kKernelRegexVariable] = options.kernel_regex;
  if (options.launch_skip > 0) env[protocol::kSkipVariable] = std::to_string(options.launch_skip);
  if (options.launch_count >= 0) env[protocol::kCountVariable] = std::to_string(options.launch_count);
  if (options.device >= 0) env[protocol::kDeviceVariable] = std::to_string(options.device);
  return env;
}

// ", 4 host/device copies (1.1 MB, 0.2 ms)" for the summary line; empty where the application copied nothing.
std::string copies_summary(const std::vector<CopyRecord>& copies, int device) {
  double count = 0, bytes = 0, ms = 0;
  for (const auto& t : summarize_transfers(copies, device))
    count += t.count, bytes += t.bytes, ms += t.measured_ms.value_or(0);
  if (count == 0) return "";
  return fmt::format(", {:g} host/device copies ({:.3g} MB, {:.3g} ms)", count, bytes / 1e6, ms);
}

// Prints what the collector reported; returns false when the run produced nothing usable.
bool report(const RunRecords& run, const char* what) {
  // The collector's messages quote kernel names: shown printable.
  for (const auto& error : run.errors) std::cerr << fmt::format("roofcast profile: {} run: {}\n", what, printable(error));
  for (const auto& warning : run.warnings)
    std::cerr << fmt::format("roofcast profile: warning: {} run: {}\n", what, printable(warning));
  if (run.incomplete_processes > 0)
    std::cerr << fmt::format("roofcast profile: warning: {} run: {} process(es) ended without flushing (killed or _exit); "
                             "their last records may be missing\n",
                             what, run.incomplete_processes);
  return run.errors.empty();
}

bool nvidia_driver_present() {
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (driver != nullptr) dlclose(driver);
  return driver != nullptr;
}

std::string why_nothing_recorded(const RunRecords& timing, const ProfileOptions& options) {
  if (timing.processes == 0 && !nvidia_driver_present())
    return "no NVIDIA GPU driver found (libcuda.so.1 is not installed): there is nothing to profile here";
  if (timing.processes == 0)
    return fmt::format("the collector was never loaded: {} made no CUDA call (is it a CUDA program?), or no NVIDIA GPU "
                       "is usable",
                       options.command[0]);
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

std::string how_it_ended(const AppExit& exit) {
  if (exit.signaled) return fmt::format("was ended by signal {} ({})", exit.signal, strsignal(exit.signal));
  return fmt::format("exited with status {}", exit.exit_code);
}

// Runs the application once, with a status line on stderr while it runs when that is a terminal.
AppExit run_monitored(const ProfileOptions& options, const std::map<std::string, std::string>& env,
                      const fs::path& folder, const char* mode, uint64_t planned) {
  ProgressMonitor monitor(folder, mode, planned, isatty(STDERR_FILENO) == 1);
  const AppExit exit = run_application(options.command, env);
  monitor.stop();
  return exit;
}

uint64_t parse_sample(const std::string& text) {
  if (text == "all") return 0;
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value == 0)
    throw InputError(fmt::format("profile: --sample: expected a whole number from 1 or \"all\", found \"{}\"",
                                 printable(text)));
  return value;
}

// The output file of each process of the timing run (the same file for all without a pattern).
std::vector<std::string> output_of_processes(const std::string& output, bool per_process, const RunRecords& timing) {
  std::vector<std::string> names;
  for (const auto& process : timing.process_info)
    names.push_back(per_process ? expand_output_pattern(output, process.pid, process.env) : output);
  return names;
}

// Each output file with the processes that go into it, in order of first use.
std::vector<std::pair<std::string, std::set<int>>> output_groups(const std::vector<std::string>& names,
                                                                 const std::vector<LaunchRecord>& launches) {
  std::vector<std::pair<std::string, std::set<int>>> groups;
  std::set<int> launching;
  for (const auto& launch : launches) launching.insert(launch.process);
  for (int p = 0; p < static_cast<int>(names.size()); ++p) {
    if (!launching.contains(p)) continue;  // a process that launched no kernel gets no file
    auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == names[p]; });
    if (group == groups.end()) group = groups.insert(groups.end(), {names[p], {}});
    group->second.insert(p);
  }
  return groups;
}

template <typename Record>
std::vector<Record> of_processes(const std::vector<Record>& records, const std::set<int>& processes) {
  std::vector<Record> kept;
  for (const auto& record : records)
    if (processes.contains(record.process)) kept.push_back(record);
  return kept;
}

std::string listed(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size() && i < 5; ++i) text += (i ? ", " : "") + printable(names[i]);
  if (names.size() > 5) text += fmt::format(" and {} more", names.size() - 5);
  return text;
}

// Timing-only output (--timing-only, or a timing run that was interrupted: no counter run).
void write_measured(const std::string& output, const std::vector<LaunchRecord>& launches, const DeviceInfo& device,
                    const std::vector<std::string>& notes, const std::string& tail) {
  const auto kernels = summarize_kernels(launches);
  const MeasuredTimes times = measured_times(kernels, device.name.empty() ? "unknown" : device.name);
  nlohmann::json json = to_json(times);
  if (!notes.empty()) json["notes"] = notes;
  write_file_atomically(output, json_text(json));
  std::cerr << fmt::format("roofcast profile: {} kernels, {} launches timed on {} -> {}{}\n", kernels.size(),
                           launches.size(), times.device, printable(output), tail);
}

void run_profile(const ProfileOptions& options) {
  if (options.list_metrics) list_metrics(options);
  MetricSetName set = MetricSetName::full;
  if (!parse_metric_set_name(options.metric_set, set))
    throw InputError(fmt::format("profile: --metrics: expected thesis or full, found \"{}\"", options.metric_set));
  if (options.command.empty())
    throw InputError("profile: no application given (usage: roofcast profile [options] -- APP ARGS...)");
  try {
    std::regex check(options.kernel_regex, std::regex::ECMAScript);
  } catch (const std::regex_error& error) {
    throw InputError(fmt::format("profile: --kernel-regex \"{}\": {}", options.kernel_regex, error.what()));
  }
  const uint64_t sample = parse_sample(options.sample);
  const std::string library = companion(protocol::kInjectionLibraryName);
  const std::string output =
      !options.output.empty() ? options.output : options.timing_only ? "roofcast-measured.json" : "roofcast-profile.json";
  const bool per_process = is_per_process(output);
  if (!per_process) check_replaceable(output);  // before the application runs, not after
  // Both runs record the pattern's variables and the launchers' rank variables: processes that
  // start together (MPI ranks, torchrun workers) start in either order, so the runs' processes
  // are matched by these values first (read_run_records), not by start order alone.
  std::string recorded_env;
  std::vector<std::string> recorded = pattern_variables(output);
  for (const char* name : protocol::kRankVariables)
    if (std::find(recorded.begin(), recorded.end(), name) == recorded.end()) recorded.push_back(name);
  for (const auto& name : recorded) recorded_env += (recorded_env.empty() ? "" : ",") + name;
  RecordsFolder folder(options.records_dir);
  const fs::path timing_folder = fs::path(folder.path()) / "timing";
  const fs::path counter_folder = fs::path(folder.path()) / "counters";
  fs::create_directories(timing_folder);

  auto timing_env = collector_environment(options, library, timing_folder, "timing");
  timing_env[protocol::kRecordEnvVariable] = recorded_env;
  const AppExit timing_exit = run_monitored(options, timing_env, timing_folder, "timing", 0);
  const RunRecords timing = read_run_records(timing_folder, "timing");
  bool usable = report(timing, "timing");
  if (timing.launches.empty() && usable) {
    std::cerr << "roofcast profile: " << why_nothing_recorded(timing, options) << "\n";
    usable = false;
  }
  const DeviceInfo device = main_device(timing);
  const std::vector<std::string> metrics = metric_names(set);
  const auto names = output_of_processes(output, per_process, timing);
  const auto groups = output_groups(names, timing.launches);
  AppExit app_exit = timing_exit;  // what roofcast passes on: the interrupted run's, else the timing run's
  size_t written = 0;

  if (usable && (options.timing_only || interrupted(timing_exit))) {
    std::vector<std::string> notes;
    if (!options.timing_only) {
      notes.push_back(fmt::format("the application {} during the timing run: no counter run was made, so this file "
                                  "holds measured times only (no counters), of the launches made before it ended",
                                  how_it_ended(timing_exit)));
      std::cerr << "roofcast profile: " << notes.back() << "\n";
    }
    for (const auto& [file, processes] : groups) {
      write_measured(file, of_processes(timing.launches, processes), device, notes,
                     fmt::format(" ({:.1f} s){}", timing_exit.wall_seconds, copies_summary(of_processes(timing.copies, processes), options.device)));
      ++written;
    }
  } else if (usable) {
    fs::create_directories(counter_folder);
    auto env = collector_environment(options, library, counter_folder, "counters");
    std::string joined_metrics;
    for (const auto& metric : metrics) joined_metrics += (joined_metrics.empty() ? "" : ",") + metric;
    env[protocol::kMetricsVariable] = joined_metrics;
    env[protocol::kCacheControlVariable] = options.cache_control;
    env[protocol::kRecordEnvVariable] = recorded_env;
    // The sample: each shape's launches per process in the timing run, so the counter run can
    // spread its picks over them.
    uint64_t planned = 0;
    {
      std::map<std::tuple<int, SampleShape>, uint64_t> counts;
      for (const auto& launch : timing.launches) ++counts[{launch.process, SampleShape{launch.name, launch.grid, launch.block}}];
      SamplePlan plan;
      for (const auto& [key, count] : counts) {
        plan.add(std::get<1>(key), count);
        planned += sampled_count(count, sample);
      }
      if (sample > 0) {
        const std::string plan_path = (fs::path(folder.path()) / "sample-plan.txt").string();
        if (!plan.write(plan_path)) throw InputError(fmt::format("profile: cannot write {}", printable(plan_path)));
        env[protocol::kSampleVariable] = std::to_string(sample);
        env[protocol::kSamplePlanVariable] = plan_path;
      }
    }
    // Only one profiling session can hold a GPU's counters: where the application ran several
    // CUDA processes, they take turns one launch at a time (slower per launch).
    // Every CUDA process counts, not only those whose launches were recorded: a process whose
    // timing records were lost (killed, _exit) still profiles in the counter run.
    if (timing.processes > 1) env[protocol::kShareCountersVariable] = "1";
    const AppExit counter_exit = run_monitored(options, env, counter_folder, "counters", planned);
    if (counter_exit.exit_code != timing_exit.exit_code)
      std::cerr << fmt::format("roofcast profile: warning: the application exited with {} in the counter run, {} in "
                               "the timing run\n",
                               counter_exit.exit_code, timing_exit.exit_code);
    if (interrupted(counter_exit)) app_exit = counter_exit;
    const RunRecords counters = read_run_records(counter_folder, "counters");
    usable = report(counters, "counter");
    const JoinedRuns joined = join_runs(timing, counters, sample > 0);
    if (sample == 0 && joined.timing_only + joined.counters_only > 0)
      std::cerr << fmt::format("roofcast profile: warning: {} timed launch(es) had no counters and {} counted launch(es) "
                               "no timing (the two runs launched different kernels); they are left out\n",
                               joined.timing_only, joined.counters_only);
    if (sample > 0 && joined.counters_only > 0)
      std::cerr << fmt::format("roofcast profile: warning: {} counted launch(es) have no timed counterpart (the two runs "
                               "launched different kernels); they are left out\n",
                               joined.counters_only);
    std::vector<std::string> run_notes;
    const size_t profiled = counters.launches.size() - joined.counters_only;
    const bool ended_early = counter_exit.exit_code != 0 || counter_exit.signaled || counters.incomplete_processes > 0;
    if (ended_early && (sample > 0 ? profiled < planned : joined.timing_only > 0))
      run_notes.push_back(fmt::format("the application {} during the counter run ({} in the timing run), after {} of "
                                      "the {} launches to profile: counters of the later ones are missing",
                                      how_it_ended(counter_exit), how_it_ended(timing_exit), profiled,
                                      sample > 0 ? planned : timing.launches.size()));
    if (usable && joined.launches.empty()) {
      std::cerr << "roofcast profile: no launch has both timing and counters\n";
      usable = false;
    }
    for (const auto& [file, processes] : groups) {
      if (!usable) break;
      const auto launches = of_processes(joined.launches, processes);
      auto kernels = summarize_kernels(launches);
      std::vector<std::string> notes = run_notes, missing;
      std::erase_if(kernels, [&](const KernelSummary& kernel) {
        if (kernel.profiled_invocations > 0) return false;
        missing.push_back(kernel.name);
        return true;
      });
      if (!missing.empty())
        notes.push_back(fmt::format("{} kernel(s) timed but never profiled are left out (no counters): {}",
                                    missing.size(), listed(missing)));
      for (const auto& note : notes) std::cerr << "roofcast profile: warning: " << printable(file) << ": " << note << "\n";
      if (kernels.empty()) {
        std::cerr << fmt::format("roofcast profile: no kernel of {} has counters\n", printable(file));
        continue;
      }
      ProfileProvenance provenance{device.name, device.chip, shell_command(options.command),
                                   utc_time_text(std::chrono::system_clock::now()),
                                   options.metric_set, counters.passes, metrics, options.cache_control};
      nlohmann::json profile = kernel_profile_json(kernels, provenance, options.per_launch);
      profile["collector"]["sample"] = sample > 0 ? nlohmann::json(sample) : nlohmann::json("all");
      if (per_process) {
        nlohmann::json pids = nlohmann::json::array();
        for (int p : processes) pids.push_back(timing.process_info[static_cast<size_t>(p)].pid);
        profile["processes"] = pids;
      }
      if (!notes.empty()) profile["notes"] = notes;
      const auto copies = of_processes(timing.copies, processes);
      add_transfers(profile, copies, options.per_launch, options.device);
      const std::string text = json_text(profile);
      parse_kernel_profile(text, file);  // what we write must be what roofcast reads
      write_file_atomically(file, text);
      ++written;
      int64_t launch_count = 0, profiled_count = 0;
      for (const auto& kernel : kernels) launch_count += kernel.invocations, profiled_count += kernel.profiled_invocations;
      std::cerr << fmt::format("roofcast profile: {} kernels, {} launches ({} profiled, {}) on {} -> {} (timing run "
                               "{:.1f} s, counter run {:.1f} s, {} replay passes){}\n",
                               kernels.size(), launch_count, profiled_count,
                               sample > 0 ? fmt::format("at most {} per kernel and launch shape", sample) : "all",
                               device.name.empty() ? "unknown GPU" : device.name, printable(file),
                               timing_exit.wall_seconds, counter_exit.wall_seconds,
                               counters.passes ? std::to_string(*counters.passes * static_cast<size_t>(profiled_count)) : "?",
                               copies_summary(copies, options.device));
    }
  }
  if (written == 0) {
    std::cerr << fmt::format("roofcast profile: no profile written to {}\n", printable(output));
    exit_with(app_exit.exit_code != 0 ? app_exit.exit_code : 1);
  }
  if (app_exit.exit_code != 0) std::cerr << fmt::format("roofcast profile: the application {}\n", how_it_ended(app_exit));
  exit_with(app_exit.exit_code);
}

}  // namespace

void add_profile_command(CLI::App& app) {
  auto options = std::make_shared<ProfileOptions>();
  CLI::App* command = app.add_subcommand(
      "profile", "Profile an unmodified CUDA application's kernels (CUPTI): roofcast profile [options] -- APP ARGS...");
  command->add_option("-o,--output", options->output,
                      "Output file (default roofcast-profile.json, or roofcast-measured.json with --timing-only); "
                      "%p (process id) or %q{VAR} (environment variable) write one file per process");
  command->add_flag("--timing-only", options->timing_only,
                    "Only time the kernels (one run, no counters; works under MPS): writes a roofcast-measured file");
  command->add_option("--metrics", options->metric_set,
                      "Counter set: full (thesis nine + extension, pipes and latency groups; 19 passes on GH100) "
                      "or thesis (2)")
      ->check(CLI::IsMember({"full", "thesis"}));
  command->add_option("--cache-control", options->cache_control,
                      "all: replay every launch in the collector and empty the L2 before each pass, as Nsight "
                      "Compute does (default); none: CUPTI's kernel replay, caches as left by the memory restore")
      ->check(CLI::IsMember({"all", "none"}));
  command->add_flag("--per-launch", options->per_launch, "Also write every launch's record under its kernel");
  command->add_option("--sample", options->sample,
                      "Counters for at most N launches of each kernel and launch shape, spread over the run, scaled "
                      "to all its launches (default 5); all: every launch");
  command->add_option("-k,--kernel-regex", options->kernel_regex, "Only kernels whose demangled name matches");
  command->add_option("-s,--launch-skip", options->launch_skip, "Skip the first N matching launches");
  command->add_option("-c,--launch-count", options->launch_count, "Record at most M matching launches")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--device", options->device, "Only kernels on this device index")->check(CLI::NonNegativeNumber);
  command->add_option("--records-dir", options->records_dir, "Keep the collector's per-process records in this folder");
  command->add_flag("--list-metrics", options->list_metrics, "Print the metric set and its replay passes, then exit");
  command->add_option("--chip", options->chip, "With --list-metrics: answer for this chip offline (e.g. GH100)");
  command->add_option("command", options->command, "APP ARGS... (after --)");
  command->callback([options] { run_profile(*options); });
}

}  // namespace roofcast
