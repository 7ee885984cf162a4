// `roofcast bench --complete` on the GPU: a fresh quick profile with keys taken out is completed
// by the characterizers of those keys only, on this GPU, and refused when it names another.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "roofcast/formats/files.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/model/bench_keys.hpp"
#include "run_command.hpp"

using nlohmann::json;
using roofcast::testing::run_roofcast;
namespace fs = std::filesystem;

namespace {

// One key of each of several characterizer groups, as a profile written before them lacks them.
const std::vector<std::string> kTakenOut = {"block_dispatch_gblocks", "latency_ffma_ns",  "latency_dram_warp_ns",
                                            "atomic_global_same_word_gops", "dram_elementwise_add_gbps",
                                            "dram_probe_gbps", "l2_gbps"};

json without_keys(json document, const std::vector<std::string>& keys) {
  for (const auto& key : keys)
    for (const char* object : {"throughput", "measurements", "theoretical", "fraction_of_theoretical"})
      if (document.contains(object)) document[object].erase(key);
  return document;
}

void write(const fs::path& path, const json& document) { std::ofstream(path) << document.dump(2) << "\n"; }

}  // namespace

TEST_CASE("roofcast bench --complete measures what a profile lacks, on the GPU that measured it") {
  const fs::path folder = roofcast::testing::temporary_folder();
  const fs::path fresh = folder / "fresh.json";
  const auto bench = run_roofcast({"bench", "--quick", "--output", fresh.string()});
  INFO(bench.out << bench.err);
  REQUIRE(bench.exit_code == 0);
  const json measured = json::parse(roofcast::read_text_file(fresh));

  const fs::path stripped = folder / "stripped.json";
  const json older = without_keys(measured, kTakenOut);
  write(stripped, older);
  const fs::path completed = folder / "completed.json";
  const auto run = run_roofcast({"bench", "--quick", "--complete", stripped.string(), "--output", completed.string()});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  CHECK_THAT(run.err, Catch::Contains(" lacks ") && Catch::Contains("block_dispatch_gblocks"));
  CHECK(roofcast::read_text_file(stripped) == older.dump(2) + "\n");  // the input stays as it was

  const std::string text = roofcast::read_text_file(completed);
  const json document = json::parse(text);
  CHECK(roofcast::missing_bench_keys(roofcast::parse_device_profile(text, completed.string())).empty());
  for (const auto& key : kTakenOut) {
    INFO(key);
    CHECK(document["throughput"][key].get<double>() > 0);
    CHECK(document["measurements"][key]["verified"] == true);
  }
  // Every key the stripped profile had keeps its value.
  for (const auto& [key, value] : older["throughput"].items()) {
    INFO(key);
    CHECK(document["throughput"][key] == value);
  }
  REQUIRE(document["provenance"]["completions"].size() == 1);
  const json& record = document["provenance"]["completions"][0];
  CHECK(record["groups"] == json::array({"atomics", "L1 and L2", "DRAM", "DRAM latency", "arithmetic latency",
                                         "memory latency", "launch overhead"}));
  for (const auto& key : kTakenOut) {
    INFO(key);
    CHECK(std::count(record["keys_added"].begin(), record["keys_added"].end(), json(key)) == 1);
  }
  CHECK_THAT(record["command"].get<std::string>(), Catch::StartsWith("roofcast bench") && Catch::Contains("--complete"));
  CHECK(document["provenance"]["command"] == measured["provenance"]["command"]);

  // Another GPU's profile is refused before anything runs, and nothing is written.
  json other = older;
  other["device"]["name"] = "Another GPU";
  const fs::path foreign = folder / "foreign.json";
  write(foreign, other);
  const auto refused = run_roofcast({"bench", "--quick", "--complete", foreign.string(), "--output",
                                     (folder / "never.json").string()});
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Catch::Contains("measured on Another GPU"));
  CHECK_FALSE(fs::exists(folder / "never.json"));

  // Without --output the profile itself is completed in place.
  const auto in_place = run_roofcast({"bench", "--quick", "--complete", stripped.string()});
  INFO(in_place.out << in_place.err);
  REQUIRE(in_place.exit_code == 0);
  CHECK(json::parse(roofcast::read_text_file(stripped))["throughput"].contains("block_dispatch_gblocks"));
  fs::remove_all(folder);
}
