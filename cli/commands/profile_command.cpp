// `roofcast profile [options] -- APP ARGS...`: runs an unmodified application under the CUPTI
// collector and writes its kernel profile (profiler::profile_application). Plain C++: roofcast
// builds and runs without CUDA; where the collector was not built, the command says so.
#include <unistd.h>

#include <charconv>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <regex>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "inputs.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/profiler/profile_application.hpp"

namespace roofcast {

namespace {

// The request as the options fill it in; --output, --sample and the checks are applied by request_of.
struct ProfileOptions {
  profiler::ProfileRequest request;
  bool list_metrics = false;
  std::string chip;
  std::string sample = "5";
  std::string runs = "auto";
  bool single_run = false;
};

[[noreturn]] void exit_with(int code) {
  std::cout.flush();
  std::cerr.flush();
  std::exit(code);
}

void say(const std::string& line) { std::cerr << "roofcast profile: " << line << "\n"; }

[[noreturn]] void list_metrics(const ProfileOptions& options) {
  exit_with(profiler::list_collector_metrics(options.request.metric_set, options.chip, options.request.device, say));
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

profiler::ProfileRequest request_of(const ProfileOptions& options) {
  profiler::ProfileRequest request = options.request;
  if (request.command.empty())
    throw UsageError("profile: no application given (usage: roofcast profile [options] -- APP ARGS...)");
  try {
    std::regex check(request.kernel_regex, std::regex::ECMAScript);
  } catch (const std::regex_error& error) {
    throw InputError(fmt::format("profile: --kernel-regex \"{}\": {}", request.kernel_regex, error.what()));
  }
  request.sample = parse_sample(options.sample);
  request.runs = options.runs == "one" || options.single_run ? profiler::RunCount::one
                 : options.runs == "two"                     ? profiler::RunCount::two
                                                             : profiler::RunCount::automatic;
  if (options.single_run && options.runs == "two")
    throw UsageError("profile: --single-run and --runs two contradict each other");
  if (request.output.empty()) request.output = request.timing_only ? "roofcast-measured.json" : "roofcast-profile.json";
  request.show_progress = isatty(STDERR_FILENO) == 1;
  return request;
}

[[noreturn]] void run_profile(const ProfileOptions& options) {
  if (options.list_metrics) list_metrics(options);
  const profiler::ProfileRequest request = request_of(options);
  const profiler::ProfileResult result = profiler::profile_application(request, say);
  size_t written = 0;
  for (const auto& output : result.outputs) {
    for (const auto& line : output.messages) say(line);
    if (!output.text) continue;
    write_file_atomically(output.file, *output.text);
    ++written;
    say(output.summary);
  }
  const profiler::AppExit& application = result.application;
  if (written == 0) {
    say(fmt::format("no profile written to {}", printable(request.output)));
    exit_with(application.exit_code != 0 ? application.exit_code : 1);
  }
  if (application.exit_code != 0) say(fmt::format("the application {}", profiler::how_it_ended(application)));
  exit_with(application.exit_code);
}

}  // namespace

void add_profile_command(CLI::App& app) {
  auto options = std::make_shared<ProfileOptions>();
  profiler::ProfileRequest& request = options->request;
  CLI::App* command = app.add_subcommand(
      "profile", "Profile an unmodified CUDA application's kernels (CUPTI): roofcast profile [options] -- APP ARGS...");
  command->add_option("-o,--output", request.output,
                      "Output file (default roofcast-profile.json, or roofcast-measured.json with --timing-only); "
                      "%p (process id) or %q{VAR} (environment variable) write one file per process");
  command->add_flag("--timing-only", request.timing_only,
                    "Only time the kernels (one run, no counters; works under MPS): writes a roofcast-measured file");
  command->add_option("--metrics", request.metric_set,
                      "Counter set: full (thesis nine + extension, pipes and latency groups; 19 passes on GH100) "
                      "or thesis (2)")
      ->check(CLI::IsMember({"full", "thesis"}));
  command->add_option("--cache-control", request.cache_control,
                      "all: replay every launch in the collector and empty the L2 before each pass, as Nsight "
                      "Compute does (default); none: CUPTI's kernel replay, caches as left by the memory restore")
      ->check(CLI::IsMember({"all", "none"}));
  command->add_option("--runs", options->runs,
                      "auto (default): one run that times every launch and profiles the first N launches of each "
                      "kernel and shape (--sample N) and, for shapes whose launches count different instructions, "
                      "N to 3N spread over the run while that costs at most a third of the application's own time; "
                      "then a second run, profiling N launches spread over the run, only for the shapes not so "
                      "sampled whose launches differ (in instructions, or in time where fewer than half were "
                      "profiled) or that got no counters (CUDA graphs); one: the first N in one run; two: a timing "
                      "run, then a counter run spread over every shape")
      ->check(CLI::IsMember({"auto", "one", "two"}));
  command->add_flag("--single-run", options->single_run, "The same as --runs one");
  command->add_flag("--per-launch", request.per_launch, "Also write every launch's record under its kernel");
  command->add_option("--sample", options->sample,
                      "Counters for N launches of each kernel and launch shape (default 5; up to 3N where the "
                      "first run spreads them; which ones: --runs), scaled to all its launches; all: every launch");
  command->add_option("-k,--kernel-regex", request.kernel_regex, "Only kernels whose demangled name matches");
  command->add_option("-s,--launch-skip", request.launch_skip, "Skip the first N matching launches")
      ->transform(whole_number(0, 1e15));
  command->add_option("-c,--launch-count", request.launch_count, "Record at most M matching launches")
      ->transform(whole_number(0, 1e15));
  command->add_option("--device", request.device, "Only kernels on this device index")->transform(whole_number(0, 65535));
  command->add_option("--records-dir", request.records_dir, "Keep the collector's per-process records in this folder");
  command->add_flag("--list-metrics", options->list_metrics, "Print the metric set and its replay passes, then exit");
  command->add_option("--chip", options->chip, "With --list-metrics: answer for this chip offline (e.g. GH100)");
  command->add_option("command", request.command, "APP ARGS... (after --)");
  command->callback([options] { run_profile(*options); });
}

}  // namespace roofcast
