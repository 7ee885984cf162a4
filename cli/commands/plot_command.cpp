// `roofcast plot roofline|quadrant|accuracy`: draws a chart with gnuplot from a data file
// and a script that are kept beside it.
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "inputs.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/kernel_lookup.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/formats/validation_json.hpp"
#include "roofcast/plots/accuracy_chart.hpp"
#include "roofcast/plots/quadrant_chart.hpp"
#include "roofcast/plots/render_chart.hpp"
#include "roofcast/plots/roofline_chart.hpp"
#include "roofcast/plots/validation_entries.hpp"
#include "roofcast/model/device_name.hpp"
#include "roofcast/model/predictor.hpp"
#include "roofcast/model/profile_prediction.hpp"

namespace roofcast {

namespace {

struct PlotOptions {
  std::string output;
  std::string profile;
  std::string device;                // roofline: one
  std::vector<std::string> devices;  // quadrant, accuracy: several
  std::string kernel;
  std::string validation;
  bool linear = false;
  std::string model;
};

ChartTarget target_for(const std::string& output) {
  const std::filesystem::path path(output);
  const auto target = chart_target_for(path.filename().string());
  if (!target)
    throw InputError(fmt::format("--output {}: unknown chart format \"{}\": use .svg, .png or .pdf", output,
                                 path.extension().string()));
  return *target;
}

void draw(const GnuplotChart& chart, const std::string& output) {
  const auto folder = std::filesystem::path(output).parent_path();
  render_chart(chart, folder.empty() ? std::filesystem::path(".") : folder);
  std::cout << printable(fmt::format("wrote {} (data: {}, gnuplot script: {})", (folder / chart.chart_file_name).string(),
                                     (folder / chart.data_file_name).string(),
                                     (folder / chart.script_file_name).string()))
            << "\n";
}

void run_roofline(const PlotOptions& options) {
  const DeviceProfile device = load_device(options.device);
  std::optional<KernelProfile> profile;
  if (!options.profile.empty()) profile = load_profile(options.profile);
  const std::string output =
      options.output.empty() ? fmt::format("roofline-{}.svg", file_name_part(device.name)) : options.output;
  const std::string profile_label = std::filesystem::path(options.profile).stem().string();
  draw(roofline_chart(device, profile ? &*profile : nullptr, profile_label, target_for(output),
                     *make_predictor(options.model)),
       output);
}

void run_quadrant(const PlotOptions& options) {
  const KernelProfile profile = load_profile(options.profile);
  const KernelRecord* kernel = &find_kernel(profile, options.kernel, options.profile);
  const std::vector<DeviceProfile> devices =
      with_distinct_names(load_devices(options.devices, false, DefaultDevices::bundled));
  const std::string output =
      options.output.empty() ? fmt::format("quadrant-{}.svg", file_name_part(kernel->name)) : options.output;
  draw(quadrant_chart(*kernel, devices, target_for(output), *make_predictor(options.model),
                     options.linear ? QuadrantScale::linear : QuadrantScale::log),
       output);
}

void run_accuracy(const PlotOptions& options) {
  if (options.validation.empty() == options.profile.empty())
    throw UsageError("plot accuracy: give either --validation FILE (from roofcast validate) or --profile P (a profile "
                     "with measured times)");
  std::vector<AccuracyEntry> entries;
  std::string source_note, model = options.model;
  if (!options.validation.empty()) {
    // The file's own model, whatever --model says.
    ValidationFile file = parse_validation_file(read_text_file(options.validation), printable(options.validation));
    entries = std::move(file.entries);
    model = std::move(file.model);
    source_note = fmt::format("from {}", std::filesystem::path(options.validation).filename().string());
  } else {
    const KernelProfile profile = load_profile(options.profile);
    const std::vector<DeviceProfile> devices = load_devices(options.devices, false, DefaultDevices::bundled);
    // The utilization correction needs the reference device; it is optional here.
    const DeviceProfile* reference = nullptr;
    for (const auto& device : devices)
      if (same_device_name(device.name, profile.reference_device)) reference = &device;
    entries = validation_entries_from(predict_profile(*make_predictor(options.model), profile, devices, reference));
    if (entries.empty())
      throw InputError(fmt::format("--profile {}: no kernel has a measured time on any of the devices, nothing to "
                                   "compare (measured_ms / measured_ms_by_device)",
                                   options.profile));
    source_note = fmt::format("stored in profile {} (not a roofcast validate run)",
                              std::filesystem::path(options.profile).stem().string());
  }
  const std::string output = options.output.empty() ? "accuracy.svg" : options.output;
  draw(accuracy_chart(entries, source_note, target_for(output), model), output);
}

}  // namespace

void add_plot_command(CLI::App& app) {
  auto options = std::make_shared<PlotOptions>();
  CLI::App* plot = app.add_subcommand("plot", "Draw a chart (gnuplot; the data and script are kept beside it)");
  plot->require_subcommand(1);
  const std::string output_help = "Chart file: .svg, .png or .pdf; NAME.dat and NAME.gp are written beside it";

  CLI::App* roofline = plot->add_subcommand("roofline", "A device's roofline, with a profile's kernels as points");
  roofline->add_option("--device", options->device,
                       "Device: an id, name or short name `roofcast devices` lists (H100, h200-mps25), or a "
                       "device-profile file")
      ->required();
  roofline->add_option("--profile", options->profile, "Kernel profile whose kernels are drawn (file or bundled name)");
  roofline->add_option("--output,-o", options->output, output_help + " (default: roofline-DEVICE.svg)");
  add_model_option(*roofline, options->model);
  roofline->callback([options] { run_roofline(*options); });

  CLI::App* quadrant = plot->add_subcommand("quadrant", "Quadrant-split chart of one kernel on many devices");
  quadrant->add_option("--profile", options->profile, "Kernel profile (file or bundled name)")->required();
  quadrant->add_option("--kernel", options->kernel, kKernelOptionHelp);
  quadrant->add_option("--device", options->devices, devices_option_help("Device", DefaultDevices::bundled));
  quadrant->add_option("--output,-o", options->output, output_help + " (default: quadrant-KERNEL.svg)");
  quadrant->add_flag("--linear", options->linear,
                     "Linear axes with the kernel's line from the origin, as the thesis draws it (default: log-log)");
  add_model_option(*quadrant, options->model);
  quadrant->callback([options] { run_quadrant(*options); });

  CLI::App* accuracy = plot->add_subcommand("accuracy", "Predicted vs measured times and their error distribution");
  accuracy->add_option("--validation", options->validation, "Validation file written by `roofcast validate`");
  accuracy->add_option("--profile", options->profile,
                       "Instead of --validation: a kernel profile with measured times (measured_ms_by_device)");
  accuracy->add_option("--device", options->devices,
                       devices_option_help("With --profile: a device", DefaultDevices::bundled));
  accuracy->add_option("--output,-o", options->output, output_help + " (default: accuracy.svg)");
  add_model_option(*accuracy, options->model);
  accuracy->callback([options] { run_accuracy(*options); });
}

}  // namespace roofcast
