#include "record_writer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include <chrono>
#include <cstdlib>
#include <sstream>

#include <fmt/format.h>

#include "roofcast/formats/collector_record_fields.hpp"
#include "roofcast/profiler/collector_protocol.hpp"

namespace roofcast::profiler {

RecordWriter::RecordWriter(std::string folder, std::string mode) : folder_(std::move(folder)), mode_(std::move(mode)) {}

void RecordWriter::open_for_current_pid() {
  const int pid = static_cast<int>(getpid());
  if (file_ != nullptr && pid == pid_) return;
  // A forked child inherits the parent's FILE*: leave it alone and open its own.
  file_ = nullptr;
  pid_ = pid;
  // Created, never appended to: a file of that name (a pid used again by a later process of the
  // run) is another process' records, and this one gets "-PID.N".
  std::string path;
  int descriptor = -1;
  for (int n = 1; descriptor < 0 && n <= 1000; ++n) {
    path = fmt::format("{}/{}{}-{}{}{}", folder_, protocol::kFilePrefix, mode_, pid, n == 1 ? "" : fmt::format(".{}", n),
                       protocol::kFileSuffix);
    descriptor = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (descriptor < 0 && errno != EEXIST) break;
  }
  file_ = descriptor >= 0 ? ::fdopen(descriptor, "w") : nullptr;
  if (file_ == nullptr) {
    std::fprintf(stderr, "roofcast collector: cannot write %s; nothing will be recorded for process %d\n",
                 path.c_str(), pid);
    return;
  }
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  nlohmann::json header = {
      {collector_record::kType, collector_record::kProcess},
      {collector_record::kPidKey, pid},
      {collector_record::kParentPidKey, static_cast<int>(getppid())},
      {collector_record::kStartNsKey, std::chrono::duration_cast<std::chrono::nanoseconds>(now).count()},
      {collector_record::kModeKey, mode_}};
  // The values --output patterns (%q{VAR}) name, as this process sees them.
  if (const char* names = std::getenv(protocol::kRecordEnvVariable)) {
    std::stringstream list(names);
    for (std::string name; std::getline(list, name, ',');)
      if (const char* value = name.empty() ? nullptr : std::getenv(name.c_str()))
        header[collector_record::kEnvKey][name] = value;
  }
  std::fprintf(file_, "%s\n", header.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  std::fflush(file_);
}

void RecordWriter::write(const nlohmann::json& record) {
  std::lock_guard lock(mutex_);
  open_for_current_pid();
  if (file_ == nullptr) return;
  std::fprintf(file_, "%s\n", record.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  std::fflush(file_);
}

void RecordWriter::flush() {
  std::lock_guard lock(mutex_);
  if (file_ != nullptr && pid_ == static_cast<int>(getpid())) std::fflush(file_);
}

}  // namespace roofcast::profiler
