#include "roofcast/data/spec_devices.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>

#include <fmt/format.h>

#include "roofcast/data/device_files.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/gpu_specs_json.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/printable_text.hpp"

namespace roofcast {

namespace {

constexpr std::string_view kPrefix = "spec:";

bool starts_with_ignoring_case(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() &&
         std::equal(prefix.begin(), prefix.end(), text.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
         });
}

}  // namespace

SpecInputs load_spec_inputs() {
  SpecInputs inputs;
  std::optional<std::filesystem::path> table_path;
  for (const auto& folder : data_folders())
    if (std::error_code error; std::filesystem::is_regular_file(folder / "specs" / "gpus.json", error)) {
      table_path = folder / "specs" / "gpus.json";
      break;
    }
  if (!table_path)
    throw InputError("no spec table: none of the data folders ($ROOFCAST_DATA_DIR, share/roofcast, the source tree's "
                     "data/) has specs/gpus.json");
  inputs.table = parse_gpu_spec_table(read_text_file(*table_path), printable(table_path->string()));
  for (const auto& file : device_files()) {
    try {
      MeasuredReference reference =
          parse_measured_reference(read_text_file(file.path), printable(file.path.string()), file.id);
      reference.profile.id = file.id;  // as the device catalog names it (tables, charts)
      if (inputs.table.gpu_of_device_name(reference.device_name)) inputs.references.push_back(std::move(reference));
    } catch (const InputError&) {
      continue;  // a broken file of a data folder does not hide the others; naming it by id reports it
    }
  }
  return inputs;
}

std::optional<DerivationRequest> spec_device_request(std::string_view name, std::string_view option) {
  if (!starts_with_ignoring_case(name, kPrefix)) return std::nullopt;
  DerivationRequest request;
  std::string_view id = name.substr(kPrefix.size());
  if (const auto mps = id.rfind("-mps"); mps != std::string_view::npos) {
    const std::string_view digits = id.substr(mps + 4);
    double percentage = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), percentage);
    if (error != std::errc() || end != digits.data() + digits.size() || digits.empty())
      throw InputError(
          fmt::format("{} {}: expected spec:ID or spec:ID-mpsNN (an MPS share of NN %)", option, printable(name)));
    request.mps_percentage = percentage;
    id = id.substr(0, mps);
  }
  if (id.empty())
    throw InputError(
        fmt::format("{} {}: no GPU id after spec: (`roofcast devices --specs` lists them)", option, printable(name)));
  request.spec_id = std::string(id);
  return request;
}

std::string spec_device_name(const std::string& spec_id, double mps_percentage) {
  return std::string(kPrefix) + spec_id + (mps_percentage < 100 ? fmt::format("-mps{:g}", mps_percentage) : "");
}

namespace {

// The derived profile, with the id `--device` takes for it.
DeviceProfile derived_profile(const SpecInputs& inputs, const DerivationRequest& request) {
  DeviceProfile profile = derive_device(inputs.table, inputs.references, request).profile;
  profile.id = spec_device_name(request.spec_id, request.mps_percentage);
  return profile;
}

}  // namespace

DeviceProfile derived_device_profile(const DerivationRequest& request) {
  return derived_profile(load_spec_inputs(), request);
}

std::optional<DeviceProfile> find_spec_device(std::string_view name) {
  if (const auto request = spec_device_request(name)) {
    const SpecInputs inputs = load_spec_inputs();
    if (!inputs.table.find_gpu(request->spec_id))
      throw InputError(fmt::format("--device {}: no GPU {} in {} (`roofcast devices --specs` lists them)", printable(name),
                                   printable(request->spec_id), inputs.table.source));
    return derived_profile(inputs, *request);
  }
  // A bare id: only when it is one of the table's, and no error when there is no table.
  const std::string prefixed = std::string(kPrefix) + std::string(name);
  std::optional<DerivationRequest> request;
  try {
    request = spec_device_request(prefixed);
  } catch (const InputError&) {
    return std::nullopt;  // "x-mpsy" that is no partition: not a spec name
  }
  if (!request) return std::nullopt;
  std::optional<SpecInputs> inputs;
  try {
    inputs = load_spec_inputs();
  } catch (const InputError&) {
    return std::nullopt;
  }
  if (!inputs->table.find_gpu(request->spec_id)) return std::nullopt;
  return derived_profile(*inputs, *request);
}

std::vector<DeviceProfile> unmeasured_spec_devices() {
  const SpecInputs inputs = load_spec_inputs();
  std::vector<DeviceProfile> devices;
  for (const auto& gpu : inputs.table.gpus) {
    const bool measured = std::any_of(inputs.references.begin(), inputs.references.end(), [&](const MeasuredReference& r) {
      return inputs.table.gpu_of_device_name(r.device_name) == &gpu;
    });
    if (!measured) devices.push_back(derived_profile(inputs, {gpu.id, 100, ""}));
  }
  return devices;
}

}  // namespace roofcast
