#include "roofcast/formats/stale_temporaries.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <random>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

namespace roofcast {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kMarker = ".roofcast-";
constexpr size_t kSuffixLength = 8;
constexpr std::string_view kSuffixLetters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

std::string random_suffix() {
  static std::mt19937_64 generator{std::random_device{}() ^ static_cast<uint64_t>(::getpid())};
  std::string suffix(kSuffixLength, ' ');
  for (auto& c : suffix) c = kSuffixLetters[generator() % kSuffixLetters.size()];
  return suffix;
}

std::string temporary_prefix(const fs::path& target) {
  return fmt::format(".{}{}", target.filename().string().substr(0, 200), kMarker);
}

bool is_temporary_of(std::string_view name, std::string_view prefix) {
  if (name.size() != prefix.size() + kSuffixLength || !name.starts_with(prefix)) return false;
  return name.substr(prefix.size()).find_first_not_of(kSuffixLetters) == std::string_view::npos;
}

fs::path folder_of(const fs::path& target) { return target.has_parent_path() ? target.parent_path() : "."; }

void lock(int descriptor, int operation) {
  while (::flock(descriptor, operation) != 0 && errno == EINTR) {
  }
}

// Removes `name` in `folder` (open as `folder_descriptor`) when no process holds it.
void remove_if_stale(int folder_descriptor, const fs::path& folder, const std::string& name) {
  const int descriptor = ::openat(folder_descriptor, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (descriptor < 0) return;
  struct stat status {};
  const bool stale = ::fstat(descriptor, &status) == 0 && (S_ISREG(status.st_mode) || S_ISDIR(status.st_mode)) &&
                     ::flock(descriptor, LOCK_EX | LOCK_NB) == 0;
  if (stale && S_ISREG(status.st_mode)) ::unlinkat(folder_descriptor, name.c_str(), 0);
  if (stale && S_ISDIR(status.st_mode)) {
    std::error_code ignored;
    fs::remove_all(folder / name, ignored);
  }
  ::close(descriptor);
}

}  // namespace

std::string temporary_name(const fs::path& target) { return temporary_prefix(target) + random_suffix(); }

HeldTemporary::HeldTemporary(int descriptor) : descriptor_(descriptor) {
  // Shared: a folder this process holds stays open to its own TemporaryCreation (also shared);
  // any hold keeps a cleaner's exclusive try from taking it for stale.
  if (descriptor_ >= 0) lock(descriptor_, LOCK_SH);
}

HeldTemporary::~HeldTemporary() {
  if (descriptor_ >= 0) ::close(descriptor_);
}

HeldTemporary::HeldTemporary(HeldTemporary&& other) noexcept : descriptor_(other.descriptor_) {
  other.descriptor_ = -1;
}

HeldTemporary& HeldTemporary::operator=(HeldTemporary&& other) noexcept {
  if (this != &other) {
    if (descriptor_ >= 0) ::close(descriptor_);
    descriptor_ = other.descriptor_;
    other.descriptor_ = -1;
  }
  return *this;
}

TemporaryCreation::TemporaryCreation(const fs::path& folder)
    : folder_(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
  if (folder_ >= 0) lock(folder_, LOCK_SH);
}

TemporaryCreation::~TemporaryCreation() {
  if (folder_ >= 0) ::close(folder_);
}

void remove_stale_temporaries(const fs::path& target) {
  const fs::path folder = folder_of(target);
  const int folder_descriptor = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (folder_descriptor < 0) return;
  // Exclusive: no temporary is being created meanwhile (TemporaryCreation holds it shared for
  // microseconds). A folder that stays busy is a temporary folder a live process holds (the
  // staging folder it writes into): nothing in it is stale.
  bool locked = false;
  for (int attempt = 0; attempt < 100 && !locked; ++attempt) {
    locked = ::flock(folder_descriptor, LOCK_EX | LOCK_NB) == 0;
    if (!locked && errno != EWOULDBLOCK && errno != EINTR) break;
    if (!locked) ::usleep(1000);
  }
  if (!locked) {
    ::close(folder_descriptor);
    return;
  }
  const std::string prefix = temporary_prefix(target);
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    if (is_temporary_of(name, prefix)) remove_if_stale(folder_descriptor, folder, name);
  }
  ::close(folder_descriptor);
}

}  // namespace roofcast
