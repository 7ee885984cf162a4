#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "roofcast/formats/temporary_paths.hpp"

namespace roofcast {

// The whole file as text; InputError naming the file when it cannot be read.
std::string read_text_file(const std::filesystem::path& path);

// The whole file as text, as read_text_file reads it, but a regular file is read into a buffer
// that is not zeroed first (a profile of 100,000 kernels is 90 MB: zeroing a string of that
// size, then copying into it, came before its first kernel could be predicted). Not mapped: a
// mapped file that another program truncates would end this one (SIGBUS); read, a file cut
// meanwhile is parsed as it is and refused where it is cut.
class TextFile {
 public:
  explicit TextFile(const std::filesystem::path& path);
  std::string_view text() const { return buffer_ ? std::string_view(buffer_.get(), size_) : std::string_view(read_); }

 private:
  std::unique_ptr<char[]> buffer_;
  size_t size_ = 0;
  std::string read_;  // what is not a regular file: a FIFO, standard input; and an empty file
};

// Output files that appear together or not at all. add() writes each one, now, to a new
// temporary file beside its target (a unique hidden name created with O_EXCL, flushed to disk);
// nothing at a target changes until commit() renames them all into place. An OutputFiles
// dropped without commit() (an error on the way) removes its temporaries, so every target is
// as it was. A target that exists must be a regular file: a symbolic link, FIFO, device,
// socket or folder is refused (InputError), never replaced nor written through. The target
// "-" is standard output, written at commit(). Temporaries are removed if SIGINT, SIGTERM or
// SIGHUP ends the process (RemovedOnSignal).
class OutputFiles {
 public:
  OutputFiles() = default;
  ~OutputFiles();
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;

  void add(const std::filesystem::path& target, std::string_view text);

  // A new private folder inside `folder` for a program that writes its files itself (gnuplot);
  // removed at commit() or when dropped. Files in it become outputs through add_from_workspace().
  std::filesystem::path workspace(const std::filesystem::path& folder);
  // The file `name` in `workspace`, written by us (`text`) or, when absent, by another program
  // before commit(), becomes `target` at commit().
  void add_from_workspace(const std::filesystem::path& workspace, const std::filesystem::path& target);
  void add_from_workspace(const std::filesystem::path& workspace, const std::filesystem::path& target,
                          std::string_view text);

  void commit();

 private:
  struct Staged {
    std::filesystem::path temporary, target;
    std::unique_ptr<RemovedOnSignal> registration;
  };
  struct Workspace {
    std::filesystem::path folder;
    std::unique_ptr<RemovedOnSignal> registration;
  };
  std::vector<Staged> staged_;
  std::vector<Workspace> workspaces_;
  std::string standard_output_;
  bool committed_ = false;
};

// One output file: OutputFiles with only `path`, committed.
void write_file_atomically(const std::filesystem::path& path, std::string_view text);

// Throws InputError when `target` exists and is not a regular file (OutputFiles refuses to replace it).
void check_replaceable(const std::filesystem::path& target);

}  // namespace roofcast
