#include "roofcast/formats/files.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <fmt/std.h>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/printable_text.hpp"

namespace roofcast {

namespace fs = std::filesystem;

namespace {

// Holds back SIGINT, SIGTERM and SIGHUP while a temporary is created and registered, so that
// none can end the process between the two and leave the file behind.
class CleanupSignalsHeld {
 public:
  CleanupSignalsHeld() {
    sigset_t held;
    ::sigemptyset(&held);
    for (const int signal_number : {SIGINT, SIGTERM, SIGHUP}) ::sigaddset(&held, signal_number);
    ::sigprocmask(SIG_BLOCK, &held, &previous_);
  }
  ~CleanupSignalsHeld() { ::sigprocmask(SIG_SETMASK, &previous_, nullptr); }
  CleanupSignalsHeld(const CleanupSignalsHeld&) = delete;
  CleanupSignalsHeld& operator=(const CleanupSignalsHeld&) = delete;

 private:
  sigset_t previous_;
};

std::string random_suffix() {
  static std::mt19937_64 generator{std::random_device{}() ^ static_cast<uint64_t>(::getpid())};
  static constexpr std::string_view letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::string suffix(8, ' ');
  for (auto& c : suffix) c = letters[generator() % letters.size()];
  return suffix;
}

// A hidden name beside `target` for its temporary; long names are cut to stay within NAME_MAX.
std::string temporary_name(const fs::path& target) {
  return fmt::format(".{}.{}", target.filename().string().substr(0, 200), random_suffix());
}

void write_all(int descriptor, std::string_view text, const fs::path& target) {
  while (!text.empty()) {
    const ssize_t written = ::write(descriptor, text.data(), text.size());
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) throw InputError(fmt::format("{}: write failed: {}", target.string(), std::strerror(errno)));
    text.remove_prefix(static_cast<size_t>(written));
  }
  if (::fsync(descriptor) != 0 && errno != EINVAL)
    throw InputError(fmt::format("{}: write failed: {}", target.string(), std::strerror(errno)));
}

// Creates `path` (it must not exist), registers it for removal on a signal, writes `text` and
// flushes it to disk. On any failure the file is removed and InputError names `target`.
std::unique_ptr<RemovedOnSignal> write_new_file(const fs::path& path, std::string_view text, const fs::path& target) {
  std::unique_ptr<RemovedOnSignal> registration;
  int descriptor = -1;
  {
    CleanupSignalsHeld held;
    descriptor = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (descriptor < 0) return nullptr;
    registration = std::make_unique<RemovedOnSignal>(path, RemovedOnSignal::Kind::file);
  }
  try {
    write_all(descriptor, text, target);
  } catch (...) {
    ::close(descriptor);
    ::unlink(path.c_str());
    throw;
  }
  if (::close(descriptor) != 0) {
    ::unlink(path.c_str());
    throw InputError(fmt::format("{}: write failed: {}", target.string(), std::strerror(errno)));
  }
  return registration;
}

const char* kind_of_special_file(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a folder";
  return "not a regular file";
}

fs::path folder_of(const fs::path& target) { return target.has_parent_path() ? target.parent_path() : "."; }

}  // namespace

std::string read_text_file(const fs::path& path) {
  std::error_code error;
  if (fs::is_directory(path, error))
    throw InputError(fmt::format("{}: is a folder, expected a file", printable(path.string())));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(fmt::format("{}: cannot open: {}", printable(path.string()), std::strerror(errno)));
  // Read in large chunks into one string sized up front where the size is known (a profile of
  // 100,000 kernels is ~90 MB: a stringstream's repeated growth and final copy cost more than
  // parsing it). A FIFO or /dev/stdin has no size and grows the string as it comes.
  // A regular file is read straight into the string (one copy, not two), then whatever it grew by.
  std::string text;
  if (const auto size = fs::file_size(path, error); !error && size > 0) {
    text.resize(size);
    in.read(text.data(), static_cast<std::streamsize>(size));
    text.resize(static_cast<size_t>(in.gcount()));
  }
  std::vector<char> chunk(1 << 20);
  while (in && (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0))
    text.append(chunk.data(), static_cast<size_t>(in.gcount()));
  if (in.bad()) throw InputError(fmt::format("{}: read failed", printable(path.string())));
  return text;
}

TextFile::TextFile(const fs::path& path) {
  // Only a regular file is read here; anything else (a FIFO, a device) is left unopened for
  // read_text_file, which opens it once and names it in its errors. Opening a FIFO here too
  // would let its writer write into this first opening, whose close loses the text, and then
  // read_text_file would wait for a writer that has gone.
  struct stat named {};
  if (::stat(path.c_str(), &named) != 0 || !S_ISREG(named.st_mode)) {
    read_ = read_text_file(path);
    return;
  }
  // Non-blocking, should the path have become a FIFO since.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  struct stat status {};
  if (fd >= 0 && ::fstat(fd, &status) == 0 && S_ISREG(status.st_mode) && status.st_size > 0) {
    const auto size = static_cast<size_t>(status.st_size);
    buffer_ = std::make_unique_for_overwrite<char[]>(size);
    while (size_ < size) {
      const ssize_t got = ::read(fd, buffer_.get() + size_, size - size_);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) {
        const int error = errno;
        ::close(fd);
        throw InputError(fmt::format("{}: read failed: {}", printable(path.string()), std::strerror(error)));
      }
      if (got == 0) break;  // truncated meanwhile: what it holds now is parsed (and refused if cut)
      size_ += static_cast<size_t>(got);
    }
  }
  if (fd >= 0) ::close(fd);
  if (buffer_ == nullptr) read_ = read_text_file(path);
}

void check_replaceable(const fs::path& target) {
  struct stat status {};
  if (::lstat(target.c_str(), &status) != 0 || S_ISREG(status.st_mode)) return;
  throw InputError(fmt::format("{}: is {}; roofcast replaces only regular files (give another path, or - for "
                               "standard output)",
                               target.string(), kind_of_special_file(status.st_mode)));
}

OutputFiles::~OutputFiles() {
  if (committed_) return;
  for (const auto& file : staged_) ::unlink(file.temporary.c_str());
  std::error_code ignored;
  for (const auto& workspace : workspaces_) fs::remove_all(workspace.folder, ignored);
}

void OutputFiles::add(const fs::path& target, std::string_view text) {
  if (target == "-") {
    standard_output_ += text;
    return;
  }
  check_replaceable(target);
  const fs::path folder = folder_of(target);
  for (int attempt = 0; attempt < 100; ++attempt) {
    const fs::path temporary = folder / temporary_name(target);
    auto registration = write_new_file(temporary, text, target);
    if (registration) {
      staged_.push_back({temporary, target, std::move(registration)});
      return;
    }
    if (errno != EEXIST) break;
  }
  throw InputError(fmt::format("{}: cannot write: {}", target.string(), std::strerror(errno)));
}

fs::path OutputFiles::workspace(const fs::path& folder) {
  CleanupSignalsHeld held;
  std::string name = (folder / fmt::format(".roofcast-{}-XXXXXX", ::getpid())).string();
  if (::mkdtemp(name.data()) == nullptr)
    throw InputError(fmt::format("{}: cannot write: {}", folder.string(), std::strerror(errno)));
  workspaces_.push_back({name, std::make_unique<RemovedOnSignal>(name, RemovedOnSignal::Kind::folder)});
  return name;
}

void OutputFiles::add_from_workspace(const fs::path& workspace, const fs::path& target) {
  check_replaceable(target);
  const fs::path file = workspace / target.filename();
  staged_.push_back({file, target, std::make_unique<RemovedOnSignal>(file, RemovedOnSignal::Kind::file)});
}

void OutputFiles::add_from_workspace(const fs::path& workspace, const fs::path& target, std::string_view text) {
  check_replaceable(target);
  const fs::path file = workspace / target.filename();
  auto registration = write_new_file(file, text, target);
  if (!registration) throw InputError(fmt::format("{}: cannot write: {}", target.string(), std::strerror(errno)));
  staged_.push_back({file, target, std::move(registration)});
}

void OutputFiles::commit() {
  for (const auto& file : staged_) {
    check_replaceable(file.target);
    std::error_code error;
    if (!fs::is_regular_file(fs::symlink_status(file.temporary, error)))
      throw InputError(fmt::format("{}: cannot write: its content was not produced", file.target.string()));
  }
  for (const auto& file : staged_) {
    std::error_code error;
    fs::rename(file.temporary, file.target, error);
    if (error) throw InputError(fmt::format("{}: cannot replace: {}", file.target.string(), error.message()));
  }
  committed_ = true;
  std::error_code ignored;
  for (const auto& workspace : workspaces_) fs::remove_all(workspace.folder, ignored);
  staged_.clear();
  workspaces_.clear();
  if (!standard_output_.empty()) {
    std::cout << standard_output_ << std::flush;
    if (!std::cout) throw InputError("-: cannot write to standard output");
  }
}

void write_file_atomically(const fs::path& path, std::string_view text) {
  OutputFiles outputs;
  outputs.add(path, text);
  outputs.commit();
}

}  // namespace roofcast
