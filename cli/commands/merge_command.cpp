// `roofcast merge A.json B.json ... -o M.json`: the per-process profiles of one application
// (MPI ranks, workers; `roofcast profile --output app.%q{OMPI_COMM_WORLD_RANK}.json`) as one.
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/profiler/profile_merge.hpp"

namespace roofcast {

namespace {

struct MergeOptions {
  std::vector<std::string> files;
  std::string output;
};

// The merged profile must not replace one of its inputs (a second merge would then label
// that input's kernels twice).
void check_output_is_no_input(const MergeOptions& options) {
  for (const auto& file : options.files) {
    std::error_code error;
    if (std::filesystem::equivalent(options.output, file, error))
      throw InputError(fmt::format("merge: -o {} is also an input ({}): the merged profile would replace it; give "
                                   "another file",
                                   printable(options.output), printable(file)));
  }
}

void run_merge(const MergeOptions& options) {
  const bool to_file = !options.output.empty() && options.output != "-";
  if (to_file) {
    check_replaceable(options.output);
    check_output_is_no_input(options);
  }
  const std::vector<std::string> labels = profiler::merge_labels(options.files);
  size_t kernels = 0;
  OutputFiles outputs;
  // Each input is read, merged and dropped in turn: two profiles of a million kernels never
  // need more than one at a time in memory.
  outputs.add(to_file ? options.output : "-", [&](const OutputFiles::Write& write) {
    profiler::ProfileMerger merger(write);
    for (size_t i = 0; i < options.files.size(); ++i) {
      const TextFile file(options.files[i]);
      merger.add({labels[i], printable(options.files[i]), file.text()});
    }
    merger.finish();
    kernels = merger.kernel_count();
  });
  outputs.commit();
  if (to_file)
    std::cerr << fmt::format("roofcast merge: {} kernels of {} profiles -> {}\n", kernels, options.files.size(),
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
