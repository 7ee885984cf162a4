#pragma once

#include <cstdio>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

namespace roofcast::profiler {

// Writes records (one JSON object per line) to this process' output file, flushing each
// line so that what was collected survives an abort. A forked child that writes gets its
// own file: the file is named after the pid at the moment of writing, and created exclusively
// (O_EXCL): never appended to, whoever wrote it before.
class RecordWriter {
 public:
  RecordWriter(std::string folder, std::string mode);
  void write(const nlohmann::json& record);
  void flush();

 private:
  void open_for_current_pid();

  std::string folder_;
  std::string mode_;
  std::mutex mutex_;
  std::FILE* file_ = nullptr;
  int pid_ = -1;
};

}  // namespace roofcast::profiler
