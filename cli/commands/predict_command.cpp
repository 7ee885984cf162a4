#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "inputs.hpp"
#include "missing_bench_keys.hpp"
#include "roofcast/data/device_catalog.hpp"
#include "roofcast/output/prediction_output.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/model/device_name.hpp"
#include "roofcast/model/prediction_stream.hpp"
#include "roofcast/model/predictor.hpp"

namespace roofcast {

namespace {

struct PredictOptions {
  std::string profile;
  std::vector<std::string> devices;
  bool all_devices = false;
  bool utilization_correction = false;
  std::string reference_device;
  std::string format;
  std::string model;
};

DeviceProfile reference_device_for(const KernelProfile& profile, const PredictOptions& options,
                                   const std::vector<DeviceProfile>& devices) {
  if (!options.reference_device.empty()) return load_device(options.reference_device, "--reference-device");
  if (profile.reference_device.empty())
    throw InputError(fmt::format("{}: reference_device: missing, needed by --utilization-correction "
                                 "(or give --reference-device)",
                                 options.profile));
  for (const auto& device : devices) {
    if (same_device_name(device.name, profile.reference_device)) return device;
  }
  try {
    return find_device(profile.reference_device, "reference_device");
  } catch (const InputError& error) {
    throw InputError(fmt::format("{}: {} (needed by --utilization-correction: give its profile with "
                                 "--reference-device)",
                                 printable(options.profile), error.what()));
  }
}

// Predictions go to the printer as they are made: a million of them (100,000 kernels x 10
// devices) are never held at once.
void run_predict(const PredictOptions& options) {
  const std::shared_ptr<const Predictor> predictor = make_predictor(options.model);
  const KernelProfile profile = load_profile(options.profile);
  const std::vector<DeviceProfile> devices = load_devices(options.devices, options.all_devices);
  std::unique_ptr<DeviceProfile> reference;
  if (options.utilization_correction)
    reference = std::make_unique<DeviceProfile>(reference_device_for(profile, options, devices));

  // JSON: in each prediction's notes.
  if (options.format != "json") warn_missing_bench_keys(devices, options.model);
  if (options.format == "table" || options.format == "markdown")
    std::cout << fmt::format("Profile {} ({} kernels, reference device {}), model: {}\n"
                             "Times in ms, each the total over the kernel's profiled launches (JSON and CSV: "
                             "per launch too)\n\n",
                             printable(options.profile), profile.kernels.size(),
                             profile.reference_device.empty() ? "unknown" : printable(profile.reference_device),
                             options.model);
  const auto printer =
      prediction_printer(options.format, std::cout, printable(options.profile), options.model, reference != nullptr);
  printer->finish(stream_predictions(*predictor, profile, devices, reference.get(), *printer));
}

}  // namespace

void add_predict_command(CLI::App& app) {
  auto options = std::make_shared<PredictOptions>();
  CLI::App* command = app.add_subcommand("predict", "Predict kernel runtimes on target devices");
  command->add_option("--profile", options->profile, "Kernel profile: a file, or a bundled profile's name")
      ->required();
  command->add_option("--device", options->devices, devices_option_help("Target device"));
  command->add_flag("--all-devices", options->all_devices, kAllDevicesHelp);
  command->add_flag("--utilization-correction", options->utilization_correction,
                    "Scale predictions by measured/predicted time on the reference device (thesis eq. 5.13; "
                    "with --model pipes, the model's own calibration, applied only where the target has the reference's "
                    "SM count and limiter: not on MPS partitions)");
  command->add_option("--reference-device", options->reference_device,
                      "Device profile of the profile's reference device, for --utilization-correction "
                      "(default: the device the profile names, as --device takes names)");
  add_format_option(*command, options->format, {"table", "csv", "json", "markdown"});
  add_model_option(*command, options->model);
  command->callback([options] { run_predict(*options); });
}

}  // namespace roofcast
