#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace roofcast {

// The whole file as text; InputError naming the file when it cannot be read.
std::string read_text_file(const std::filesystem::path& path);

// Writes through a temporary file in the same folder and renames it over `path`,
// so a reader never sees half a file and a failed write never loses the old one.
void write_file_atomically(const std::filesystem::path& path, std::string_view text);

}  // namespace roofcast
