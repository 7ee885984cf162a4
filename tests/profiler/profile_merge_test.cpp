#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/profiler/metric_set.hpp"
#include "roofcast/profiler/profile_merge.hpp"

using namespace roofcast::profiler;
using nlohmann::json;

namespace {

std::string rank_profile(double instructions, double ms, double h2d_bytes) {
  json counters;
  for (const auto& metric : metric_names(MetricSetName::thesis)) counters[metric] = instructions;
  json profile = {{"format", "roofcast-profile"},
                  {"version", 1},
                  {"reference_device", "NVIDIA H100 80GB HBM3"},
                  {"kernels", {{{"name", "step(float*)"}, {"invocations", 10}, {"measured_ms", ms}, {"counters", counters}},
                               {{"name", "sum(float*)"}, {"invocations", 1}, {"measured_ms", 0.5}, {"counters", counters}}}},
                  {"transfers", {{{"kind", "h2d"}, {"pinned", false}, {"count", 2}, {"bytes", h2d_bytes}, {"measured_ms", 0.1}}}},
                  {"memsets", {{"count", 1}, {"bytes", 64}, {"measured_ms", 0.01}}}};
  return profile.dump();
}

}  // namespace

TEST_CASE("merge keeps each process' kernels apart and sums the totals") {
  const auto labels = merge_labels({"out/app.0.json", "out/app.1.json", "other/app.0.json"});
  CHECK(labels == std::vector<std::string>{"app.0", "app.1", "app.0#2"});
  const json merged = merge_profiles({{"app.0", "app.0.json", rank_profile(100, 2.0, 1000)},
                                      {"app.1", "app.1.json", rank_profile(300, 3.0, 500)}});
  const auto profile = roofcast::parse_kernel_profile(merged.dump(), "merged.json");
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
}

TEST_CASE("merge refuses what is not a kernel profile, naming the file") {
  CHECK_THROWS_AS(merge_profiles({}), roofcast::InputError);
  CHECK_THROWS_WITH(merge_profiles({{"a", "a.json", rank_profile(1, 1, 1)}, {"b", "b.json", "{\"format\": 3"}}),
                    Catch::Contains("b.json"));
  CHECK_THROWS_WITH(merge_profiles({{"b", "b.json", R"({"format":"roofcast-profile","version":1,"kernels":[]})"}}),
                    Catch::Contains("b.json"));
}

TEST_CASE("merging profiles of different GPUs leaves reference_device out, with a note") {
  std::string other = rank_profile(1, 1, 1);
  json changed = json::parse(other);
  changed["reference_device"] = "NVIDIA H200";
  const json merged = merge_profiles({{"a", "a.json", rank_profile(1, 1, 1)}, {"b", "b.json", changed.dump()}});
  CHECK_FALSE(merged.contains("reference_device"));
  CHECK(merged["notes"].size() == 1);
}
