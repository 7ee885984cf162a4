#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace roofcast::profiler {

// One kernel profile to merge: its text and a label for its process (unique among the inputs).
struct ProfileToMerge {
  std::string label;   // e.g. the file's stem: "app.rank0"
  std::string source;  // the file, for errors
  std::string text;
};

// `roofcast merge`: the profiles of an application's processes (one file per MPI rank or
// worker) as one profile. Kernels stay apart per process: each becomes "NAME [label]" with
// "process": label (predict and rank then see every rank's kernels); the application's copies
// are summed per kind; "merged" holds the inputs and the summed invocations and measured time.
// Each input must parse as a kernel profile (InputError naming it otherwise).
nlohmann::json merge_profiles(const std::vector<ProfileToMerge>& profiles);

// Labels for files: their stems, made unique with "#2", "#3"... where stems repeat.
std::vector<std::string> merge_labels(const std::vector<std::string>& files);

}  // namespace roofcast::profiler
