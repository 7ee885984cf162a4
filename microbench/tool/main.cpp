// roofcast-bench: characterizes one GPU and writes its device profile (JSON), a long-format
// CSV of every point and a markdown report; with --complete, measures only what an existing
// device profile lacks and writes it completed. `roofcast bench` runs this program.
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/chrono.h>
#include <fmt/format.h>

#include "roofcast/output/table.hpp"
#include "roofcast/formats/command_line.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/microbench/bench_completion.hpp"
#include "roofcast/microbench/report.hpp"
#include "roofcast/model/bench_keys.hpp"
#include "roofcast/microbench/suite.hpp"
#include "roofcast/version.hpp"

namespace {

using namespace roofcast;
using namespace roofcast::microbench;

constexpr const char* kExitStatusHelp =
    "Exit status: 0 when every benchmark ran and was verified; 1 when one failed, no GPU was found or an output "
    "cannot be written; 2 for a usage error (unknown or malformed option).";

struct Options {
  int device = 0;
  bool quick = false;
  std::string output;
  std::string csv;
  std::string report;
  std::string name;
  std::string complete;  // a device profile to complete ("": a full run)
};

std::filesystem::path with_extension(const std::string& path, const char* extension) {
  std::filesystem::path p(path);
  p.replace_extension(extension);
  return p;
}

// A bar redrawn in place on a terminal; one line per step when stderr is a file or pipe.
class ProgressBar {
 public:
  ProgressBar() : terminal_(::isatty(2)) {}
  void update(int done, int total, const std::string& step) {
    constexpr int kWidth = 30;
    const int filled = total ? done * kWidth / total : kWidth;
    const std::string line = fmt::format("[{}{}] {:3d}% {}", std::string(filled, '#'), std::string(kWidth - filled, '.'),
                                         total ? 100 * done / total : 100, step);
    if (terminal_) {
      std::cerr << "\r\033[K" << line << (done == total ? "\n" : "") << std::flush;
    } else if (step.rfind("roofline sweep (", 0) != 0 || done % 8 == 0 || done == total) {
      std::cerr << line << "\n";
    }
  }

 private:
  bool terminal_;
};

std::string command_line(int argc, char** argv) {
  const char* invoked_as = std::getenv("ROOFCAST_INVOKED_AS");
  std::string command = invoked_as ? invoked_as : "roofcast-bench";  // already a command line: kept as it is
  const std::vector<std::string> arguments(argv + 1, argv + argc);
  return arguments.empty() ? command : command + " " + shell_command(arguments);
}

std::string format_value(double value) {
  return value >= 100 ? fmt::format("{:.0f}", value) : fmt::format("{:.2f}", value);
}

void print_summary(const SuiteResult& result, const Provenance& provenance, const Options& options) {
  Table table;
  table.columns = {{"quantity", false}, {"unit", false}, {"measured"}, {"cycles"}, {"theoretical"}, {"%"}};
  for (const auto& row : summary_rows(result)) {
    const bool latency = row.unit == "us" || row.unit == "ns";
    table.add_row({row.label, row.unit, format_value(row.measured),
                   row.cycles ? fmt::format("{:.1f}", *row.cycles) : "-",
                   row.theoretical ? format_value(*row.theoretical) : "-",
                   row.percent() && !latency ? fmt::format("{:.1f}", *row.percent()) : "-"});
  }
  const DeviceInfo& d = result.device;
  std::cout << fmt::format("\n{} ({}, {}): {} SMs reported, {} observed; SM clock {:.0f} MHz measured in kernels\n\n",
                           d.name, d.backend, d.arch, d.sm_count, d.sm_count_observed,
                           result.clocks.sm_clock_mhz_in_kernel);
  std::cout << render_text(table);
  if (!result.transfers.empty()) {
    Table copies;
    copies.columns = {{"copy", false},   {"key", false},           {"bandwidth GB/s"}, {"latency us"},
                      {"sizes", false}, {"worst residual %"}};
    for (const auto& sweep : result.transfers)
      copies.add_row({sweep.label, sweep.key, format_value(sweep.bandwidth_gbps), fmt::format("{:.2f}", sweep.latency_us),
                      transfer_size_range(sweep), fmt::format("{:.1f}", 100 * sweep.worst_relative_residual)});
    std::cout << "\nCopies, fitted as time = latency + bytes / bandwidth:\n" << render_text(copies);
  }
  const auto dips = sweep_dips(result.sweep, 0.03);
  std::cout << fmt::format("\nRoofline sweep: {} points, {}\n", result.sweep.size(),
                           dips.empty() ? "every curve monotonic within 3 %"
                                        : fmt::format("dips: {}", fmt::join(dips, "; ")));
  std::cout << fmt::format("{} Suite wall time {:.1f} s.\n",
                           result.problems.empty() ? "All results verified on the host."
                                                   : fmt::format("{} characterizer(s) FAILED.", result.problems.size()),
                           result.wall_seconds);
  std::cout << fmt::format("Wrote {} (device profile \"{}\"), {} and {}\n", options.output, provenance.profile_name,
                           options.csv, options.report);
}

// Fails before the suite runs, not after, when an output cannot be written.
void check_writable(const std::string& path) {
  const std::filesystem::path folder = std::filesystem::path(path).has_parent_path()
                                           ? std::filesystem::path(path).parent_path()
                                           : std::filesystem::path(".");
  if (!std::filesystem::is_directory(folder) || ::access(folder.c_str(), W_OK) != 0)
    throw std::runtime_error(fmt::format("{}: cannot write there (folder {} missing or read-only)", path,
                                         folder.string()));
  check_replaceable(path);
}

Provenance provenance_of(const std::string& profile_name, int argc, char** argv) {
  Provenance provenance;
  provenance.profile_name = profile_name;
  provenance.command = command_line(argc, argv);
  provenance.date_utc = utc_time_text(std::chrono::system_clock::now());
  provenance.roofcast_version = kVersion;
  provenance.roofcast_git = kGitDescribe;
  return provenance;
}

// --complete FILE: the characterizers of the keys FILE lacks, on the GPU that measured it
// (refused on another), their results added to FILE's and written to --output (default FILE).
int complete(const Options& options, int argc, char** argv) {
  const std::string output = options.output.empty() ? options.complete : options.output;
  check_writable(output);
  const std::string text = read_text_file(options.complete);
  const DeviceProfile profile = parse_device_profile(text, options.complete);
  const nlohmann::json document = nlohmann::json::parse(text);
  const CompletionPlan plan = completion_plan(profile);
  if (plan.missing_keys.empty()) {
    if (output != options.complete) write_file_atomically(output, text);
    std::cout << fmt::format("{} has every bench key the pipes model reads: nothing to measure{}\n", options.complete,
                             output != options.complete ? fmt::format(" (copied to {})", output) : "");
    return 0;
  }
  std::cerr << fmt::format("roofcast-bench: {} lacks {}: running {}\n", options.complete,
                           fmt::join(plan.missing_keys, ", "), fmt::join(plan.groups, ", "));
  SuiteOptions suite{options.device, options.quick, plan.groups, [&](const DeviceInfo& gpu) {
                       if (const std::string why = completion_mismatch(document, gpu); !why.empty())
                         throw std::runtime_error(options.complete + ": " + why);
                     }};
  ProgressBar bar;
  const SuiteResult result =
      run_suite(suite, [&](int done, int total, const std::string& step) { bar.update(done, total, step); });

  const nlohmann::json completed = completed_profile(document, result, plan, provenance_of(profile.name, argc, argv));
  const std::string json = completed.dump(2) + "\n";
  const DeviceProfile back = parse_device_profile(json, output);  // what we write must read back
  write_file_atomically(output, json);

  Table table;
  table.columns = {{"added", false}, {"unit", false}, {"measured"}};
  for (const auto& key : keys_to_add(document, result)) {
    const Measurement& m = *result.find(key);
    table.add_row({key, m.unit, format_value(m.value.median)});
  }
  std::cout << render_text(table) << fmt::format("Wrote {} (suite wall time {:.1f} s)\n", output, result.wall_seconds);
  for (const auto& problem : result.problems) std::cerr << "roofcast-bench: " << problem << "\n";
  const auto still_missing = missing_bench_keys(back);
  if (!still_missing.empty())
    std::cerr << fmt::format("roofcast-bench: {} still lacks {}\n", output, fmt::join(still_missing, ", "));
  return result.problems.empty() && still_missing.empty() ? 0 : 1;
}

int run(const Options& options, int argc, char** argv) {
  for (const auto& path : {options.output, options.csv, options.report}) check_writable(path);
  ProgressBar bar;
  const SuiteResult result =
      run_suite({options.device, options.quick}, [&](int done, int total, const std::string& step) {
        bar.update(done, total, step);
      });

  std::string profile_name = options.name;
  if (profile_name.empty()) {
    profile_name = result.device.name;
    if (!result.device.mps_active_thread_percentage.empty())
      profile_name += fmt::format(" (MPS {}%)", result.device.mps_active_thread_percentage);
  }
  const Provenance provenance = provenance_of(profile_name, argc, argv);

  if (!result.problems.empty() && (!result.find("fp32_gflops") || !result.find("dram_read_gbps")))
    throw std::runtime_error(result.problems.front());
  const std::string json = device_profile_json(result, provenance).dump(2) + "\n";
  parse_device_profile(json, options.output);  // what we write must read back
  OutputFiles outputs;  // the three files appear together or not at all
  outputs.add(options.output, json);
  outputs.add(options.csv, measurements_csv(result));
  outputs.add(options.report, markdown_report(result, provenance));
  outputs.commit();
  print_summary(result, provenance, options);
  for (const auto& problem : result.problems) std::cerr << "roofcast-bench: " << problem << "\n";
  return result.problems.empty() ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"roofcast-bench: characterize a GPU with micro-benchmarks and write its device profile"};
  Options options;
  app.add_option("--device", options.device, "GPU index")->check(CLI::NonNegativeNumber);
  app.add_flag("--quick", options.quick, "Smaller buffers, shorter launches, fewer roofline points");
  app.add_option("--output", options.output, "Device profile to write (JSON; with --complete, default: FILE)");
  auto* csv = app.add_option("--csv", options.csv, "Long-format CSV of every point (default: OUTPUT with .csv)");
  auto* report = app.add_option("--report", options.report, "Markdown report (default: OUTPUT with .md)");
  auto* name = app.add_option("--name", options.name, "The profile's device name (default: the GPU's name)");
  app.add_option("--complete", options.complete,
                 "Run only the benches whose keys this device profile (FILE, written by roofcast bench on this GPU) "
                 "lacks, and write it completed")
      ->excludes(csv)
      ->excludes(report)
      ->excludes(name);
  app.footer(kExitStatusHelp);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? 0 : 2;  // usage errors exit 2, as roofcast's do
  }
  if (options.output.empty() && options.complete.empty()) {
    std::cerr << "roofcast-bench: --output is required (or --complete FILE)\n";
    return 2;
  }
  if (options.csv.empty()) options.csv = with_extension(options.output, ".csv").string();
  if (options.report.empty()) options.report = with_extension(options.output, ".md").string();
  try {
    return options.complete.empty() ? run(options, argc, argv) : complete(options, argc, argv);
  } catch (const std::exception& error) {
    const char* invoked_as = std::getenv("ROOFCAST_INVOKED_AS");
    std::cerr << (invoked_as ? invoked_as : "roofcast-bench") << ": " << error.what() << "\n";
    return 1;
  }
}
