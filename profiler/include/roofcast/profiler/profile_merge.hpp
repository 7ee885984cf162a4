#pragma once

#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

namespace roofcast::profiler {

// One kernel profile to merge: its text and a label for its process.
struct ProfileToMerge {
  std::string label;      // from merge_labels: unique among the inputs, no '[' or ']'
  std::string source;     // the file, for errors
  std::string_view text;
};

// `roofcast merge`: the profiles of an application's processes (one file per MPI rank or
// worker) as one profile. Kernels stay apart per process: each becomes "NAME [label]" with
// "process": label (predict and rank then see every rank's kernels); the application's copies
// are summed per kind; "merged" holds the inputs and the summed invocations and measured time.
//
// The merged text is written as it is made, through `write`: each input's kernels (one per
// line) once that input is read, the other members at finish(). No input is ever held as a
// JSON tree (a profile of a million kernels is 300 MB as text and several GB as a tree), so
// a caller that drops each input's text after add() needs memory for about one input.
class ProfileMerger {
 public:
  using Write = std::function<void(std::string_view)>;
  explicit ProfileMerger(Write write);

  // Reads `profile` (it must parse as a kernel profile and not be a merged profile already)
  // and writes its kernels. Any problem, a sum of copies beyond what a profile holds among
  // them, is an InputError naming profile.source and the field; nothing is written then.
  // Throws std::invalid_argument for a label that is empty, holds '[' or ']', or was given before.
  void add(const ProfileToMerge& profile);

  // Writes the rest of the merged profile. InputError when no profile was added.
  void finish();

  size_t kernel_count() const { return kernel_count_; }

 private:
  struct CopySum {
    double count = 0, bytes = 0;
    std::optional<double> measured_ms;
  };
  Write write_;
  bool kernels_written_ = false;
  size_t kernel_count_ = 0;
  std::set<std::string> labels_;
  std::map<std::tuple<std::string, bool>, CopySum> transfers_;  // (kind, pinned)
  std::map<std::string, std::map<std::string, double>> other_copies_;  // "memsets", "peer_copies": member -> sum
  std::set<std::string> devices_;
  nlohmann::json inputs_ = nlohmann::json::array();
  nlohmann::json notes_ = nlohmann::json::array();
  nlohmann::json collector_;
  double invocations_ = 0, measured_ms_ = 0;
};

// The merged profile of `profiles` as one text (tests, the fuzz target).
std::string merge_profiles(const std::vector<ProfileToMerge>& profiles);

// Labels for files, unique by construction: each file's stem, printable (printable_text.hpp),
// with '[' and ']' as '(' and ')' ("profile" when empty); a stem that repeats gets "#2",
// "#3"... skipping any that is another file's stem (x/a.json, y/a.json, a#2.json: a, a#3, a#2).
// Kernel names "NAME [label]" then never collide: within a file names are unique, and the
// label after the last '[' tells the files apart.
std::vector<std::string> merge_labels(const std::vector<std::string>& files);

}  // namespace roofcast::profiler
