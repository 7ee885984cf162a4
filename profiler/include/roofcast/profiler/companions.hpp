#pragma once
// Where roofcast finds its companions (roofcast-bench, roofcast-cupti, the collector library):
// beside the running executable in a build tree, in <prefix>/libexec/roofcast once installed.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofcast::profiler {

// The folders searched, in order, for an executable living in `executable_folder`.
std::vector<std::filesystem::path> companion_folders(const std::filesystem::path& executable_folder);

// The first of companion_folders(executable_folder()) that holds `file`; nullopt when none does.
std::optional<std::filesystem::path> find_companion(std::string_view file);

// The folders searched, joined for an error message ("A or B").
std::string companion_folders_text();

}  // namespace roofcast::profiler
