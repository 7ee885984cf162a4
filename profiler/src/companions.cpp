#include "roofcast/profiler/companions.hpp"

#include <system_error>

#include "roofcast/profiler/app_launcher.hpp"

// The installed companions' folder relative to the installed binaries' (from GNUInstallDirs).
#ifndef ROOFCAST_INSTALLED_COMPANION_DIR
#define ROOFCAST_INSTALLED_COMPANION_DIR "../libexec/roofcast"
#endif

namespace roofcast::profiler {

std::vector<std::filesystem::path> companion_folders(const std::filesystem::path& executable_folder) {
  return {executable_folder, (executable_folder / ROOFCAST_INSTALLED_COMPANION_DIR).lexically_normal()};
}

std::optional<std::filesystem::path> find_companion(std::string_view file) {
  for (const auto& folder : companion_folders(executable_folder())) {
    const auto candidate = folder / file;
    std::error_code error;
    if (std::filesystem::exists(candidate, error)) return candidate;
  }
  return std::nullopt;
}

std::string companion_folders_text() {
  std::string text;
  for (const auto& folder : companion_folders(executable_folder())) {
    if (!text.empty()) text += " or ";
    text += folder.string();
  }
  return text;
}

}  // namespace roofcast::profiler
