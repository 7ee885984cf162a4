#pragma once

#include <filesystem>

namespace roofcast {

// Registers a temporary file or folder this process is writing so that it is removed if SIGINT,
// SIGTERM or SIGHUP ends the process before the destructor runs. The signal handler uses only
// async-signal-safe calls (unlink, rmdir, sigaction, raise): it removes every registered file,
// then every registered (by then empty) folder, and re-raises the signal with its default action,
// so the process still ends as that signal says. A signal ignored when a path is registered
// (nohup) stays ignored; another handler is replaced. The destructor only forgets the path; removing or renaming it
// is the owner's job. Meant for a single-threaded process, as roofcast is.
class RemovedOnSignal {
 public:
  enum class Kind { file, folder };
  RemovedOnSignal(const std::filesystem::path& path, Kind kind);
  ~RemovedOnSignal();
  RemovedOnSignal(const RemovedOnSignal&) = delete;
  RemovedOnSignal& operator=(const RemovedOnSignal&) = delete;

 private:
  int slot_;
};

}  // namespace roofcast
