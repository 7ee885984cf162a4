#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands/commands.hpp"
#include "inputs.hpp"
#include "missing_bench_keys.hpp"
#include "roofcast/output/markdown.hpp"
#include "roofcast/output/table.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/json_text.hpp"
#include "roofcast/formats/kernel_lookup.hpp"
#include "roofcast/formats/kernel_name_text.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/model/predictor.hpp"
#include "roofcast/model/work_split.hpp"

namespace roofcast {

namespace {

struct SplitOptions {
  std::string profile;
  std::string kernel;
  std::vector<std::string> devices;
  bool all_devices = false;
  long long blocks = 0;
  std::string format;
  std::string model;
};

// Times are totals over the kernel's profiled launches (`invocations`); "_per_launch" divides them.
nlohmann::json split_json(const WorkSplit& split, const SplitOptions& options, const KernelRecord& kernel,
                          const std::vector<DeviceProfile>& profiles, const std::vector<std::string>& notes) {
  const auto per_launch = [&](double ms) { return ms / static_cast<double>(std::max<int64_t>(kernel.invocations, 1)); };
  nlohmann::json devices = nlohmann::json::array();
  for (size_t i = 0; i < split.devices.size(); ++i) {
    const DeviceShare& d = split.devices[i];
    devices.push_back({{"device", d.device}, {"device_id", profiles[i].id}, {"alone_ms", d.alone_ms},
                       {"alone_ms_per_launch", per_launch(d.alone_ms)}, {"sm_count", d.sm_count},
                       {"ideal_share", d.ideal_share}, {"blocks", d.blocks}, {"rounded_ms", d.rounded_ms},
                       {"rounded_ms_per_launch", per_launch(d.rounded_ms)}});
  }
  return {{"format", "roofcast-split"}, {"version", 1},          {"model", options.model},
          {"profile", printable(options.profile)}, {"kernel", kernel.name}, {"invocations", kernel.invocations},
          {"total_blocks", split.total_blocks},
          {"devices", devices},          {"fastest_alone_ms", split.fastest_alone_ms},
          {"ideal_ms", split.ideal_ms},  {"rounded_ms", split.rounded_ms},
          {"ideal_gain", split.ideal_gain}, {"warnings", split.warnings}, {"notes", notes}};
}

void run_split(const SplitOptions& options) {
  const KernelProfile profile = load_profile(options.profile);
  const KernelRecord* kernel = &find_kernel(profile, options.kernel, options.profile);
  const std::vector<DeviceProfile> devices = load_devices(options.devices, options.all_devices);
  if (devices.size() < 2) throw UsageError("--device: give at least two devices to split work across");

  long long blocks = options.blocks;
  if (blocks == 0) {
    if (kernel->launch_shapes.size() != 1)
      throw InputError(fmt::format("--blocks: {} records {} launch shapes of {}; give the grid size to split with --blocks",
                                   printable(options.profile), kernel->launch_shapes.size(),
                                   printable(shortened_kernel_name(kernel->name))));
    blocks = static_cast<long long>(kernel->launch_shapes.front().blocks());
  }
  const std::shared_ptr<const Predictor> predictor = make_predictor(options.model);
  std::vector<DeviceTime> times;
  for (const auto& device : devices) {
    const ModelPrediction prediction = predictor->predict(*kernel, device);
    if (prediction.predicted_ms <= 0)
      throw InputError(fmt::format("kernel \"{}\" on device \"{}\": predicted time 0 ms, nothing to split",
                                   printable(kernel->name), printable(device.name)));
    times.push_back({device.name, prediction.predicted_ms, device.sm_count});
  }
  const WorkSplit split = split_work(times, blocks);

  Table table;
  table.columns = {{"device", false}, {"id", false}, {"alone ms total"}, {"SMs"}, {"ideal share %"}, {"blocks"},
                   {"its part ms total"}};
  for (size_t i = 0; i < split.devices.size(); ++i) {
    const DeviceShare& d = split.devices[i];
    table.add_row({d.device, devices[i].id, fmt::format("{:.3f}", d.alone_ms),
                   d.sm_count > 0 ? fmt::format("{}", d.sm_count) : "?", fmt::format("{:.2f}", 100 * d.ideal_share),
                   fmt::format("{}", d.blocks), fmt::format("{:.3f}", d.rounded_ms)});
  }
  if (options.format != "json") warn_missing_bench_keys(devices, options.model);  // JSON: its notes
  if (options.format == "json") {
    std::cout << json_text(split_json(split, options, *kernel, devices, missing_bench_key_notes(devices, options.model)));
  } else if (options.format == "csv") {
    std::cout << render_csv(table);
  } else if (options.format == "markdown") {
    std::cout << render_markdown(table);
  } else {
    std::cout << fmt::format("Kernel {} split into {} blocks; times in ms are totals over its {} profiled launches\n\n",
                             printable(shortened_kernel_name(kernel->name)), split.total_blocks, kernel->invocations)
              << render_text(table)
              << fmt::format("\nfastest device alone {:.3f} ms; ideal split {:.3f} ms ({:.1f} % gain); "
                             "rounded to blocks {:.3f} ms (totals; per launch {:.4f} ms)\n",
                             split.fastest_alone_ms, split.ideal_ms, 100 * split.ideal_gain, split.rounded_ms,
                             split.rounded_ms / static_cast<double>(std::max<int64_t>(kernel->invocations, 1)));
  }
  for (const auto& warning : split.warnings) std::cerr << "roofcast: warning: " << printable(warning) << "\n";
}

}  // namespace

void add_split_command(CLI::App& app) {
  auto options = std::make_shared<SplitOptions>();
  CLI::App* command =
      app.add_subcommand("split", "Split a kernel's independent blocks across devices in proportion to their speed");
  command->add_option("--profile", options->profile, "Kernel profile: a file, or a bundled profile's name")
      ->required();
  command->add_option("--kernel", options->kernel, kKernelOptionHelp);
  command->add_option("--device", options->devices, devices_option_help("Device"));
  command->add_flag("--all-devices", options->all_devices, kAllDevicesHelp);
  command->add_option("--blocks", options->blocks,
                      "Thread blocks of the kernel (its grid size; default: the grid the profile recorded)")
      ->transform(whole_number(1, 1e15));
  add_format_option(*command, options->format, {"table", "csv", "json", "markdown"});
  add_model_option(*command, options->model);
  command->callback([options] { run_split(*options); });
}

}  // namespace roofcast
