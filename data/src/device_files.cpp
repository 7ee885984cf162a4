#include "roofcast/data/device_files.hpp"

#include <algorithm>
#include <cstdlib>
#include <set>
#include <system_error>

#include <fmt/format.h>

#include "roofcast/data/bundled_data.hpp"
#include "roofcast/data/spec_devices.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/input_limits.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/model/device_name.hpp"

namespace roofcast {

namespace {

namespace fs = std::filesystem;

// The folder of the running program (Linux: /proc/self/exe); empty when unknown.
fs::path program_folder() {
  std::error_code error;
  const fs::path program = fs::read_symlink("/proc/self/exe", error);
  return error ? fs::path() : program.parent_path();
}

std::vector<fs::path> json_files_in(const fs::path& folder) {
  std::vector<fs::path> files;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error))
    if (entry.is_regular_file(error) && entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

DeviceProfile read_device_profile_file(const fs::path& path) {
  return parse_device_profile(read_text_file(path, input_limits::kMaxDeviceProfileBytes, "device profile"),
                              printable(path.string()));
}

std::vector<fs::path> data_folders() {
  std::vector<fs::path> folders;
  if (const char* dir = std::getenv("ROOFCAST_DATA_DIR"); dir && *dir) folders.emplace_back(dir);
  if (const fs::path bin = program_folder(); !bin.empty()) folders.push_back(bin.parent_path() / "share" / "roofcast");
  folders.emplace_back(ROOFCAST_SOURCE_DATA_DIR);
  return folders;
}

std::vector<DeviceFile> device_files() {
  std::set<std::string> seen;
  for (const auto& file : bundled_files())
    if (file.kind == BundledFile::Kind::device) seen.insert(device_name_key(file.id));
  std::vector<DeviceFile> files;
  for (const auto& folder : data_folders()) {
    for (const auto& devices : {folder / "devices", folder / "devices" / "measured"}) {
      for (const auto& path : json_files_in(devices)) {
        DeviceFile file{path.stem().string(), path};
        if (seen.insert(device_name_key(file.id)).second) files.push_back(std::move(file));
      }
    }
  }
  return files;
}

}  // namespace roofcast
