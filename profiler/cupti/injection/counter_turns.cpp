#include "counter_turns.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <string_view>
#include <thread>

#include <fmt/format.h>

namespace roofcast::profiler {

namespace {

constexpr std::string_view kRequestPrefix = "counters.wanted.";
constexpr auto kWatchInterval = std::chrono::milliseconds(5);

std::string request_path(const std::string& folder, int pid) {
  return fmt::format("{}/{}{}", folder, kRequestPrefix, pid);
}

bool process_lives(int pid) { return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM); }

}  // namespace

CounterTurns::CounterTurns(std::string folder, std::function<void()> give_back)
    : folder_(std::move(folder)), give_back_(std::move(give_back)) {}

void CounterTurns::take() {
  if (held_) return;
  if (lock_fd_ < 0) lock_fd_ = open((folder_ + "/counters.lock").c_str(), O_CREAT | O_RDWR | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) return;  // no lock to share: profile as if alone
  if (flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    const std::string request = request_path(folder_, getpid());
    if (const int fd = open(request.c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0644); fd >= 0) close(fd);
    while (flock(lock_fd_, LOCK_EX) != 0 && errno == EINTR) {
    }
    unlink(request.c_str());
  }
  held_ = true;
  if (!watching_) {
    watching_ = true;
    // Detached: it lives as long as the process (the collector's state is never destroyed). A
    // thread of its own, not oneTBB's: it sleeps and polls inside the profiled application.
    std::thread([this] { watch(); }).detach();
  }
}

void CounterTurns::let_go() {
  if (!held_) return;
  flock(lock_fd_, LOCK_UN);
  held_ = false;
}

bool CounterTurns::requested() const {
  DIR* dir = opendir(folder_.c_str());
  if (dir == nullptr) return false;
  bool found = false;
  while (const dirent* entry = readdir(dir)) {
    const std::string_view name = entry->d_name;
    if (!name.starts_with(kRequestPrefix)) continue;
    const int pid = std::atoi(name.substr(kRequestPrefix.size()).data());
    if (pid == getpid()) continue;
    if (process_lives(pid)) {
      found = true;
      break;
    }
    unlink(request_path(folder_, pid).c_str());  // left by a process that died waiting
  }
  closedir(dir);
  return found;
}

void CounterTurns::watch() {
  for (;;) {
    std::this_thread::sleep_for(kWatchInterval);
    if (held_ && requested()) give_back_();
  }
}

}  // namespace roofcast::profiler
