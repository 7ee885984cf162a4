#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>

namespace roofcast::profiler {

// What the collector's record files of one run say so far.
struct RunProgress {
  uint64_t launches = 0;      // launch records (timing run: launches seen; counter run: profiled)
  size_t kernels = 0;         // distinct kernels among them
  uint64_t passes = 0;        // counter run: replay passes per launch (its config record)
  int processes = 0;
};

// Follows the records files of a run while the application runs (they are written a record
// per line, flushed) and shows a one-line status on stderr, rewritten in place, when stderr is
// a terminal; silent otherwise. The counts stay readable after stop() for the final line.
// It keeps a thread and a mutex of its own, not oneTBB's: it spreads no work over cores, it
// wakes every few hundred milliseconds while the application runs, for as long as it runs, and
// the command's thread waits for the application meanwhile.
class ProgressMonitor {
 public:
  // `mode`: timing | counters; `planned`: launches the counter run will profile (0: unknown).
  ProgressMonitor(std::filesystem::path folder, std::string mode, uint64_t planned, bool show);
  ~ProgressMonitor();
  void stop();  // idempotent; clears the status line
  RunProgress progress();
  // Reads what the files hold now (also used without the thread, and by tests).
  void poll();

 private:
  void show_line();

  std::filesystem::path folder_;
  std::string mode_;
  uint64_t planned_ = 0;
  bool show_ = false;
  std::mutex mutex_;
  RunProgress progress_;
  std::map<std::string, std::uintmax_t> offsets_;  // bytes of each file already read
  std::map<std::string, std::string> partial_;     // a line not yet ended, per file
  std::set<std::string> kernel_names_;
  std::map<std::string, uint64_t> records_;  // launch records per file
  std::map<std::string, uint64_t> seen_;     // the timing run's progress records (launches seen) per file
  std::atomic<bool> running_{false};
  std::thread thread_;
  bool shown_ = false;
};

}  // namespace roofcast::profiler
