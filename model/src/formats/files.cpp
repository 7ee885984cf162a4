#include "roofcast/formats/files.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <optional>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <memory>
#include <iostream>
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

fs::path folder_of(const fs::path& target) { return target.has_parent_path() ? target.parent_path() : "."; }

void write_all(int descriptor, std::string_view text, const fs::path& target) {
  while (!text.empty()) {
    const ssize_t written = ::write(descriptor, text.data(), text.size());
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) throw InputError(fmt::format("{}: write failed: {}", target.string(), std::strerror(errno)));
    text.remove_prefix(static_cast<size_t>(written));
  }
}

// A new file or folder at `path` (it must not exist), registered for removal on a signal and held
// (stale_temporaries.hpp); nullopt, with the errno in `error`, when it cannot be created.
struct NewTemporary {
  std::unique_ptr<RemovedOnSignal> registration;
  HeldTemporary held;
};
std::optional<NewTemporary> create_temporary(const fs::path& path, RemovedOnSignal::Kind kind, int& error) {
  CleanupSignalsHeld signals_held;
  TemporaryCreation creation(folder_of(path));
  int descriptor = -1;
  if (kind == RemovedOnSignal::Kind::file) {
    descriptor = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (descriptor < 0) {
      error = errno;
      return std::nullopt;
    }
  } else {
    if (::mkdir(path.c_str(), 0777) != 0) {
      error = errno;
      return std::nullopt;
    }
    descriptor = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);  // -1 (unreadable): held by nothing
  }
  return NewTemporary{std::make_unique<RemovedOnSignal>(path, kind), HeldTemporary(descriptor)};
}

// A new temporary beside `target` (folder or file), its stale ones removed first unless
// `folder_is_new` (a folder this process just made holds none); InputError naming `target` when
// none can be created.
std::pair<fs::path, NewTemporary> create_temporary_for(const fs::path& target, RemovedOnSignal::Kind kind,
                                                       bool folder_is_new = false) {
  if (!folder_is_new) remove_stale_temporaries(target);
  int error = 0;
  for (int attempt = 0; attempt < 100; ++attempt) {
    const fs::path path = folder_of(target) / temporary_name(target);
    if (auto created = create_temporary(path, kind, error)) return {path, std::move(*created)};
    if (error != EEXIST) break;
  }
  throw InputError(fmt::format("{}: cannot write: {}", target.string(), std::strerror(error)));
}

// Writes what `produce` gives into the new file `temporary` (held open as `held`), then
// flushes it to disk. On any failure the file is removed and the error passes on.
void fill_temporary(const fs::path& temporary, const HeldTemporary& held,
                    const std::function<void(const OutputFiles::Write&)>& produce, const fs::path& target) {
  try {
    produce([&](std::string_view piece) { write_all(held.descriptor(), piece, target); });
    if (::fsync(held.descriptor()) != 0 && errno != EINVAL)
      throw InputError(fmt::format("{}: write failed: {}", target.string(), std::strerror(errno)));
  } catch (...) {
    ::unlink(temporary.c_str());
    throw;
  }
}

// `folder` as a path whose last part names it ("report/" and "." say it by their parent), which
// must not hold the current folder: replaced whole, a folder the shell stands in would vanish
// under it.
fs::path whole_folder_path(const fs::path& folder) {
  std::error_code error;
  fs::path path = fs::absolute(folder, error).lexically_normal();
  if (path.filename().empty()) path = path.parent_path();
  if (error || path == path.root_path())
    throw InputError(fmt::format("{}: cannot be replaced as a whole (give another folder)", folder.string()));
  const fs::path here = fs::current_path(error);
  const auto [inside, end] = std::mismatch(path.begin(), path.end(), here.begin(), here.end());
  if (!error && inside == path.end())
    throw InputError(fmt::format("{}: is the current folder or holds it; roofcast replaces it whole: give another "
                                 "folder",
                                 folder.string()));
  return path;
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

// Puts the folder `staging` at `target` in one step: renamed there when `target` is missing,
// else exchanged with it (renameat2 RENAME_EXCHANGE) and the former `target`, now at `staging`,
// removed. Where the file system cannot exchange (NFS), `target` is first renamed aside.
void swap_in_folder(const fs::path& staging, const fs::path& target) {
  std::error_code ignored;
  if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, target.c_str(), RENAME_NOREPLACE) == 0) return;
  if (errno == EEXIST && ::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, target.c_str(), RENAME_EXCHANGE) == 0) {
    fs::remove_all(staging, ignored);
    return;
  }
  if (errno != EINVAL && errno != ENOSYS)
    throw InputError(fmt::format("{}: cannot replace: {}", target.string(), std::strerror(errno)));
  const fs::path aside = folder_of(target) / temporary_name(target);
  if (::rename(target.c_str(), aside.c_str()) != 0 && errno != ENOENT)
    throw InputError(fmt::format("{}: cannot replace: {}", target.string(), std::strerror(errno)));
  if (::rename(staging.c_str(), target.c_str()) != 0)
    throw InputError(fmt::format("{}: cannot replace: {}", target.string(), std::strerror(errno)));
  fs::remove_all(aside, ignored);
}

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
  constexpr size_t kChunkBytes = 1 << 20;
  const auto chunk = std::make_unique_for_overwrite<char[]>(kChunkBytes);  // read over: not zeroed first
  while (in && (in.read(chunk.get(), static_cast<std::streamsize>(kChunkBytes)) || in.gcount() > 0))
    text.append(chunk.get(), static_cast<size_t>(in.gcount()));
  if (in.bad()) throw InputError(fmt::format("{}: read failed", printable(path.string())));
  return text;
}

std::string read_text_file(const fs::path& path, uint64_t max_bytes, std::string_view what) {
  auto too_large = [&](uint64_t size) {
    return InputError(fmt::format("{}: {:.1f} MiB, more than a {} can be ({:.0f} MiB); not read",
                                  printable(path.string()), static_cast<double>(size) / (1 << 20), what,
                                  static_cast<double>(max_bytes) / (1 << 20)));
  };
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode) && static_cast<uint64_t>(status.st_size) > max_bytes)
    throw too_large(static_cast<uint64_t>(status.st_size));
  std::string text = read_text_file(path);
  if (text.size() > max_bytes) throw too_large(text.size());
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
    buffer_ = PageBuffer(size);
    while (size_ < size) {
      const ssize_t got = ::read(fd, buffer_.data() + size_, size - size_);
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
  if (!buffer_) read_ = read_text_file(path);
}

void check_replaceable(const fs::path& target) {
  struct stat status {};
  if (::lstat(target.c_str(), &status) != 0 || S_ISREG(status.st_mode)) return;
  throw InputError(fmt::format("{}: is {}; roofcast replaces only regular files (give another path, or - for "
                               "standard output)",
                               target.string(), kind_of_special_file(status.st_mode)));
}

void check_replaceable_folder(const fs::path& target) {
  struct stat status {};
  if (::lstat(target.c_str(), &status) != 0 || S_ISDIR(status.st_mode)) return;
  throw InputError(fmt::format("{}: is {}; roofcast replaces only folders here (give another path)", target.string(),
                               S_ISREG(status.st_mode) ? "a file" : kind_of_special_file(status.st_mode)));
}

OutputFiles::~OutputFiles() {
  if (committed_) return;
  for (const auto& file : staged_) ::unlink(file.temporary.c_str());
  std::error_code ignored;
  for (const auto& workspace : workspaces_) fs::remove_all(workspace.folder, ignored);
  for (const auto& folder : folders_) fs::remove_all(folder.temporary, ignored);
}

void OutputFiles::add(const fs::path& target, std::string_view text) {
  add(target, [&](const Write& write) { write(text); });
}

void OutputFiles::add(const fs::path& target, const std::function<void(const Write&)>& produce) {
  if (target == "-") {
    produce([this](std::string_view piece) { standard_output_ += piece; });
    return;
  }
  check_replaceable(target);
  // Within a folder output being staged, the folder is ours and new.
  const bool in_staged_folder = std::any_of(folders_.begin(), folders_.end(), [&](const Staged& folder) {
    return folder.temporary == folder_of(target);
  });
  auto [temporary, created] = create_temporary_for(target, RemovedOnSignal::Kind::file, in_staged_folder);
  fill_temporary(temporary, created.held, produce, target);
  staged_.push_back({temporary, target, std::move(created.registration), std::move(created.held)});
}

fs::path OutputFiles::add_folder(const fs::path& given) {
  const fs::path target = whole_folder_path(given);
  check_replaceable_folder(target);  // "link/" would follow the link
  std::error_code error;
  fs::create_directories(folder_of(target), error);
  if (error) throw InputError(fmt::format("{}: cannot create the folder: {}", folder_of(target).string(), error.message()));
  auto [staging, created] = create_temporary_for(target, RemovedOnSignal::Kind::folder);
  folders_.push_back({staging, target, std::move(created.registration), std::move(created.held)});
  return staging;
}

fs::path OutputFiles::workspace(const fs::path& folder) {
  auto [path, created] = create_temporary_for(folder / "roofcast-workspace", RemovedOnSignal::Kind::folder);
  workspaces_.push_back({path, std::move(created.registration), std::move(created.held)});
  return path;
}

void OutputFiles::add_from_workspace(const fs::path& workspace, const fs::path& target) {
  check_replaceable(target);
  const fs::path file = workspace / target.filename();
  staged_.push_back({file, target, std::make_unique<RemovedOnSignal>(file, RemovedOnSignal::Kind::file), {}});
}

void OutputFiles::add_from_workspace(const fs::path& workspace, const fs::path& target, std::string_view text) {
  check_replaceable(target);
  const fs::path file = workspace / target.filename();
  int error = 0;
  auto created = create_temporary(file, RemovedOnSignal::Kind::file, error);
  if (!created) throw InputError(fmt::format("{}: cannot write: {}", target.string(), std::strerror(error)));
  fill_temporary(file, created->held, [&](const Write& write) { write(text); }, target);
  staged_.push_back({file, target, std::move(created->registration), std::move(created->held)});
}

void OutputFiles::commit() {
  for (const auto& file : staged_) {
    check_replaceable(file.target);
    std::error_code error;
    if (!fs::is_regular_file(fs::symlink_status(file.temporary, error)))
      throw InputError(fmt::format("{}: cannot write: its content was not produced", file.target.string()));
  }
  for (const auto& folder : folders_) check_replaceable_folder(folder.target);
  for (const auto& file : staged_) {
    std::error_code error;
    fs::rename(file.temporary, file.target, error);
    if (error) throw InputError(fmt::format("{}: cannot replace: {}", file.target.string(), error.message()));
  }
  std::error_code ignored;
  for (const auto& workspace : workspaces_) fs::remove_all(workspace.folder, ignored);  // staged folders hold some
  for (const auto& folder : folders_) swap_in_folder(folder.temporary, folder.target);
  committed_ = true;
  staged_.clear();
  workspaces_.clear();
  folders_.clear();
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
