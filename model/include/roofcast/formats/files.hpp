#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "roofcast/formats/page_buffer.hpp"
#include "roofcast/formats/stale_temporaries.hpp"
#include "roofcast/formats/temporary_paths.hpp"

namespace roofcast {

// The whole file as text; InputError naming the file when it cannot be read.
std::string read_text_file(const std::filesystem::path& path);
// The same for a file of a format that is never large: InputError naming the file, its size and
// `max_bytes` when it holds more, before a regular file is read (anything else, once read past it).
std::string read_text_file(const std::filesystem::path& path, uint64_t max_bytes, std::string_view what);

// The whole file as text, as read_text_file reads it, but a regular file is read into a buffer
// that is not zeroed first (a profile of 100,000 kernels is 90 MB: zeroing a string of that
// size, then copying into it, came before its first kernel could be predicted). The file is not
// mapped (its buffer may be: PageBuffer): a mapped file that another program truncates would end
// this one (SIGBUS); read, a file cut meanwhile is parsed as it is and refused where it is cut.
class TextFile {
 public:
  explicit TextFile(const std::filesystem::path& path);
  std::string_view text() const { return buffer_ ? std::string_view(buffer_.data(), size_) : std::string_view(read_); }

 private:
  PageBuffer buffer_;
  size_t size_ = 0;
  std::string read_;  // what is not a regular file: a FIFO, standard input; and an empty file
};

// Output files that appear together or not at all. add() writes each one, now, to a new
// temporary file beside its target (a hidden name created with O_EXCL, flushed to disk;
// stale_temporaries.hpp); nothing at a target changes until commit() renames them all into place.
// An OutputFiles dropped without commit() (an error on the way) removes its temporaries, so every
// target is as it was. A target that exists must be a regular file: a symbolic link, FIFO,
// device, socket or folder is refused (InputError), never replaced nor written through. The
// target "-" is standard output, written at commit(). Temporaries are removed if SIGINT, SIGTERM
// or SIGHUP ends the process (RemovedOnSignal), and those a killed process left behind for the
// same target by the next add() (remove_stale_temporaries).
class OutputFiles {
 public:
  // Appends a piece of a file's text.
  using Write = std::function<void(std::string_view)>;

  OutputFiles() = default;
  ~OutputFiles();
  OutputFiles(const OutputFiles&) = delete;
  OutputFiles& operator=(const OutputFiles&) = delete;

  void add(const std::filesystem::path& target, std::string_view text);
  // The same, the text given piece by piece: `produce` is called once, now, with a Write to the
  // temporary (a file larger than memory is never held whole). An exception from `produce`
  // removes the temporary and passes on.
  void add(const std::filesystem::path& target, const std::function<void(const Write&)>& produce);

  // A folder that is one output: the returned folder, new and private beside `target`, becomes
  // `target` at commit() (what is added inside it with its final names included), swapped in
  // whole; whatever `target` held before is removed. `target` must be missing or a folder (not
  // a symbolic link to one), nor the current folder or one that holds it; the caller checks that
  // its content may go. Two runs into one folder never mix: it is one run's output or the other's.
  std::filesystem::path add_folder(const std::filesystem::path& target);

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
    HeldTemporary held;
  };
  struct Workspace {
    std::filesystem::path folder;
    std::unique_ptr<RemovedOnSignal> registration;
    HeldTemporary held;
  };
  std::vector<Staged> staged_;
  std::vector<Workspace> workspaces_;
  std::vector<Staged> folders_;
  std::string standard_output_;
  bool committed_ = false;
};

// One output file: OutputFiles with only `path`, committed.
void write_file_atomically(const std::filesystem::path& path, std::string_view text);

// Throws InputError when `target` exists and is not a regular file (OutputFiles refuses to replace it).
void check_replaceable(const std::filesystem::path& target);
// The same for a folder output (OutputFiles::add_folder): `target` must be missing or a folder,
// not a symbolic link to one.
void check_replaceable_folder(const std::filesystem::path& target);

}  // namespace roofcast
