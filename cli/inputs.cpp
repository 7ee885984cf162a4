#include "inputs.hpp"

#include <charconv>
#include <cmath>
#include <filesystem>
#include <memory>
#include <map>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofcast/data/bundled_data.hpp"
#include "roofcast/data/device_catalog.hpp"
#include "roofcast/data/device_files.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/model/for_each_parallel.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/model/predictor.hpp"

namespace roofcast {

namespace {
bool looks_like_path(const std::string& text) {
  return text.find('/') != std::string::npos || text.ends_with(".json") || std::filesystem::exists(text);
}

std::vector<DeviceProfile> default_devices(DefaultDevices defaults) {
  if (defaults == DefaultDevices::bundled) return bundled_devices();
  std::vector<DeviceProfile> devices = current_devices();
  if (defaults == DefaultDevices::costing_everything &&
      std::any_of(devices.begin(), devices.end(), [](const auto& d) { return !d.transfers.empty(); }))
    std::erase_if(devices, [](const auto& d) { return d.transfers.empty(); });
  return devices;
}
}  // namespace

DeviceProfile load_device(const std::string& name_or_file, const std::string& option) {
  if (looks_like_path(name_or_file)) {
    DeviceProfile device = read_device_profile_file(name_or_file);
    device.id = std::filesystem::path(name_or_file).stem().string();
    return device;
  }
  return find_device(name_or_file, option);
}

KernelProfile load_profile(const std::string& name_or_file) {
  if (looks_like_path(name_or_file)) return parse_kernel_profile(TextFile(name_or_file).text(), printable(name_or_file));
  if (auto profile = find_bundled_profile(name_or_file)) return *profile;
  throw InputError(fmt::format("--profile {}: unknown profile: not a file and not a bundled profile ({})",
                               printable(name_or_file), fmt::join(bundled_profile_ids(), ", ")));
}

std::vector<DeviceProfile> load_devices(const std::vector<std::string>& names_or_files, bool all_devices,
                                        DefaultDevices defaults) {
  std::vector<DeviceProfile> devices;
  if (all_devices) devices = current_devices();
  else if (names_or_files.empty()) devices = default_devices(defaults);
  std::map<std::string, std::string> given_as;  // id -> the argument that first gave it
  for (const auto& device : devices) given_as.emplace(device.id, device.id);
  // Read on every core (ten measured profiles take ~20 ms one after another); an error is the
  // first argument's that has one, as when they were read in turn.
  std::vector<DeviceProfile> loaded(names_or_files.size());
  for_each_parallel(names_or_files.size(), [&](size_t i) { loaded[i] = load_device(names_or_files[i]); });
  for (size_t i = 0; i < loaded.size(); ++i) {
    const std::string& name = names_or_files[i];
    const auto [first, added] = given_as.emplace(loaded[i].id, name);
    if (!added && first->second != name) loaded[i].id = name;  // another file of the same name: its path
    devices.push_back(std::move(loaded[i]));
  }
  return devices;
}

std::vector<DeviceProfile> with_distinct_names(std::vector<DeviceProfile> devices) {
  std::map<std::string, int> uses;
  for (const auto& device : devices) ++uses[device.name];
  for (auto& device : devices)
    if (uses[device.name] > 1 && !device.id.empty()) device.name = fmt::format("{} [{}]", device.name, device.id);
  return devices;
}

std::string devices_option_help(const std::string& what, DefaultDevices defaults) {
  return fmt::format("{}: an id, name or short name `roofcast devices` lists (H100, h200-mps25), or a device-profile "
                     "file; repeatable (default: {})",
                     what,
                     defaults == DefaultDevices::current ? "every current device `roofcast devices` lists"
                     : defaults == DefaultDevices::bundled
                         ? "the six thesis GPUs bundled in roofcast"
                         : "every current device whose profile costs copies: the GPUs measured by roofcast bench");
}

std::vector<std::string> pipes_term_list() {
  std::vector<std::string> names;
  for (const auto& term : pipes_term_names()) names.emplace_back(term.name);
  return names;
}

CLI::Validator whole_number(double min, double max) {
  const std::string expected = fmt::format("a whole number from {:.15g} to {:.15g}", min, max);
  return CLI::Validator(
      [min, max, expected](std::string& text) -> std::string {
        double value = 0;
        const char* end = text.data() + text.size();
        // from_chars alone would take "inf", "nan" and a leading minus.
        const bool digit_first = !text.empty() && text[0] >= '0' && text[0] <= '9';
        const auto [stop, error] = std::from_chars(text.data(), end, value, std::chars_format::general);
        if (!digit_first || error != std::errc() || stop != end || value != std::floor(value) || value < min ||
            value > max)
          return fmt::format("expected {}, found \"{}\"", expected, printable(text));
        text = fmt::format("{:.0f}", value);
        return "";
      },
      expected);
}

void add_model_option(CLI::App& command, std::string& model) {
  model = kDefaultModel;
  command
      .add_option("--model", model,
                  "Prediction model: pipes (the multi-pipeline model, docs/pipes-model.md; the default), thesis "
                  "(Konstantinidis 2017; README.md, \"The model\"), or \"pipes without TERM, ...\" (as --ablate TERM)")
      ->check(
          [](const std::string& name) {
            try {
              make_predictor(name);
              return std::string();
            } catch (const std::invalid_argument& error) {
              return std::string(error.what());
            }
          },
          "pipes, thesis or \"pipes without TERM, ...\"");
  // Once parsed, --model pipes --ablate T becomes the model "pipes without T", the name
  // make_predictor takes and every output gives the model, so each figure says what it left out.
  auto terms_off = std::make_shared<std::vector<std::string>>();
  add_ablate_option(command, *terms_off);
  command.parse_complete_callback([&model, terms_off] {
    if (terms_off->empty()) return;
    if (model != "pipes")
      throw CLI::ValidationError("--ablate", "switches off terms of --model pipes, not of --model " + model);
    model = pipes_model_without(*terms_off);
  });
}

void add_ablate_option(CLI::App& command, std::vector<std::string>& terms_off) {
  const auto terms = pipes_term_list();
  command
      .add_option("--ablate", terms_off,
                  fmt::format("Switch off a term of the pipes model (repeatable): {}; docs/pipes-model.md. "
                              "`--ablate reference-time` predicts without the reference GPU's measured times",
                              fmt::join(terms, ", ")))
      ->check(CLI::IsMember(terms))
      ->type_name("TERM");
}

void add_format_option(CLI::App& command, std::string& format, const std::vector<std::string>& formats) {
  format = formats.front();
  command.add_option("--format", format, fmt::format("Output format: {} (default {})", fmt::join(formats, ", "), formats.front()))
      ->check(CLI::IsMember(formats));
}

}  // namespace roofcast
