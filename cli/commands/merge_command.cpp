// `roofcast merge A.json B.json ... -o M.json`: the per-process profiles of one application
// (MPI ranks, workers; `roofcast profile --output app.%q{OMPI_COMM_WORLD_RANK}.json`) as one.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/json_text.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/profiler/profile_merge.hpp"

namespace roofcast {

namespace {

struct MergeOptions {
  std::vector<std::string> files;
  std::string output;
};

void run_merge(const MergeOptions& options) {
  if (!options.output.empty() && options.output != "-") check_replaceable(options.output);
  const std::vector<std::string> labels = profiler::merge_labels(options.files);
  std::vector<profiler::ProfileToMerge> inputs;
  for (size_t i = 0; i < options.files.size(); ++i)
    inputs.push_back({labels[i], printable(options.files[i]), read_text_file(options.files[i])});
  const nlohmann::json merged = profiler::merge_profiles(inputs);
  const std::string text = json_text(merged);
  const KernelProfile parsed = parse_kernel_profile(text, options.output.empty() ? "merged profile" : options.output);
  if (options.output.empty() || options.output == "-") {
    std::cout << text;
    return;
  }
  write_file_atomically(options.output, text);
  std::cerr << fmt::format("roofcast merge: {} kernels of {} profiles -> {}\n", parsed.kernels.size(), inputs.size(),
                           printable(options.output));
}

}  // namespace

void add_merge_command(CLI::App& app) {
  auto options = std::make_shared<MergeOptions>();
  CLI::App* command = app.add_subcommand(
      "merge", "Merge per-process kernel profiles (MPI ranks, workers) into one: roofcast merge A.json B.json -o M.json");
  command->add_option("profiles", options->files, "Kernel profiles, one per process")->required();
  command->add_option("-o,--output", options->output, "The merged profile (default: standard output)");
  command->callback([options] { run_merge(*options); });
}

}  // namespace roofcast
