#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "roofcast/formats/printable_text.hpp"
#include "roofcast/profiler/profile_merge.hpp"

namespace roofcast::profiler {

namespace {

// A file's stem as a label: printable, with no '[' or ']' (they would make "NAME [label]" ambiguous).
std::string stem_label(const std::string& file) {
  std::string label = printable(std::filesystem::path(file).stem().string());
  for (char& c : label) {
    if (c == '[') c = '(';
    if (c == ']') c = ')';
  }
  return label.empty() ? "profile" : label;
}

}  // namespace

std::vector<std::string> merge_labels(const std::vector<std::string>& files) {
  std::vector<std::string> stems;
  for (const auto& file : files) stems.push_back(stem_label(file));
  const std::set<std::string> every_stem(stems.begin(), stems.end());
  std::set<std::string> taken;
  std::vector<std::string> labels;
  for (const auto& stem : stems) {
    // A repeated stem numbers on, past the labels other files hold as their own stem.
    std::string label = stem;
    for (int n = 2; taken.contains(label) || (label != stem && every_stem.contains(label)); ++n)
      label = fmt::format("{}#{}", stem, n);
    taken.insert(label);
    labels.push_back(label);
  }
  return labels;
}

}  // namespace roofcast::profiler
