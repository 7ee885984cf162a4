#include <iostream>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "inputs.hpp"
#include "output/pipes_output.hpp"
#include "output/prediction_output.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/model/device_rates.hpp"
#include "roofcast/model/kernel_work.hpp"
#include "roofcast/model/profile_prediction.hpp"

namespace roofcast {

namespace {

struct PredictOptions {
  std::string profile;
  std::vector<std::string> devices;
  bool all_devices = false;
  bool utilization_correction = false;
  std::string reference_device;
  std::string format = "table";
  std::string model = "pipes";
};

DeviceProfile reference_device_for(const KernelProfile& profile, const PredictOptions& options,
                                   const std::vector<DeviceProfile>& devices) {
  if (!options.reference_device.empty()) return load_device(options.reference_device);
  if (profile.reference_device.empty())
    throw InputError(fmt::format("{}: reference_device: missing, needed by --utilization-correction "
                                 "(or give --reference-device)",
                                 options.profile));
  for (const auto& device : devices) {
    if (device.name == profile.reference_device) return device;
  }
  try {
    return load_device(profile.reference_device);
  } catch (const InputError&) {
    throw InputError(fmt::format("{}: reference_device: \"{}\" is not a bundled device; give its profile "
                                 "with --reference-device for --utilization-correction",
                                 options.profile, profile.reference_device));
  }
}

// Predictions go to the printer as they are made: a million of them (100,000 kernels x 10
// devices) are never held at once. Each kernel's work and each device's rates are worked out once.
void run_predict_pipes(const KernelProfile& profile, const std::vector<DeviceProfile>& devices,
                       const DeviceProfile* reference, const PredictOptions& options) {
  if (options.format == "table")
    std::cout << fmt::format("Profile {} ({} kernels, reference device {}), model: pipes\n\n", printable(options.profile),
                             profile.kernels.size(),
                             profile.reference_device.empty() ? "unknown" : printable(profile.reference_device));
  const auto printer = pipes_printer(options.format, std::cout, printable(options.profile));
  std::vector<DeviceRates> rates;
  for (const auto& device : devices) rates.push_back(device_rates_of(device));
  for (const auto& kernel : profile.kernels) {
    const KernelWork work = kernel_work_of(kernel);
    for (size_t d = 0; d < devices.size(); ++d) {
      const DeviceProfile& device = devices[d];
      PipesKernelPrediction p{kernel.name, device.name, predict_pipes(kernel, work, device, rates[d]),
                              measured_on(kernel, device.name, profile.reference_device), std::nullopt};
      if (reference && kernel.measured_ms)
        p.corrected_ms = calibrated_pipes_ms(kernel, device, *reference, *kernel.measured_ms);
      printer->add(p);
    }
  }
  printer->finish();
}

void run_predict(const PredictOptions& options) {
  const KernelProfile profile = load_profile(options.profile);
  const std::vector<DeviceProfile> devices = load_devices(options.devices, options.all_devices);
  std::unique_ptr<DeviceProfile> reference;
  if (options.utilization_correction)
    reference = std::make_unique<DeviceProfile>(reference_device_for(profile, options, devices));
  if (options.model == "pipes") return run_predict_pipes(profile, devices, reference.get(), options);

  if (options.format == "table")
    std::cout << fmt::format("Profile {} ({} kernels, reference device {}), model: {}\n\n", printable(options.profile),
                             profile.kernels.size(),
                             profile.reference_device.empty() ? "unknown" : printable(profile.reference_device), options.model);
  const auto printer = prediction_printer(options.format, std::cout, printable(options.profile), reference != nullptr);
  const std::vector<DeviceTotal> totals =
      predict_profile(profile, devices, reference.get(), [&](KernelPrediction&& p) { printer->add(p); });
  printer->finish(totals);
}

}  // namespace

void add_predict_command(CLI::App& app) {
  auto options = std::make_shared<PredictOptions>();
  CLI::App* command = app.add_subcommand("predict", "Predict kernel runtimes on target devices");
  command->add_option("--profile", options->profile, "Kernel profile: a file, or a bundled profile's name")
      ->required();
  command->add_option("--device", options->devices,
                      "Target device: a bundled device's name or a device-profile file (repeatable; "
                      "default: every bundled device)");
  command->add_flag("--all-devices", options->all_devices, "Predict on every bundled device");
  command->add_flag("--utilization-correction", options->utilization_correction,
                    "Scale predictions by measured/predicted time on the reference device (thesis eq. 5.13; "
                    "with --model pipes, the model's own calibration)");
  command->add_option("--reference-device", options->reference_device,
                      "Device profile of the profile's reference device, for --utilization-correction "
                      "(default: the bundled device the profile names)");
  command->add_option("--format", options->format, "Output format")
      ->check(CLI::IsMember({"table", "json", "csv"}));
  command->add_option("--model", options->model,
                      "Prediction model: thesis (Konstantinidis 2017, the default), or pipes (the multi-pipeline "
                      "model, docs/pipes-model.md)")
      ->check(CLI::IsMember({"thesis", "pipes"}));
  command->callback([options] { run_predict(*options); });
}

}  // namespace roofcast
