#include "inputs.hpp"

#include <filesystem>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "roofcast/data/bundled_data.hpp"
#include "roofcast/data/device_files.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/model/predictor.hpp"

namespace roofcast {

namespace {
bool looks_like_path(const std::string& text) {
  return text.find('/') != std::string::npos || text.ends_with(".json") || std::filesystem::exists(text);
}
}  // namespace

DeviceProfile load_device(const std::string& name_or_file) {
  if (looks_like_path(name_or_file)) return read_device_profile_file(name_or_file);
  if (auto device = find_named_device(name_or_file)) return *device;
  throw InputError(fmt::format("--device {}: unknown device: not a file, not a bundled device and not a device profile "
                               "of the data folders (`roofcast devices` lists them)",
                               printable(name_or_file)));
}

KernelProfile load_profile(const std::string& name_or_file) {
  if (looks_like_path(name_or_file)) return parse_kernel_profile(TextFile(name_or_file).text(), printable(name_or_file));
  if (auto profile = find_bundled_profile(name_or_file)) return *profile;
  throw InputError(fmt::format("--profile {}: unknown profile: not a file and not a bundled profile ({})",
                               printable(name_or_file), fmt::join(bundled_profile_ids(), ", ")));
}

std::vector<DeviceProfile> load_devices(const std::vector<std::string>& names_or_files, bool all_bundled) {
  std::vector<DeviceProfile> devices;
  if (all_bundled || names_or_files.empty()) devices = bundled_devices();
  for (const auto& name : names_or_files) devices.push_back(load_device(name));
  return devices;
}

void add_model_option(CLI::App& command, std::string& model) {
  model = kDefaultModel;
  command
      .add_option("--model", model,
                  fmt::format("Prediction model: pipes (the multi-pipeline model, docs/pipes-model.md; the default) or "
                              "thesis (Konstantinidis 2017, docs/model.md)"))
      ->check(CLI::IsMember(model_names()));
}

void add_format_option(CLI::App& command, std::string& format, const std::vector<std::string>& formats) {
  format = formats.front();
  command.add_option("--format", format, fmt::format("Output format: {} (default {})", fmt::join(formats, ", "), formats.front()))
      ->check(CLI::IsMember(formats));
}

}  // namespace roofcast
