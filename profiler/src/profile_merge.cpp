#include "roofcast/profiler/profile_merge.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/input_limits.hpp"
#include "roofcast/formats/json_field.hpp"
#include "roofcast/formats/json_text.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/model/transfers.hpp"

namespace roofcast::profiler {

namespace {

using nlohmann::json;

// The top-level members merge reads besides the kernels; every other member of an input
// (provenance, a large field of a tool's own) is skipped by the parser, never built as a tree.
bool merge_reads(const std::string& key) {
  return key == "kernels" || key == "reference_device" || key == "collector" || key == "memsets" ||
         key == "peer_copies" || key == "notes";
}

// What one input gives the merged profile, read from its text without a tree of its kernels.
struct InputParts {
  std::string kernels;  // its kernels, renamed, one per line, ",\n" between them
  size_t kernel_count = 0;
  bool is_merged = false;  // it has "merged": made by roofcast merge
  json others;             // the members merge_reads() names, but for the kernels
};

json kernel_with_process(json kernel, const std::string& label) {
  kernel["name"] = fmt::format("{} [{}]", kernel["name"].get<std::string>(), label);
  kernel["process"] = label;
  return kernel;
}

InputParts read_input_parts(const ProfileToMerge& profile, size_t expected_kernels) {
  InputParts parts;
  parts.kernels.reserve(profile.text.size() + expected_kernels * (2 * profile.label.size() + 32));
  std::string top_level_key;
  bool in_kernels = false;
  auto read = [&](int depth, json::parse_event_t event, json& parsed) {
    if (depth == 1 && event == json::parse_event_t::key) {
      top_level_key = parsed.get<std::string>();
      if (top_level_key == "merged") parts.is_merged = true;
      return merge_reads(top_level_key);
    }
    if (depth == 1 && event == json::parse_event_t::array_start) {
      in_kernels = top_level_key == "kernels";
      if (in_kernels) {  // a repeated key: the last one counts, as in the profile reader
        parts.kernels.clear();
        parts.kernel_count = 0;
      }
    }
    if (depth == 1 && event == json::parse_event_t::array_end) in_kernels = false;
    if (!in_kernels || depth != 2 || event != json::parse_event_t::object_end) return true;
    parts.kernels += parts.kernel_count == 0 ? "    " : ",\n    ";
    parts.kernels += kernel_with_process(std::move(parsed), profile.label)
                         .dump(-1, ' ', false, json::error_handler_t::replace);
    ++parts.kernel_count;
    return false;  // written: dropped from the tree
  };
  json document = parse_json_document(profile.text, profile.source, read);
  document.erase("kernels");
  parts.others = std::move(document);
  return parts;
}

// `sum` + `value`, refused (naming `source` and `field`) where it passes what a profile holds.
double checked_sum(double sum, double value, const std::string& source, const std::string& field) {
  const double total = sum + value;
  if (!(total <= input_limits::kLargest))
    throw InputError(fmt::format("{}: {}: with the profiles merged before it, the sum is {:g}, more than {:g}, the "
                                 "most a profile holds",
                                 source, field, total, input_limits::kLargest));
  return total;
}

void check_label(const std::string& label, const std::set<std::string>& used) {
  if (label.empty() || label.find_first_of("[]") != std::string::npos || printable(label) != label)
    throw std::invalid_argument(fmt::format("merge: label \"{}\" is empty or holds '[', ']' or unprintable bytes",
                                            printable(label)));
  if (used.contains(label)) throw std::invalid_argument(fmt::format("merge: label \"{}\" is given twice", label));
}

}  // namespace

ProfileMerger::ProfileMerger(Write write) : write_(std::move(write)) {}

void ProfileMerger::add(const ProfileToMerge& profile) {
  check_label(profile.label, labels_);
  // Checked as every command reads it: the errors name the input, never the merged file. Only
  // what merge needs of it is kept, so that the profile is gone before the kernels are read again.
  double file_invocations = 0, file_ms = 0;
  size_t kernel_count = 0;
  std::string reference_device;
  auto transfers = transfers_;
  {
    const KernelProfile parsed = parse_kernel_profile(profile.text, profile.source);
    for (const auto& kernel : parsed.kernels) {
      file_invocations += static_cast<double>(kernel.invocations);
      file_ms += kernel.measured_ms.value_or(0);
    }
    for (size_t i = 0; i < parsed.transfers.size(); ++i) {
      const TransferRecord& transfer = parsed.transfers[i];
      CopySum& sum = transfers[{std::string(to_string(transfer.kind)), transfer.pinned}];
      const std::string field = fmt::format("transfers[{}]", i);
      sum.count = checked_sum(sum.count, transfer.count, profile.source, field + ".count");
      sum.bytes = checked_sum(sum.bytes, transfer.bytes, profile.source, field + ".bytes");
      if (transfer.measured_ms)
        sum.measured_ms = checked_sum(sum.measured_ms.value_or(0), *transfer.measured_ms, profile.source,
                                      field + ".measured_ms");
    }
    kernel_count = parsed.kernels.size();
    reference_device = parsed.reference_device;
  }

  InputParts parts = read_input_parts(profile, kernel_count);
  if (parts.is_merged)
    throw InputError(fmt::format("{}: is a merged profile already (it has \"merged\"): merge the per-process profiles "
                                 "it was made from, or its kernels would be labelled twice",
                                 profile.source));
  auto other_copies = other_copies_;
  for (const char* key : {"memsets", "peer_copies"}) {
    if (!parts.others.contains(key)) continue;
    const Field copies(parts.others[key], profile.source, key);
    auto& sums = other_copies[key];
    for (const auto& item : copies.object().items()) {
      const Field member = copies.member(item.key());
      sums[item.key()] = checked_sum(sums[item.key()], member.non_negative(), profile.source, member.path());
    }
  }
  if (!std::isfinite(invocations_ + file_invocations) || !std::isfinite(measured_ms_ + file_ms))
    throw InputError(fmt::format("{}: the kernels' invocations or measured times add up beyond the double range",
                                 profile.source));

  // Nothing below refuses the input: it is merged whole or not at all.
  write_(kernels_written_ ? ",\n" : "{\n  \"format\": \"roofcast-profile\",\n  \"version\": 1,\n  \"kernels\": [\n");
  write_(parts.kernels);
  kernels_written_ = true;
  kernel_count_ += parts.kernel_count;
  labels_.insert(profile.label);
  transfers_ = std::move(transfers);
  other_copies_ = std::move(other_copies);
  if (!reference_device.empty()) devices_.insert(reference_device);
  if (collector_.is_null() && parts.others.contains("collector")) collector_ = parts.others["collector"];
  for (const auto& note : parts.others.value("notes", json::array()))
    if (note.is_string()) notes_.push_back(fmt::format("{}: {}", profile.label, note.get<std::string>()));
  inputs_.push_back({{"process", profile.label}, {"file", printable(profile.source)}, {"kernels", kernel_count},
                     {"invocations", file_invocations}, {"measured_ms", file_ms}});
  invocations_ += file_invocations;
  measured_ms_ += file_ms;
}

void ProfileMerger::finish() {
  if (!kernels_written_) throw InputError("merge: no profiles given");
  json rest = json::object();
  if (devices_.size() == 1) rest["reference_device"] = *devices_.begin();
  json notes = notes_;
  if (devices_.size() > 1)
    notes.push_back(fmt::format("the processes ran on different GPUs ({}); reference_device is left out",
                                printable(fmt::format("{}", fmt::join(devices_, ", ")))));
  if (!collector_.is_null()) rest["collector"] = collector_;
  rest["merged"] = {{"profiles", inputs_}, {"invocations", invocations_}, {"measured_ms", measured_ms_}};
  if (!transfers_.empty()) {
    json list = json::array();
    for (const auto& [key, sum] : transfers_) {
      json entry = {{"kind", std::get<0>(key)}, {"pinned", std::get<1>(key)}, {"count", sum.count},
                    {"bytes", sum.bytes}};
      if (sum.measured_ms) entry["measured_ms"] = *sum.measured_ms;
      list.push_back(std::move(entry));
    }
    rest["transfers"] = list;
  }
  for (const auto& [key, sums] : other_copies_) rest[key] = sums;
  if (!notes.empty()) rest["notes"] = notes;
  const std::string members = json_text(rest);  // "{\n  ...\n}\n"
  write_("\n  ],\n");
  write_(std::string_view(members).substr(2));
}

std::string merge_profiles(const std::vector<ProfileToMerge>& profiles) {
  std::string text;
  ProfileMerger merger([&](std::string_view piece) { text += piece; });
  for (const auto& profile : profiles) merger.add(profile);
  merger.finish();
  return text;
}

}  // namespace roofcast::profiler
