#pragma once

#include <optional>
#include <string>

namespace roofcast::profiler {

// The folder where one run of `roofcast profile` has the collector write its records, and from
// which it reads every `roofcast-<mode>-*.jsonl` file back: it must hold no other run's.
class RecordsFolder {
 public:
  // `requested` empty: a new temporary folder, removed with this object. Otherwise the folder of
  // --records-dir, kept: used itself when this run is the first to claim it (it is new or empty
  // and no other run claimed it first: a hidden marker file, created exclusively, says so);
  // otherwise a new subfolder "run-XXXXXX" of it, and note() says where. InputError when it
  // cannot be created.
  explicit RecordsFolder(const std::string& requested);
  ~RecordsFolder();
  RecordsFolder(const RecordsFolder&) = delete;
  RecordsFolder& operator=(const RecordsFolder&) = delete;

  const std::string& path() const { return path_; }
  // Where the records went when it is not the folder asked for, as a line to show.
  const std::optional<std::string>& note() const { return note_; }

  static constexpr const char* kClaimMarker = ".roofcast-records";

 private:
  std::string path_;
  std::optional<std::string> note_;
  bool owned_ = false;
};

}  // namespace roofcast::profiler
