// Derived devices on the command line: `devices --from-spec` and `--specs`, `--device spec:ID`
// in every command, `rank --all-gpus` listing measured and derived devices with the derived ones
// marked in the table, the JSON and the chart, and one-line errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

using roofcast::testing::run_roofcast;

TEST_CASE("devices --from-spec prints a derived profile that --device takes back") {
  const auto table = run_roofcast({"devices", "--from-spec", "a100-sxm-80gb"});
  INFO(table.err);
  REQUIRE(table.exit_code == 0);
  CHECK_THAT(table.out, Catch::Contains("NVIDIA A100 SXM4 80GB (derived) (--device spec:a100-sxm-80gb): derived, not measured"));
  CHECK_THAT(table.out, Catch::Contains("the nearest measured architecture (sm_90 for sm_80)"));
  CHECK_THAT(table.out, Catch::Contains("dram_read_gbps"));

  const std::string file = (roofcast::testing::temporary_folder() / "a100.json").string();
  const auto written = run_roofcast({"devices", "--from-spec", "spec:a100-sxm-80gb", "--output", file});
  INFO(written.err);
  REQUIRE(written.exit_code == 0);
  const auto document = nlohmann::json::parse(roofcast::testing::file_text(file));
  CHECK(document["format"] == "roofcast-device");
  CHECK(document["provenance"]["derived"]["spec"] == "a100-sxm-80gb");
  CHECK(document["provenance"]["derived"]["fractions_from"] == "h100-sxm");

  // The file and the spec name predict the same.
  const auto by_file = run_roofcast({"predict", "--profile", "thesis-rodinia", "--device", file, "--format", "json"});
  const auto by_name =
      run_roofcast({"predict", "--profile", "thesis-rodinia", "--device", "spec:a100-sxm-80gb", "--format", "json"});
  REQUIRE(by_file.exit_code == 0);
  REQUIRE(by_name.exit_code == 0);
  const auto a = nlohmann::json::parse(by_file.out), b = nlohmann::json::parse(by_name.out);
  CHECK(a["predictions"][0]["device"] == "NVIDIA A100 SXM4 80GB (derived)");
  CHECK(a["totals"][0]["predicted_ms"] == b["totals"][0]["predicted_ms"]);

  // A bare spec id is taken too where no measured device has that name; a measured id stays measured.
  const auto bare = run_roofcast({"predict", "--profile", "thesis-rodinia", "--device", "a100-sxm-80gb", "--device",
                                  "h100-sxm", "--format", "json"});
  INFO(bare.err);
  REQUIRE(bare.exit_code == 0);
  const auto c = nlohmann::json::parse(bare.out);
  CHECK(c["totals"][0]["predicted_ms"] == b["totals"][0]["predicted_ms"]);
  CHECK_THAT(bare.out, Catch::Contains("NVIDIA H100 80GB HBM3\""));
  CHECK_THAT(bare.out, !Catch::Contains("H100 SXM5 80GB (derived)"));
}

TEST_CASE("devices --specs lists the table's GPUs and what each would be derived from") {
  const auto listed = run_roofcast({"devices", "--specs"});
  INFO(listed.err);
  REQUIRE(listed.exit_code == 0);
  CHECK_THAT(listed.out, Catch::Contains("spec:mi300x"));
  CHECK_THAT(listed.out, Catch::Contains("spec:h200-sxm"));
  CHECK_THAT(listed.out, Catch::Contains("h200-sxm (the same GPU)"));
}

TEST_CASE("rank --all-gpus lists measured and derived devices, the derived ones marked") {
  const auto folder = roofcast::testing::temporary_folder();
  const std::string chart = (folder / "rank.svg").string();
  const auto ranked = run_roofcast({"rank", "--profile", "thesis-rodinia", "--all-gpus", "--format", "json"});
  INFO(ranked.err);
  REQUIRE(ranked.exit_code == 0);
  int measured = 0, derived = 0;
  std::set<std::string> ids;
  const auto document = nlohmann::json::parse(ranked.out);  // held: a loop over a temporary's member dangles
  for (const auto& device : document["devices"]) {
    const std::string name = device["device"];
    // Every device keeps the id --device takes (a measured one's once had none, and the chart
    // then labelled both measured GPUs with the first one's name).
    CHECK_FALSE(device["device_id"].get<std::string>().empty());
    ids.insert(device["device_id"].get<std::string>());
    if (device["derived"]) {
      ++derived;
      CHECK_THAT(name, Catch::EndsWith("(derived)"));
    } else {
      ++measured;
      CHECK_THAT(name, !Catch::Contains("derived"));
    }
  }
  CHECK(measured == 2);  // the H100 and H200 of data/devices/measured, not their partitions nor the thesis' GPUs
  CHECK(derived == 13);  // every GPU of the spec table but those two
  CHECK(ids.size() == document["devices"].size());
  CHECK(ids.contains("h100-sxm"));
  CHECK(ids.contains("h200-sxm"));

  const auto text = run_roofcast({"rank", "--profile", "thesis-rodinia", "--all-gpus", "--chart", chart});
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("(derived): a device profile derived from the GPU's spec sheet"));
  const std::string svg = roofcast::testing::file_text(chart);
  CHECK_THAT(svg, Catch::Contains("derived from a spec sheet, not measured"));
  CHECK_THAT(svg, Catch::Contains("NVIDIA H100 80GB HBM3"));
  CHECK_THAT(svg, Catch::Contains("NVIDIA H200"));
}

TEST_CASE("devices --from-spec takes a partition in the forms --device takes") {
  const auto bare = run_roofcast({"devices", "--from-spec", "a100-sxm-80gb-mps50", "--format", "json"});
  const auto prefixed = run_roofcast({"devices", "--from-spec", "SPEC:a100-sxm-80gb-mps50", "--format", "json"});
  const auto option = run_roofcast({"devices", "--from-spec", "a100-sxm-80gb", "--mps", "50", "--format", "json"});
  const auto both = run_roofcast({"devices", "--from-spec", "a100-sxm-80gb-mps50", "--mps", "50", "--format", "json"});
  for (const auto* result : {&bare, &prefixed, &option, &both}) {
    INFO(result->err);
    REQUIRE(result->exit_code == 0);
  }
  const auto document = nlohmann::json::parse(bare.out);
  CHECK(document["name"] == "NVIDIA A100 SXM4 80GB (MPS 50%) (derived)");
  CHECK(document["device"]["sm_count"] == 54);
  CHECK(nlohmann::json::parse(prefixed.out) == document);
  CHECK(nlohmann::json::parse(option.out)["device"] == document["device"]);
  CHECK(nlohmann::json::parse(both.out)["device"] == document["device"]);
}

TEST_CASE("bad spec names are refused in one line") {
  for (const std::vector<std::string>& arguments :
       {std::vector<std::string>{"predict", "--profile", "thesis-redblack", "--device", "spec:h300"},
        {"predict", "--profile", "thesis-redblack", "--device", "spec:h100-sxm-mpsx"},
        {"devices", "--from-spec", "mi300x", "--mps", "50"},
        {"devices", "--from-spec", "a100-sxm-80gb-mps50", "--mps", "25"},
        {"devices", "--from-spec", "spec:", "--format", "json"},
        {"devices", "--from-spec", "a100-sxm-80gb", "--fractions-from", "nope"}}) {
    const auto result = run_roofcast(arguments);
    INFO(arguments[3] << " " << result.err);
    CHECK(result.exit_code == 1);
    CHECK(result.out.empty());
    CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  }
}
