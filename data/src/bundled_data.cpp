#include "roofcast/data/bundled_data.hpp"

#include <cctype>

#include "roofcast/formats/profile_json.hpp"

namespace roofcast {

namespace {

std::string normalized(std::string_view name) {
  std::string result;
  for (const char c : name) {
    if (std::isalnum(static_cast<unsigned char>(c))) result += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return result;
}

std::string source_name(const BundledFile& file) {
  return std::string(file.kind == BundledFile::Kind::device ? "data/devices/" : "data/profiles/") +
         std::string(file.id) + ".json";
}

}  // namespace

std::vector<DeviceProfile> bundled_devices() {
  std::vector<DeviceProfile> devices;
  for (const auto& file : bundled_files()) {
    if (file.kind == BundledFile::Kind::device) devices.push_back(parse_device_profile(file.text, source_name(file)));
  }
  return devices;
}

std::optional<DeviceProfile> find_bundled_device(std::string_view name) {
  const std::string wanted = normalized(name);
  for (const auto& file : bundled_files()) {
    if (file.kind != BundledFile::Kind::device) continue;
    DeviceProfile device = parse_device_profile(file.text, source_name(file));
    if (normalized(device.name) == wanted || normalized(file.id) == wanted) return device;
  }
  return std::nullopt;
}

std::optional<KernelProfile> find_bundled_profile(std::string_view id) {
  const std::string wanted = normalized(id);
  for (const auto& file : bundled_files()) {
    if (file.kind == BundledFile::Kind::profile && normalized(file.id) == wanted)
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
