#include "roofcast/data/bundled_data.hpp"

#include "roofcast/model/device_name.hpp"
#include "roofcast/formats/profile_json.hpp"

namespace roofcast {

namespace {

std::string source_name(const BundledFile& file) {
  return std::string(file.kind == BundledFile::Kind::device ? "data/devices/" : "data/profiles/") +
         std::string(file.id) + ".json";
}

DeviceProfile parse_bundled_device(const BundledFile& file) {
  DeviceProfile device = parse_device_profile(file.text, source_name(file));
  device.id = file.id;
  return device;
}

}  // namespace

std::vector<DeviceProfile> bundled_devices() {
  std::vector<DeviceProfile> devices;
  for (const auto& file : bundled_files()) {
    if (file.kind == BundledFile::Kind::device) devices.push_back(parse_bundled_device(file));
  }
  return devices;
}

std::optional<DeviceProfile> find_bundled_device(std::string_view name) {
  for (const auto& file : bundled_files()) {
    if (file.kind != BundledFile::Kind::device) continue;
    DeviceProfile device = parse_bundled_device(file);
    if (same_device_name(device.name, name) || same_device_name(file.id, name)) return device;
  }
  return std::nullopt;
}

std::optional<KernelProfile> find_bundled_profile(std::string_view id) {
  for (const auto& file : bundled_files()) {
    if (file.kind == BundledFile::Kind::profile && same_device_name(file.id, id))
      return parse_kernel_profile(file.text, source_name(file));
  }
  return std::nullopt;
}

std::vector<std::string> bundled_profile_ids() {
  std::vector<std::string> ids;
  for (const auto& file : bundled_files()) {
    if (file.kind == BundledFile::Kind::profile) ids.emplace_back(file.id);
  }
  return ids;
}

}  // namespace roofcast
