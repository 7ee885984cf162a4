#include "roofcast/data/device_catalog.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "roofcast/data/bundled_data.hpp"
#include "roofcast/data/device_files.hpp"
#include "roofcast/data/spec_devices.hpp"
#include "roofcast/formats/closest_name.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/input_limits.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/model/device_name.hpp"

namespace roofcast {

namespace {

// provenance.date_utc of a device profile that parse_device_profile has read; "" when absent.
std::string measured_utc_of(std::string_view text) {
  const nlohmann::json document = nlohmann::json::parse(text, nullptr, false);
  const auto date = document.is_object() ? document.value("/provenance/date_utc"_json_pointer, nlohmann::json())
                                         : nlohmann::json();
  return date.is_string() ? date.get<std::string>() : "";
}

// Marks as not current every device that a later-measured device of the same name supersedes.
void mark_current(std::vector<CatalogDevice>& catalog) {
  std::map<std::string, std::string> latest;  // name key -> latest measured_utc (ISO 8601 sorts as text)
  for (const auto& entry : catalog) {
    std::string& date = latest[device_name_key(entry.device.name)];
    date = std::max(date, entry.measured_utc);
  }
  for (auto& entry : catalog) entry.current = entry.measured_utc == latest[device_name_key(entry.device.name)];
}

std::string id_and_name(const DeviceProfile& device) {
  return fmt::format("{} ({})", printable(device.id), printable(device.name));
}

std::string listed(const std::vector<const CatalogDevice*>& devices) {
  std::vector<std::string> items;
  for (const auto* entry : devices) items.push_back(id_and_name(entry->device));
  return fmt::format("{}", fmt::join(items, ", "));
}

// The device whose id, name or short form is closest to `name`, for "did you mean".
const CatalogDevice* closest_device(std::string_view name, const std::vector<CatalogDevice>& catalog) {
  std::vector<std::string> forms;
  std::vector<const CatalogDevice*> owners;
  for (const auto& entry : catalog) {
    if (!entry.current) continue;
    for (auto& form : device_name_forms(entry.device.name)) {
      forms.push_back(std::move(form));
      owners.push_back(&entry);
    }
    forms.push_back(device_name_key(entry.device.id));
    owners.push_back(&entry);
  }
  const auto closest = closest_name(device_name_key(name), forms);
  if (!closest) return nullptr;
  return owners[static_cast<size_t>(std::find(forms.begin(), forms.end(), *closest) - forms.begin())];
}

}  // namespace

std::vector<CatalogDevice> device_catalog(const std::function<void(const std::string&)>& warn) {
  std::vector<CatalogDevice> catalog;
  for (auto& device : bundled_devices()) catalog.push_back({"bundled", "", true, std::move(device)});
  for (const auto& file : device_files()) {
    try {
      const std::string text = read_text_file(file.path, input_limits::kMaxDeviceProfileBytes, "device profile");
      DeviceProfile device = parse_device_profile(text, printable(file.path.string()));
      device.id = file.id;
      catalog.push_back({file.path.string(), measured_utc_of(text), true, std::move(device)});
    } catch (const InputError& error) {
      if (warn) warn(error.what());  // a broken file in a data folder does not hide the others
    }
  }
  mark_current(catalog);
  return catalog;
}

std::vector<DeviceProfile> current_devices() {
  std::vector<DeviceProfile> devices;
  for (auto& entry : device_catalog())
    if (entry.current) devices.push_back(std::move(entry.device));
  return devices;
}

DeviceProfile find_device(std::string_view name, std::string_view option) {
  // A file of the data folders that does not read is reported when named by its id.
  for (const auto& file : device_files())
    if (same_device_name(file.id, name)) {
      DeviceProfile device = read_device_profile_file(file.path);
      device.id = file.id;
      return device;
    }
  const std::vector<CatalogDevice> catalog = device_catalog();
  std::vector<const CatalogDevice*> matches;
  for (const auto& entry : catalog)
    if (same_device_name(entry.device.id, name)) return entry.device;
  for (const auto& entry : catalog)
    if (same_device_name(entry.device.name, name)) matches.push_back(&entry);
  // A GPU of the spec table by its id ("spec:l40s", "l40s", "h100-pcie-mps50"), derived
  // (docs/derived-devices.md): before the short forms, so that "h100-pcie" is never an H100 SXM.
  if (matches.empty())
    if (auto derived = find_spec_device(name)) return *derived;
  if (matches.empty())
    for (const auto& entry : catalog)
      if (device_name_matches(name, entry.device.name)) matches.push_back(&entry);
  if (matches.size() > 1) {
    std::vector<const CatalogDevice*> current;
    std::copy_if(matches.begin(), matches.end(), std::back_inserter(current), [](auto* e) { return e->current; });
    if (current.size() == 1) return current.front()->device;
    if (!current.empty()) matches = current;
  }
  if (matches.size() == 1) return matches.front()->device;
  if (matches.size() > 1)
    throw InputError(fmt::format("{} {}: names {} devices: {}; give one of these ids", option, printable(name),
                                 matches.size(), listed(matches)));
  std::vector<const CatalogDevice*> current;
  for (const auto& entry : catalog)
    if (entry.current) current.push_back(&entry);
  const CatalogDevice* closest = closest_device(name, catalog);
  throw InputError(fmt::format("{} {}: unknown device: not a file, and no device `roofcast devices` lists has this id "
                               "or name{}; the devices: {}",
                               option, printable(name),
                               closest ? fmt::format("; the closest: {}", id_and_name(closest->device)) : "",
                               listed(current)));
}

}  // namespace roofcast
