// `roofcast profile [options] -- APP ARGS...`: runs an unmodified application under the CUPTI
// collector (profiler/cupti/injection, loaded through CUDA_INJECTION64_PATH) and writes its
// kernel profile. Plain C++: everything that needs CUPTI lives in the injection library and in
// roofcast-cupti beside this binary, so roofcast builds and runs without CUDA.
#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <memory>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "commands/commands.hpp"
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
#include "roofcast/profiler/metric_set.hpp"
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

std::string utc_now() {
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

std::string quoted_command(const std::vector<std::string>& command) {
  std::string text;
  for (const auto& argument : command) {
    if (!text.empty()) text += ' ';
    text += argument.find_first_of(" \t'\"") == std::string::npos ? argument : "'" + argument + "'";
  }
  return text;
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
std::string copies_summary(const RunRecords& run, int device) {
  double count = 0, bytes = 0, ms = 0;
  for (const auto& t : summarize_transfers(run.copies, device))
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
  const std::string library = companion(protocol::kInjectionLibraryName);
  const std::string output =
      !options.output.empty() ? options.output : options.timing_only ? "roofcast-measured.json" : "roofcast-profile.json";
  check_replaceable(output);  // before the application runs, not after
  RecordsFolder folder(options.records_dir);
  const fs::path timing_folder = fs::path(folder.path()) / "timing";
  const fs::path counter_folder = fs::path(folder.path()) / "counters";
  fs::create_directories(timing_folder);

  const AppExit timing_exit =
      run_application(options.command, collector_environment(options, library, timing_folder, "timing"));
  const RunRecords timing = read_run_records(timing_folder, "timing");
  bool usable = report(timing, "timing");
  if (timing.launches.empty() && usable) {
    std::cerr << "roofcast profile: " << why_nothing_recorded(timing, options) << "\n";
    usable = false;
  }
  const DeviceInfo device = main_device(timing);
  const std::vector<std::string> metrics = metric_names(set);
  std::string summary;

  if (usable && options.timing_only) {
    const auto kernels = summarize_kernels(timing.launches);
    const MeasuredTimes times = measured_times(kernels, device.name.empty() ? "unknown" : device.name);
    write_file_atomically(output, json_text(to_json(times)));
    summary = fmt::format("{} kernels, {} launches timed on {} -> {} ({:.1f} s){}", kernels.size(),
                          timing.launches.size(), times.device, output, timing_exit.wall_seconds,
                          copies_summary(timing, options.device));
  } else if (usable) {
    fs::create_directories(counter_folder);
    auto env = collector_environment(options, library, counter_folder, "counters");
    std::string joined_metrics;
    for (const auto& metric : metrics) joined_metrics += (joined_metrics.empty() ? "" : ",") + metric;
    env[protocol::kMetricsVariable] = joined_metrics;
    env[protocol::kCacheControlVariable] = options.cache_control;
    // Only one profiling session can hold a GPU's counters: where several processes launched
    // kernels in the timing run, they take turns one launch at a time (slower per launch).
    std::set<int> launching_processes;
    for (const auto& launch : timing.launches) launching_processes.insert(launch.process);
    if (launching_processes.size() > 1) env[protocol::kShareCountersVariable] = "1";
    const AppExit counter_exit = run_application(options.command, env);
    if (counter_exit.exit_code != timing_exit.exit_code)
      std::cerr << fmt::format("roofcast profile: warning: the application exited with {} in the counter run, {} in "
                               "the timing run\n",
                               counter_exit.exit_code, timing_exit.exit_code);
    const RunRecords counters = read_run_records(counter_folder, "counters");
    usable = report(counters, "counter");
    const JoinedRuns joined = join_runs(timing, counters);
    if (joined.timing_only + joined.counters_only > 0)
      std::cerr << fmt::format("roofcast profile: warning: {} timed launch(es) had no counters and {} counted launch(es) "
                               "no timing (the two runs launched different kernels); they are left out\n",
                               joined.timing_only, joined.counters_only);
    if (usable && joined.launches.empty()) {
      std::cerr << "roofcast profile: no launch has both timing and counters\n";
      usable = false;
    }
    if (usable) {
      const auto kernels = summarize_kernels(joined.launches);
      ProfileProvenance provenance{device.name, device.chip, quoted_command(options.command), utc_now(),
                                   options.metric_set, counters.passes, metrics, options.cache_control};
      nlohmann::json profile = kernel_profile_json(kernels, provenance, options.per_launch);
      add_transfers(profile, timing.copies, options.per_launch, options.device);
      const std::string text = json_text(profile);
      parse_kernel_profile(text, output);  // what we write must be what roofcast reads
      write_file_atomically(output, text);
      summary = fmt::format("{} kernels, {} launches on {} -> {} (timing run {:.1f} s, counter run {:.1f} s, {} replay "
                            "passes){}",
                            kernels.size(), joined.launches.size(), device.name.empty() ? "unknown GPU" : device.name,
                            output, timing_exit.wall_seconds, counter_exit.wall_seconds,
                            counters.passes ? std::to_string(*counters.passes) : "?",
                            copies_summary(timing, options.device));
    }
  }
  if (!usable) {
    std::cerr << fmt::format("roofcast profile: no profile written to {}\n", output);
    exit_with(timing_exit.exit_code != 0 ? timing_exit.exit_code : 1);
  }
  std::cerr << "roofcast profile: " << summary << "\n";
  if (timing_exit.exit_code != 0)
    std::cerr << fmt::format("roofcast profile: the application exited with status {}\n", timing_exit.exit_code);
  exit_with(timing_exit.exit_code);
}

}  // namespace

void add_profile_command(CLI::App& app) {
  auto options = std::make_shared<ProfileOptions>();
  CLI::App* command = app.add_subcommand(
      "profile", "Profile an unmodified CUDA application's kernels (CUPTI): roofcast profile [options] -- APP ARGS...");
  command->add_option("-o,--output", options->output,
                      "Output file (default roofcast-profile.json, or roofcast-measured.json with --timing-only)");
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
