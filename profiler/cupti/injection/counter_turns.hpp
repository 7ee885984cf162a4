#pragma once

#include <atomic>
#include <functional>
#include <string>

namespace roofcast::profiler {

// The GPU's counters serve one profiling session at a time, machine-wide, so the CUDA processes
// of one application pass them from one to another through files in the records folder:
// `counters.lock`, locked (flock) by the process whose Range Profiler sessions are open, and
// `counters.wanted.PID`, left by a process that waits for it. The holder keeps the counters from
// one profiled launch to the next (closing and reopening the sessions around every launch makes
// each replay pass slower: pytorch_ops on an H200, 45.8 s of passes against 29.8 s) until a
// request appears; then a watcher thread of the holder calls `give_back` and the lock passes on.
// A holder that waits for the other process (an MPI barrier) so gives the counters up too.
//
// take() and let_go() are called with the collector's launch mutex held; `give_back` must take
// that mutex itself (so that it waits for the launch in progress), close the sessions and call
// let_go().
class CounterTurns {
 public:
  CounterTurns(std::string folder, std::function<void()> give_back);

  // Returns once this process holds the counters (at once where it holds them already).
  void take();
  // Unlocks; the caller has closed this process' sessions.
  void let_go();
  bool held() const { return held_.load(); }
  // Whether another process waits for the counters (a request file of a living process).
  bool requested() const;

 private:
  void watch();

  std::string folder_;
  std::function<void()> give_back_;
  int lock_fd_ = -1;
  std::atomic<bool> held_ = false;
  bool watching_ = false;
};

}  // namespace roofcast::profiler
