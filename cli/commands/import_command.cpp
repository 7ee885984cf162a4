// `roofcast import ncu|nvprof FILE.csv`: a kernel profile from another profiler's CSV output.
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/json_text.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/profiler/importers.hpp"

namespace roofcast {

namespace {

struct ImportOptions {
  std::string tool;
  std::string file;
  std::string output;
  std::string device;
};

void run_import(const ImportOptions& options) {
  const std::string text = read_text_file(options.file);
  const std::string source = printable(options.file);  // for messages and the profile's "importer"
  const nlohmann::json profile = options.tool == "ncu" ? profiler::import_ncu_csv(text, source, options.device)
                                                       : profiler::import_nvprof_csv(text, source, options.device);
  // What the importer could not take over (a kernel without its measured time) is in the
  // profile's notes, and said here.
  for (const auto& note : profile.value("notes", nlohmann::json::array()))
    std::cerr << fmt::format("roofcast import: warning: {}\n", printable(note.get<std::string>()));
  const std::string json = json_text(profile);
  // The result must be a profile roofcast reads: a missing thesis counter is named here.
  const KernelProfile parsed = parse_kernel_profile(json, source);
  if (options.output.empty()) {
    std::cout << json;
    return;
  }
  write_file_atomically(options.output, json);
  std::cerr << fmt::format("roofcast import: {} kernels from {} -> {}\n", parsed.kernels.size(), source,
                           printable(options.output));
}

}  // namespace

void add_import_command(CLI::App& app) {
  auto options = std::make_shared<ImportOptions>();
  CLI::App* command = app.add_subcommand(
      "import", "Convert another profiler's CSV to a kernel profile: roofcast import ncu|nvprof FILE.csv");
  command->add_option("tool", options->tool, "ncu (ncu --csv --page raw) or nvprof (nvprof --csv --metrics)")
      ->required()
      ->check(CLI::IsMember({"ncu", "nvprof"}));
  command->add_option("file", options->file, "The CSV file")->required();
  command->add_option("-o,--output", options->output, "Write the profile here (default: standard output)");
  command->add_option("--device-name", options->device, "reference_device to record (default: from the CSV)");
  command->callback([options] { run_import(*options); });
}

}  // namespace roofcast
