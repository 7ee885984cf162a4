#include <catch2/catch.hpp>

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/profiler/metric_set.hpp"
#include "roofcast/profiler/profile_merge.hpp"

using namespace roofcast::profiler;
using nlohmann::json;

namespace {

json rank_profile_json(double instructions, double ms, double h2d_bytes) {
  json counters;
  for (const auto& metric : metric_names(MetricSetName::thesis)) counters[metric] = instructions;
  return {{"format", "roofcast-profile"},
          {"version", 1},
          {"reference_device", "NVIDIA H100 80GB HBM3"},
          {"kernels", {{{"name", "step(float*)"}, {"invocations", 10}, {"measured_ms", ms}, {"counters", counters}},
                       {{"name", "sum(float*)"}, {"invocations", 1}, {"measured_ms", 0.5}, {"counters", counters}}}},
          {"transfers", {{{"kind", "h2d"}, {"pinned", false}, {"count", 2}, {"bytes", h2d_bytes}, {"measured_ms", 0.1}}}},
          {"memsets", {{"count", 1}, {"bytes", 64}, {"measured_ms", 0.01}}}};
}

std::string rank_profile(double instructions, double ms, double h2d_bytes) {
  return rank_profile_json(instructions, ms, h2d_bytes).dump();
}

// The merged text, checked as every command reads it.
json merged_json(const std::vector<ProfileToMerge>& profiles) {
  const std::string text = merge_profiles(profiles);
  roofcast::parse_kernel_profile(text, "merged.json");
  return json::parse(text);
}

// Every value of `value`, recursively, is something other than null.
bool holds_null(const json& value) {
  if (value.is_null()) return true;
  if (value.is_structured())
    for (const auto& item : value) if (holds_null(item)) return true;
  return false;
}

}  // namespace

TEST_CASE("merge keeps each process' kernels apart and sums the totals") {
  const std::string a = rank_profile(100, 2.0, 1000), b = rank_profile(300, 3.0, 500);
  const std::string text = merge_profiles({{"app.0", "app.0.json", a}, {"app.1", "app.1.json", b}});
  const auto profile = roofcast::parse_kernel_profile(text, "merged.json");
  const json merged = json::parse(text);
  REQUIRE(profile.kernels.size() == 4);
  CHECK(profile.kernels[0].name == "step(float*) [app.0]");
  CHECK(profile.kernels[2].name == "step(float*) [app.1]");
  CHECK(merged["kernels"][2]["process"] == "app.1");
  CHECK(profile.reference_device == "NVIDIA H100 80GB HBM3");
  REQUIRE(profile.transfers.size() == 1);
  CHECK(profile.transfers[0].count == 4);
  CHECK(profile.transfers[0].bytes == 1500);
  CHECK(merged["memsets"]["count"] == 2.0);
  CHECK(merged["merged"]["invocations"] == 22.0);
  CHECK(merged["merged"]["measured_ms"] == Approx(6.0));
  CHECK(merged["merged"]["profiles"].size() == 2);
  CHECK_FALSE(holds_null(merged));
  // One kernel per line: a file of a million kernels stays greppable.
  CHECK(text.find("\n    {\"counters\"") != std::string::npos);
}

TEST_CASE("merge labels are unique by construction, whatever the file names") {
  CHECK(merge_labels({"out/app.0.json", "out/app.1.json", "other/app.0.json"}) ==
        std::vector<std::string>{"app.0", "app.1", "app.0#2"});
  // A stem that repeats skips the numbers other files' stems hold (issue 27).
  CHECK(merge_labels({"x/a.json", "y/a.json", "a#2.json"}) == std::vector<std::string>{"a", "a#3", "a#2"});
  CHECK(merge_labels({"a#2.json", "x/a.json", "y/a.json", "z/a.json", "a#3.json"}) ==
        std::vector<std::string>{"a#2", "a", "a#4", "a#5", "a#3"});
  // Brackets would make "NAME [label]" ambiguous; control bytes are shown, not kept.
  CHECK(merge_labels({"r[1].json", "r(1).json", "\x1b.json", ".json"}) ==
        std::vector<std::string>{"r(1)", "r(1)#2", "\\x1b", ".json"});
  CHECK(merge_labels({"dir/"}) == std::vector<std::string>{"profile"});

  // The three files of the issue merge into six distinct kernels.
  const std::vector<std::string> files = {"x/a.json", "y/a.json", "a#2.json"};
  const auto labels = merge_labels(files);
  const std::string profile = rank_profile(1, 1, 1);
  std::vector<ProfileToMerge> inputs;
  for (size_t i = 0; i < files.size(); ++i) inputs.push_back({labels[i], files[i], profile});
  CHECK(roofcast::parse_kernel_profile(merge_profiles(inputs), "m.json").kernels.size() == 6);
  // A label the merger cannot keep apart is the caller's mistake, not the input's.
  CHECK_THROWS_AS(merge_profiles({{"a", "1.json", profile}, {"a", "2.json", profile}}), std::invalid_argument);
  CHECK_THROWS_AS(merge_profiles({{"a]", "1.json", profile}}), std::invalid_argument);
}

TEST_CASE("merge refuses what is not a kernel profile, naming the file") {
  CHECK_THROWS_AS(merge_profiles({}), roofcast::InputError);
  CHECK_THROWS_WITH(merge_profiles({{"a", "a.json", rank_profile(1, 1, 1)}, {"b", "b.json", "{\"format\": 3"}}),
                    Catch::Contains("b.json"));
  CHECK_THROWS_WITH(merge_profiles({{"b", "b.json", R"({"format":"roofcast-profile","version":1,"kernels":[]})"}}),
                    Catch::Contains("b.json"));
}

TEST_CASE("sums beyond what a profile holds are an error naming the input and the field, never null") {
  json big = rank_profile_json(1, 1, 6e19);
  const std::string a = rank_profile(1, 1, 6e19);
  CHECK_THROWS_WITH(merge_profiles({{"a", "a.json", a}, {"b", "b.json", big.dump()}}),
                    "b.json: transfers[0].bytes: with the profiles merged before it, the sum is 1.2e+20, more than "
                    "1e+20, the most a profile holds");
  json memsets = rank_profile_json(1, 1, 1);
  memsets["memsets"]["bytes"] = 1e300;  // no reader reads memsets: merge holds them to the same range
  CHECK_THROWS_WITH(merge_profiles({{"a", "a.json", memsets.dump()}}),
                    Catch::StartsWith("a.json: memsets.bytes: must be 0 or between"));
  memsets["memsets"]["bytes"] = 9e19;
  CHECK_THROWS_WITH(merge_profiles({{"a", "a.json", memsets.dump()}, {"b", "b.json", memsets.dump()}}),
                    Catch::StartsWith("b.json: memsets.bytes: with the profiles merged before it, the sum is 1.8e+20"));
  memsets["memsets"]["bytes"] = "64";
  CHECK_THROWS_WITH(merge_profiles({{"a", "a.json", memsets.dump()}}),
                    Catch::StartsWith("a.json: memsets.bytes: expected a number"));
}

TEST_CASE("a merged profile is not merged again: its kernels would be labelled twice") {
  const std::string merged = merge_profiles({{"in1", "in1.json", rank_profile(1, 1, 1)}});
  CHECK_THROWS_WITH(merge_profiles({{"in1", "in1.json", merged}, {"in2", "in2.json", rank_profile(1, 1, 1)}}),
                    Catch::StartsWith("in1.json: is a merged profile already"));
}

TEST_CASE("merge reads each input as the profile reader does: the last of a repeated key, other members skipped") {
  json counters;
  for (const auto& metric : metric_names(MetricSetName::thesis)) counters[metric] = 1;
  const std::string first = json{{"name", "old"}, {"counters", counters}}.dump();
  const std::string second = json{{"name", "new"}, {"counters", counters}, {"launches", {{{"ms", 1}}}}}.dump();
  const std::string text = R"({"format": "roofcast-profile", "version": 1, "kernels": [)" + first +
                           R"(], "tool": {"bulk": [1, 2, 3]}, "kernels": [)" + second + "]}";
  const json merged = merged_json({{"a", "a.json", text}});
  REQUIRE(merged["kernels"].size() == 1);
  CHECK(merged["kernels"][0]["name"] == "new [a]");
  CHECK(merged["kernels"][0]["launches"][0]["ms"] == 1);  // what the kernel carries stays
  CHECK_FALSE(merged.contains("tool"));
}

TEST_CASE("merging profiles of different GPUs leaves reference_device out, with a note") {
  json changed = rank_profile_json(1, 1, 1);
  changed["reference_device"] = "NVIDIA H200";
  const json merged = merged_json({{"a", "a.json", rank_profile(1, 1, 1)}, {"b", "b.json", changed.dump()}});
  CHECK_FALSE(merged.contains("reference_device"));
  CHECK(merged["notes"].size() == 1);
}
