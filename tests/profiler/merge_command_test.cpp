// `roofcast merge` as a user runs it (issue 27): labels, errors that name the input, sums
// beyond the range, the output among the inputs, merged profiles merged again.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "roofcast/formats/files.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/profiler/metric_set.hpp"
#include "run_command.hpp"
#include "test_files.hpp"

using nlohmann::json;
using roofcast::testing::file_text;
using roofcast::testing::run_roofcast;
namespace fs = std::filesystem;

namespace {

json rank_profile(double h2d_bytes = 1000) {
  json counters;
  for (const auto& metric : roofcast::profiler::metric_names(roofcast::profiler::MetricSetName::thesis))
    counters[metric] = 100;
  return {{"format", "roofcast-profile"},
          {"version", 1},
          {"reference_device", "NVIDIA H100 80GB HBM3"},
          {"kernels", {{{"name", "sgemm"}, {"invocations", 2}, {"measured_ms", 1.5}, {"counters", counters}}}},
          {"transfers", {{{"kind", "h2d"}, {"pinned", true}, {"count", 1}, {"bytes", h2d_bytes}}}},
          {"memsets", {{"count", 1}, {"bytes", 64}}}};
}

void write(const fs::path& path, const json& profile) {
  fs::create_directories(path.parent_path());
  std::ofstream(path) << profile.dump();
}

// What a file holds, to check that a refused merge left it alone ("" when it is missing).
std::string held(const fs::path& path) { return fs::exists(path) ? file_text(path) : ""; }

}  // namespace

TEST_CASE("merge: files whose stems collide (x/a.json, y/a.json, a#2.json) merge, each kernel labelled apart") {
  const fs::path folder = roofcast::testing::fresh_folder("merge-labels");
  for (const char* file : {"x/a.json", "y/a.json", "a#2.json"}) write(folder / file, rank_profile());
  const fs::path out = folder / "m.json";
  const auto result = run_roofcast({"merge", (folder / "x/a.json").string(), (folder / "y/a.json").string(),
                                    (folder / "a#2.json").string(), "-o", out.string()});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.err == "roofcast merge: 3 kernels of 3 profiles -> " + out.string() + "\n");
  const auto profile = roofcast::parse_kernel_profile(file_text(out), out.string());
  REQUIRE(profile.kernels.size() == 3);
  CHECK(profile.kernels[0].name == "sgemm [a]");
  CHECK(profile.kernels[1].name == "sgemm [a#3]");
  CHECK(profile.kernels[2].name == "sgemm [a#2]");
  const auto predicted = run_roofcast({"predict", "--profile", out.string(), "--device", "GTX-660", "--format", "csv"});
  INFO(predicted.err);
  CHECK(predicted.exit_code == 0);
  // Without -o the merged profile goes to standard output.
  const auto printed = run_roofcast({"merge", (folder / "x/a.json").string(), (folder / "a#2.json").string()});
  REQUIRE(printed.exit_code == 0);
  CHECK(roofcast::parse_kernel_profile(printed.out, "stdout").kernels.size() == 2);
}

TEST_CASE("merge: an error names the input it comes from, never the output that was not written") {
  const fs::path folder = roofcast::testing::fresh_folder("merge-errors");
  write(folder / "good.json", rank_profile());
  json bad = rank_profile();
  bad["kernels"][0]["invocations"] = -1;
  write(folder / "bad.json", bad);
  const fs::path out = folder / "m.json";
  const auto result =
      run_roofcast({"merge", (folder / "good.json").string(), (folder / "bad.json").string(), "-o", out.string()});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::StartsWith("roofcast: " + (folder / "bad.json").string() + ": kernels[0]"));
  CHECK(result.err.find("m.json") == std::string::npos);
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("merge: copies that add up beyond what a profile holds are an error naming the input and field") {
  const fs::path folder = roofcast::testing::fresh_folder("merge-sums");
  write(folder / "a.json", rank_profile(6e19));
  write(folder / "b.json", rank_profile(6e19));
  json memsets = rank_profile();
  memsets["memsets"]["bytes"] = 1e300;
  write(folder / "c.json", memsets);
  const fs::path out = folder / "m.json";
  const auto transfers =
      run_roofcast({"merge", (folder / "a.json").string(), (folder / "b.json").string(), "-o", out.string()});
  CHECK(transfers.exit_code == 1);
  CHECK(transfers.err == "roofcast: " + (folder / "b.json").string() +
                             ": transfers[0].bytes: with the profiles merged before it, the sum is 1.2e+20, more than "
                             "1e+20, the most a profile holds\n");
  const auto memset_sum =
      run_roofcast({"merge", (folder / "a.json").string(), (folder / "c.json").string(), "-o", out.string()});
  CHECK(memset_sum.exit_code == 1);
  CHECK_THAT(memset_sum.err, Catch::StartsWith("roofcast: " + (folder / "c.json").string() + ": memsets.bytes: "));
  CHECK_FALSE(fs::exists(out));
  // To standard output: nothing printed, no null where a number belongs.
  const auto printed = run_roofcast({"merge", (folder / "a.json").string(), (folder / "c.json").string()});
  CHECK(printed.exit_code == 1);
  CHECK(printed.out.empty());
}

TEST_CASE("merge: -o naming an input is refused, and a merged profile is not merged again") {
  const fs::path folder = roofcast::testing::fresh_folder("merge-inputs");
  write(folder / "in1.json", rank_profile());
  write(folder / "in2.json", rank_profile());
  const std::string in1 = (folder / "in1.json").string(), in2 = (folder / "in2.json").string();
  const std::string before = held(in1);
  const auto same = run_roofcast({"merge", in1, in2, "-o", in1});
  CHECK(same.exit_code == 1);
  CHECK(same.err == "roofcast: merge: -o " + in1 + " is also an input (" + in1 +
                        "): the merged profile would replace it; give another file\n");
  CHECK(held(in1) == before);
  // The same file by another path.
  const auto other_path = run_roofcast({"merge", in1, in2, "-o", (folder / "." / "in2.json").string()});
  CHECK(other_path.exit_code == 1);
  CHECK_THAT(other_path.err, Catch::Contains("is also an input"));

  const fs::path merged = folder / "merged.json";
  REQUIRE(run_roofcast({"merge", in1, in2, "-o", merged.string()}).exit_code == 0);
  const std::string merged_text = held(merged);
  const auto again = run_roofcast({"merge", merged.string(), in2, "-o", (folder / "again.json").string()});
  CHECK(again.exit_code == 1);
  CHECK_THAT(again.err, Catch::StartsWith("roofcast: " + merged.string() + ": is a merged profile already"));
  CHECK_FALSE(fs::exists(folder / "again.json"));
  CHECK(merged_text.find("[in1] [in1]") == std::string::npos);
}
