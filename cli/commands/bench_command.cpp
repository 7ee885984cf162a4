// `roofcast bench` runs the companion program roofcast-bench (built only where a CUDA or HIP
// compiler was found) from beside this roofcast binary or, installed, libexec/roofcast, with the same arguments.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "inputs.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/profiler/companions.hpp"

namespace roofcast {

namespace {

struct BenchOptions {
  int device = 0;
  bool quick = false;
  std::string output, csv, report, name;
  std::string complete;  // a device profile to complete ("": a full run)
};

// The companion: the CUDA build, else the HIP build.
std::filesystem::path find_bench() {
  for (const char* name : {"roofcast-bench", "roofcast-bench-hip"}) {
    const auto candidate = profiler::find_companion(name);
    if (candidate && ::access(candidate->c_str(), X_OK) == 0) return *candidate;
  }
  throw InputError(fmt::format("bench: roofcast-bench was not built (no CUDA or HIP compiler when roofcast was "
                               "configured); expected it in {}",
                               profiler::companion_folders_text()));
}

[[noreturn]] void run_bench(const BenchOptions& options) {
  const auto companion = find_bench();
  std::vector<std::string> arguments = {companion.string(), "--device", std::to_string(options.device)};
  if (options.quick) arguments.push_back("--quick");
  for (const auto& [flag, value] : {std::pair{"--output", options.output}, std::pair{"--csv", options.csv},
                                    std::pair{"--report", options.report}, std::pair{"--name", options.name},
                                    std::pair{"--complete", options.complete}}) {
    if (value.empty()) continue;
    arguments.push_back(flag);
    arguments.push_back(value);
  }
  std::vector<char*> argv;
  for (auto& argument : arguments) argv.push_back(argument.data());
  argv.push_back(nullptr);
  ::setenv("ROOFCAST_INVOKED_AS", "roofcast bench", 1);
  ::execv(companion.c_str(), argv.data());
  throw InputError(fmt::format("bench: cannot run {}: {}", companion.string(), std::strerror(errno)));
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* command =
      app.add_subcommand("bench", "Characterize this machine's GPU with micro-benchmarks; write its device profile");
  command->add_option("--device", options->device, "GPU index")->transform(whole_number(0, 65535));
  command->add_flag("--quick", options->quick, "Smaller buffers, shorter launches, fewer roofline points");
  auto* output = command->add_option("--output", options->output,
                                     "Device profile to write (JSON; with --complete, default: FILE)");
  auto* csv = command->add_option("--csv", options->csv, "Long-format CSV of every point (default: OUTPUT with .csv)");
  auto* report = command->add_option("--report", options->report, "Markdown report (default: OUTPUT with .md)");
  auto* name = command->add_option("--name", options->name, "The profile's device name (default: the GPU's name)");
  auto* complete = command->add_option(
      "--complete", options->complete,
      "Run only the benches whose keys this device profile (FILE, written by roofcast bench on this GPU) lacks, and "
      "write it completed (docs/bench.md)");
  complete->excludes(csv)->excludes(report)->excludes(name);
  command->callback([options, output, complete] {
    if (output->count() == 0 && complete->count() == 0) throw CLI::RequiredError("--output (or --complete FILE)");
    run_bench(*options);
  });
}

}  // namespace roofcast
