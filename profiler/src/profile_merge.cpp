#include "roofcast/profiler/profile_merge.hpp"

#include <filesystem>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/formats/profile_json.hpp"

namespace roofcast::profiler {

using nlohmann::json;

std::vector<std::string> merge_labels(const std::vector<std::string>& files) {
  std::vector<std::string> labels;
  std::map<std::string, int> uses;
  for (const auto& file : files) {
    const std::string stem = std::filesystem::path(file).stem().string();
    const int use = ++uses[stem];
    labels.push_back(use == 1 ? stem : fmt::format("{}#{}", stem, use));
  }
  return labels;
}

json merge_profiles(const std::vector<ProfileToMerge>& profiles) {
  if (profiles.empty()) throw InputError("merge: no profiles given");
  json kernels = json::array();
  std::map<std::tuple<std::string, bool>, json> transfers;  // (kind, pinned) -> summed record
  std::set<std::string> devices;
  json inputs = json::array();
  json notes = json::array();
  json collector;
  std::map<std::string, json> other_copies;  // "memsets", "peer_copies": summed member by member
  double invocations = 0, measured_ms = 0;
  for (const auto& profile : profiles) {
    parse_kernel_profile(profile.text, profile.source);  // each input must be a kernel profile
    const json root = json::parse(profile.text);
    if (collector.is_null() && root.contains("collector")) collector = root["collector"];
    if (root.contains("reference_device") && root["reference_device"].is_string())
      devices.insert(root["reference_device"].get<std::string>());
    double file_ms = 0, file_invocations = 0;
    for (json kernel : root["kernels"]) {
      const std::string name = kernel["name"].get<std::string>();
      kernel["name"] = fmt::format("{} [{}]", name, profile.label);
      kernel["process"] = profile.label;
      if (kernel.contains("invocations") && kernel["invocations"].is_number())
        file_invocations += kernel["invocations"].get<double>();
      if (kernel.contains("measured_ms") && kernel["measured_ms"].is_number())
        file_ms += kernel["measured_ms"].get<double>();
      kernels.push_back(std::move(kernel));
    }
    for (const auto& transfer : root.value("transfers", json::array())) {
      const bool pinned = transfer.value("pinned", false);
      json& sum = transfers[{transfer["kind"].get<std::string>(), pinned}];
      if (sum.is_null()) sum = {{"kind", transfer["kind"]}, {"pinned", pinned}, {"count", 0.0}, {"bytes", 0.0}};
      sum["count"] = sum["count"].get<double>() + transfer["count"].get<double>();
      sum["bytes"] = sum["bytes"].get<double>() + transfer["bytes"].get<double>();
      if (transfer.contains("measured_ms"))
        sum["measured_ms"] = sum.value("measured_ms", 0.0) + transfer["measured_ms"].get<double>();
    }
    for (const char* key : {"memsets", "peer_copies"}) {
      if (!root.contains(key) || !root[key].is_object()) continue;
      json& sum = other_copies[key];
      if (sum.is_null()) sum = json::object();
      for (const auto& [member, value] : root[key].items())
        if (value.is_number()) sum[member] = sum.value(member, 0.0) + value.get<double>();
    }
    for (const auto& note : root.value("notes", json::array()))
      if (note.is_string()) notes.push_back(fmt::format("{}: {}", profile.label, note.get<std::string>()));
    inputs.push_back({{"process", profile.label}, {"file", profile.source}, {"kernels", root["kernels"].size()},
                      {"invocations", file_invocations}, {"measured_ms", file_ms}});
    invocations += file_invocations;
    measured_ms += file_ms;
  }
  json merged = {{"format", "roofcast-profile"}, {"version", 1}};
  if (devices.size() == 1) merged["reference_device"] = *devices.begin();
  if (devices.size() > 1)
    notes.push_back(fmt::format("the processes ran on different GPUs ({}); reference_device is left out",
                                printable(fmt::format("{}", fmt::join(devices, ", ")))));
  if (!collector.is_null()) merged["collector"] = collector;
  merged["merged"] = {{"profiles", inputs}, {"invocations", invocations}, {"measured_ms", measured_ms}};
  merged["kernels"] = kernels;
  if (!transfers.empty()) {
    json list = json::array();
    for (auto& [key, sum] : transfers) list.push_back(sum);
    merged["transfers"] = list;
  }
  for (auto& [key, sum] : other_copies) merged[key] = sum;
  if (!notes.empty()) merged["notes"] = notes;
  return merged;
}

}  // namespace roofcast::profiler
