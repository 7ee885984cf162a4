#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofcast/formats/input_limits.hpp"

namespace roofcast {

// The one place where readers of roofcast's JSON formats turn a JSON document into checked
// values. Every error is an InputError naming the file and the field's path
// ("file.json: kernels[2] \"k\".counters.inst_executed: must be >= 0, found -1"), and every
// number is held to the ranges of input_limits.hpp.

// Parses `text`; an empty, broken or truncated document, or a number beyond the double range
// (1e400), is an InputError naming `source`. `callback`, when given, is nlohmann's parser
// callback: the profile reader reads each kernel with it as the parser reaches it.
nlohmann::json parse_json_document(std::string_view text, const std::string& source,
                                   const nlohmann::json::parser_callback_t& callback = nullptr);

// A JSON value together with where it sits.
class Field {
 public:
  Field(const nlohmann::json& value, std::string source, std::string path);

  [[noreturn]] void fail(std::string_view problem) const;

  const nlohmann::json& value() const { return value_; }
  const std::string& path() const { return path_; }
  const std::string& source() const { return source_; }

  bool has(const std::string& key) const { return value_.is_object() && value_.contains(key); }
  Field member(const std::string& key) const;  // InputError "missing" when absent
  Field element(size_t index) const;
  Field with_path(std::string path) const { return Field(value_, source_, std::move(path)); }

  const nlohmann::json& object() const;
  const nlohmann::json& array() const;
  std::string string() const;
  std::string non_empty_string() const;
  bool boolean() const;

  double number() const;        // any finite number
  double non_negative() const;  // 0, or in [kSmallest, kLargest]
  double positive() const;      // in [kSmallest, kLargest]
  double throughput() const;    // in [kMinThroughput, kMaxThroughput]
  // A whole number in [min, max].
  int64_t whole(double min, double max) const;
  int64_t count() const { return whole(1, input_limits::kMaxCount); }  // invocations

 private:
  std::string join(const std::string& key) const { return path_.empty() ? key : path_ + "." + key; }

  const nlohmann::json& value_;
  std::string source_;
  std::string path_;
};

// Checks `format` and `version` (a whole number from 1 to `supported_version`) and returns
// the root object.
Field check_header(const nlohmann::json& document, const std::string& source, std::string_view expected_format,
                   int supported_version);

// The kernel names of a list read so far. A name listed twice is an InputError naming both
// places: one kernel, one entry, its launches summed (docs/formats.md), in every file that
// lists kernels.
class KernelNames {
 public:
  // `name`, read from `entry`, the list's element `index`.
  void add(const std::string& name, size_t index, const Field& entry);

 private:
  std::map<std::string, size_t> first_index_;
};

// The entries of the array `kernels`, each read by `parse_entry` into a value with a `name`,
// no name listed twice (KernelNames).
template <typename ParseEntry>
auto parse_kernel_list(const Field& kernels, ParseEntry parse_entry) {
  std::vector<decltype(parse_entry(kernels))> result;
  KernelNames names;
  for (size_t i = 0; i < kernels.array().size(); ++i) {
    const Field entry = kernels.element(i);
    result.push_back(parse_entry(entry));
    names.add(result.back().name, i, entry);
  }
  return result;
}

}  // namespace roofcast
