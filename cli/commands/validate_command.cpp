// `roofcast validate`: the model's predictions against measured kernel times, per device
// and overall, with and without the utilization correction (docs/validation.md).
#include <chrono>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands/commands.hpp"
#include "inputs.hpp"
#include "missing_bench_keys.hpp"
#include "roofcast/output/ablation_output.hpp"
#include "roofcast/output/validation_output.hpp"
#include "roofcast/data/bundled_data.hpp"
#include "roofcast/data/device_catalog.hpp"
#include "roofcast/formats/command_line.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/json_text.hpp"
#include "roofcast/formats/measured_json.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/formats/validation_json.hpp"
#include "roofcast/model/validation_join.hpp"

namespace roofcast {

namespace {

struct ValidateOptions {
  std::vector<std::string> profiles;
  std::vector<std::string> devices;
  bool all_devices = false;
  std::vector<std::string> measured;
  std::string reference_device;
  bool allow_missing = false;
  std::string output;
  std::string markdown;
  std::string model;
  std::string format;
  bool ablation = false;
};

// A kernel profile's measured times on its own reference device, as a run of that device:
// a profile taken on one GPU is then the measurement that validates predictions for it.
MeasuredRun run_of_profile(const std::string& text, const std::string& path) {
  const KernelProfile profile = parse_kernel_profile(text, path);
  if (profile.reference_device.empty())
    throw InputError(fmt::format("{}: reference_device: missing, needed to use this profile as --measured", path));
  MeasuredRun run;
  run.source = path;
  run.device = profile.reference_device;
  for (const auto& kernel : profile.kernels) {
    if (!kernel.measured_ms)
      throw InputError(fmt::format("{}: kernel \"{}\": no measured_ms, needed to use this profile as --measured",
                                   path, kernel.name));
    run.kernels.push_back({kernel.name, kernel.invocations, *kernel.measured_ms});
  }
  return run;
}

// "[DEVICE=]FILE": a measured-time file (or a kernel profile, for its measured times), and
// the device it was measured on when the file cannot tell (an MPS client reports the whole
// GPU's name).
MeasuredRun load_measured_run(const std::string& argument) {
  std::string path = argument, device_override;
  const auto equals = argument.find('=');
  if (equals != std::string::npos && !std::filesystem::exists(argument)) {
    device_override = argument.substr(0, equals);
    path = argument.substr(equals + 1);
  }
  const std::string text = read_text_file(path);
  const std::string source = printable(path);
  MeasuredRun run;
  if (text.find("\"roofcast-profile\"") != std::string::npos) {
    run = run_of_profile(text, source);
  } else {
    const MeasuredTimes times = parse_measured_times(text, source);
    run.source = source;
    run.device = times.device;
    for (const auto& k : times.kernels) run.kernels.push_back({k.name, k.invocations, k.measured_ms});
  }
  if (!device_override.empty()) run.device = device_override;
  return run;
}

// The reference device's profile, for the utilization correction: --reference-device, else
// the device the profiles name, among --device or bundled. Null (with a notice) when unknown.
std::unique_ptr<DeviceProfile> find_reference_device(const ValidateOptions& options, const std::string& name,
                                                     const std::vector<DeviceProfile>& devices) {
  if (!options.reference_device.empty())
    return std::make_unique<DeviceProfile>(load_device(options.reference_device, "--reference-device"));
  if (name.empty()) {
    std::cerr << "roofcast: note: the profiles name no reference device: accuracy with the utilization "
                 "correction is left out (give --reference-device)\n";
    return nullptr;
  }
  for (const auto& device : devices) {
    if (same_device_name(device.name, name)) return std::make_unique<DeviceProfile>(device);
  }
  try {
    return std::make_unique<DeviceProfile>(find_device(name, "reference device"));
  } catch (const InputError& error) {
    std::cerr << fmt::format("roofcast: note: {}: accuracy with the utilization correction is left out (give "
                             "--reference-device or --device)\n",
                             error.what());
    return nullptr;
  }
}

// Whether the profiles (on their reference device or measured_ms_by_device) or a --measured
// file hold a time measured on the device called `name`.
bool has_measured_time(const std::vector<SourcedProfile>& profiles, const std::vector<MeasuredRun>& runs,
                       const std::string& name) {
  for (const auto& run : runs)
    if (same_device_name(run.device, name)) return true;
  for (const auto& p : profiles)
    for (const auto& kernel : p.profile.kernels) {
      if (kernel.measured_ms && same_device_name(p.profile.reference_device, name)) return true;
      for (const auto& [device, ms] : kernel.measured_ms_by_device)
        if (same_device_name(device, name)) return true;
    }
  return false;
}

// The command line that reproduces this report, for its header.
std::string command_line(const ValidateOptions& o) {
  std::vector<std::string> words = {"roofcast", "validate"};
  auto add = [&](const std::string& flag, const std::vector<std::string>& values) {
    for (const auto& v : values) {
      words.push_back(flag);
      words.push_back(v);
    }
  };
  add("--reference-profile", o.profiles);
  add("--device", o.devices);
  if (o.all_devices) words.push_back("--all-devices");
  add("--measured", o.measured);
  if (!o.reference_device.empty()) add("--reference-device", {o.reference_device});
  if (o.allow_missing) words.push_back("--allow-missing");
  if (!o.output.empty()) add("--output", {o.output});
  if (!o.markdown.empty()) add("--markdown", {o.markdown});
  add("--model", {o.model});
  if (o.ablation) words.push_back("--ablation");
  return shell_command(words);
}

void run_validate(const ValidateOptions& options) {
  if (options.devices.empty() && !options.all_devices)
    throw UsageError("validate: give the devices to validate on with --device (repeatable) or --all-devices");

  std::vector<SourcedProfile> profiles;
  for (const auto& p : options.profiles) profiles.push_back({printable(p), load_profile(p)});
  std::vector<DeviceProfile> devices = load_devices(options.devices, options.all_devices);
  std::vector<MeasuredRun> runs;
  for (const auto& m : options.measured) runs.push_back(load_measured_run(m));
  // --all-devices: of every current device, those with a measured time to validate against.
  if (options.all_devices && options.devices.empty())
    std::erase_if(devices, [&](const DeviceProfile& device) { return !has_measured_time(profiles, runs, device.name); });

  std::string reference_name;
  for (const auto& p : profiles) {
    if (reference_name.empty()) reference_name = p.profile.reference_device;
  }
  const auto reference = find_reference_device(options, reference_name, devices);
  JoinOptions join_options;
  join_options.predictor = make_predictor(options.model);
  join_options.allow_missing = options.allow_missing;
  const JoinResult joined = join_predictions_with_measurements(profiles, devices, runs, reference.get(), join_options);
  if (joined.entries.empty()) throw InputError("validate: no kernel has a measured time on any device given");
  const ValidationReport report = summarize_validation(options.model, joined.reference_device, joined.entries);

  std::vector<AblationRow> ablation;
  if (options.ablation) {
    for (const auto& variant : ablation_variants()) {
      JoinOptions variant_options = join_options;
      variant_options.predictor = variant.predictor;
      const JoinResult variant_joined =
          join_predictions_with_measurements(profiles, devices, runs, reference.get(), variant_options);
      const ValidationReport r = summarize_validation(variant.name, variant_joined.reference_device, variant_joined.entries);
      std::vector<double> errors;
      for (const auto& e : r.entries) errors.push_back(e.error());
      ablation.push_back({variant.name, r.devices, r.overall, errors});
    }
  }

  // The devices' missing bench keys go into the report's notes (JSON and markdown) and, for the
  // table and markdown on the terminal, to stderr as warnings.
  std::vector<std::string> notes = missing_bench_key_notes(devices, options.model);
  notes.insert(notes.end(), joined.notes.begin(), joined.notes.end());
  const ValidationContext context{command_line(options), utc_time_text(std::chrono::system_clock::now(), TimeStyle::readable), joined.skipped, notes};
  // Both files are written, then both renamed into place: a failure on either changes neither.
  nlohmann::json document = to_json(report);
  document["generated"] = context.generated_utc;
  document["command"] = context.command;
  document["skipped"] = context.skipped;
  document["notes"] = context.notes;
  if (options.ablation) document["ablation"] = ablation_json(ablation);
  const std::string markdown =
      validation_markdown(report, context) + (options.ablation ? ablation_markdown(ablation) : "");
  OutputFiles outputs;
  if (!options.output.empty()) outputs.add(options.output, json_text(document));
  if (!options.markdown.empty()) outputs.add(options.markdown, markdown);
  outputs.commit();

  // With a file on standard output (-), the table goes to stderr.
  std::ostream& table = options.output == "-" || options.markdown == "-" ? std::cerr : std::cout;
  if (options.format != "json") warn_missing_bench_keys(devices, options.model);
  if (options.format == "json") {
    table << json_text(document);
  } else if (options.format == "markdown") {
    table << markdown;
  } else {
    table << validation_table_text(report);
    if (options.ablation) table << ablation_table_text(ablation);
  }
  for (const auto& s : joined.skipped) std::cerr << "roofcast: note: not measured, left out: " << printable(s) << "\n";
  for (const auto& n : joined.notes) std::cerr << "roofcast: note: " << printable(n) << "\n";
}

}  // namespace

void add_validate_command(CLI::App& app) {
  auto options = std::make_shared<ValidateOptions>();
  CLI::App* command =
      app.add_subcommand("validate", "Compare predictions with measured kernel times: APE per kernel and device");
  command->add_option("--reference-profile", options->profiles,
                      "Kernel profile taken on the reference device: a file or a bundled profile's name (repeatable)")
      ->required();
  command->add_option("--device", options->devices,
                      "Device to validate on: an id, name or short name `roofcast devices` lists (H100, h200-mps25), "
                      "or a device-profile file; repeatable");
  command->add_flag("--all-devices", options->all_devices,
                    "Every current device `roofcast devices` lists that the profiles or --measured files have "
                    "measured times for");
  command->add_option("--measured", options->measured,
                      "[DEVICE=]FILE: measured times of one device (roofcast profile --timing-only, or a kernel "
                      "profile taken there), named by the file or by DEVICE (repeatable); without it, the "
                      "profiles' own measured times");
  command->add_option("--reference-device", options->reference_device,
                      "Device profile of the reference device, for the utilization correction (default: the "
                      "--device, or the device `roofcast devices` lists, that the profiles name)");
  command->add_flag("--allow-missing", options->allow_missing,
                    "Leave out (kernel, device) pairs with no measured time instead of failing");
  command->add_option("--output", options->output,
                      "Write the validation JSON (roofcast-validation) to this file (-: standard output)");
  command->add_option("--markdown", options->markdown, "Write a markdown report to this file (-: standard output)");
  add_model_option(*command, options->model);
  add_format_option(*command, options->format, {"table", "json", "markdown"});
  command->add_flag("--ablation", options->ablation,
                    "Also score the thesis model, the pipes model, and the pipes model with each term switched off");
  command->callback([options] { run_validate(*options); });
}

}  // namespace roofcast
