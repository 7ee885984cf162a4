#include "roofcast/formats/files.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <system_error>

#include <fmt/format.h>
#include <fmt/std.h>
#include <unistd.h>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/utf8.hpp"

namespace roofcast {

std::string read_text_file(const std::filesystem::path& path) {
  std::error_code error;
  if (std::filesystem::is_directory(path, error))
    throw InputError(fmt::format("{}: is a folder, expected a file", printable_text(path.string())));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open: {}", printable_text(path.string()), std::strerror(errno)));
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(fmt::format("{}: read failed", printable_text(path.string())));
  return std::move(text).str();
}

void write_file_atomically(const std::filesystem::path& path, std::string_view text) {
  const std::filesystem::path folder = path.has_parent_path() ? path.parent_path() : ".";
  const std::filesystem::path temporary =
      folder / fmt::format(".{}.{}.tmp", path.filename().string(), ::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(fmt::format("{}: cannot write: {}", path.string(), std::strerror(errno)));
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.flush();
    if (!out) {
      std::filesystem::remove(temporary);
      throw InputError(fmt::format("{}: write failed", path.string()));
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, path, error);
  if (error) {
    std::filesystem::remove(temporary);
    throw InputError(fmt::format("{}: cannot replace: {}", path.string(), error.message()));
  }
}

}  // namespace roofcast
