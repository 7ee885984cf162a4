#include "roofcast/profiler/records_folder.hpp"

#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/printable_text.hpp"

namespace roofcast::profiler {

namespace {

namespace fs = std::filesystem;

// Claims `folder` for this run: its marker is created here, exclusively, and nothing else is
// in it. A folder with an earlier run's records, or one another run claimed first, is not ours.
bool claim(const fs::path& folder) {
  const fs::path marker = folder / RecordsFolder::kClaimMarker;
  const int descriptor = ::open(marker.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (descriptor < 0) return false;
  ::close(descriptor);
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error))
    if (entry.path().filename() != RecordsFolder::kClaimMarker) return false;
  return !error;
}

std::string new_folder(const fs::path& inside, const char* name_pattern) {
  std::string pattern = (inside / name_pattern).string();
  if (::mkdtemp(pattern.data()) == nullptr)
    throw InputError(fmt::format("profile: cannot create a folder for the records in {}: {}",
                                 printable(inside.string()), std::strerror(errno)));
  return pattern;
}

}  // namespace

RecordsFolder::RecordsFolder(const std::string& requested) {
  if (requested.empty()) {
    path_ = new_folder(fs::temp_directory_path(), "roofcast-profile-XXXXXX");
    owned_ = true;
    return;
  }
  std::error_code error;
  fs::create_directories(requested, error);
  if (error || !fs::is_directory(requested))
    throw InputError(fmt::format("profile: --records-dir {}: {}", printable(requested),
                                 error ? error.message() : "is not a folder"));
  if (claim(requested)) {
    path_ = requested;
    return;
  }
  path_ = new_folder(requested, "run-XXXXXX");
  note_ = fmt::format("--records-dir {} holds another run's records: this run's are in {}", printable(requested),
                      printable(path_));
}

RecordsFolder::~RecordsFolder() {
  std::error_code ignored;
  if (owned_) fs::remove_all(path_, ignored);
}

}  // namespace roofcast::profiler
