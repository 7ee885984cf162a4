#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <iterator>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

using roofcast::testing::run_roofcast;

TEST_CASE("rank orders the thesis' devices by predicted time") {
  const auto result = run_roofcast({"rank", "--profile", "thesis-redblack", "--device", "GTX-480", "--device", "GTX-660",
                                    "--device", "GTX-960", "--device", "GTX-1060", "--device", "M2050", "--device",
                                    "K20c", "--format", "json"});
  REQUIRE(result.exit_code == 0);
  const auto devices = nlohmann::json::parse(result.out)["devices"];
  REQUIRE(devices.size() == 6);
  CHECK(devices[0]["device"] == "GTX-480");
  CHECK(devices[5]["device"] == "GTX-960");
  for (size_t i = 1; i < devices.size(); ++i)
    CHECK(devices[i]["kernels_ms"].get<double>() >= devices[i - 1]["kernels_ms"].get<double>());
}

TEST_CASE("split divides blocks by predicted speed and reports the ideal time") {
  // sor_red: GTX-480 20.414 ms, GTX-660 34.803 ms alone (thesis Table 5.6).
  const auto result = run_roofcast({"split", "--model", "thesis", "--profile", "thesis-redblack", "--kernel", "sor_red",
                                    "--device", "GTX-480", "--device", "GTX-660", "--blocks", "1000", "--format", "json"});
  REQUIRE(result.exit_code == 0);
  const auto split = nlohmann::json::parse(result.out);
  const double a = 20.41395, b = 34.80275;
  CHECK(split["ideal_ms"].get<double>() == Approx(1 / (1 / a + 1 / b)).epsilon(1e-5));
  CHECK(split["devices"][0]["blocks"] == 630);  // 1000 x (1/a) / (1/a + 1/b) = 630.3
  CHECK(split["devices"][1]["blocks"] == 370);
  // The split ends when the slower part does: GTX-660's 370 blocks take 34.803 x 0.370 ms.
  CHECK(split["rounded_ms"].get<double>() == Approx(std::max(a * 0.630, b * 0.370)).epsilon(1e-5));
}

TEST_CASE("split needs a known kernel and two devices") {
  CHECK(run_roofcast({"split", "--profile", "thesis-redblack", "--kernel", "nope", "--blocks", "10"}).exit_code == 1);
  const auto one = run_roofcast({"split", "--profile", "thesis-redblack", "--kernel", "sor_red", "--device", "GTX-480",
                                 "--blocks", "10"});
  CHECK(one.exit_code == 2);  // a usage error
  CHECK_THAT(one.err, Catch::Contains("at least two devices"));
}

TEST_CASE("rank draws its chart and names every device in it") {
  const std::string svg = roofcast::testing::temporary_file("rank.svg", "");
  const auto result = run_roofcast({"rank", "--profile", "thesis-redblack", "--all-devices", "--chart", svg});
  REQUIRE(result.exit_code == 0);
  std::ifstream in(svg);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(text, Catch::StartsWith("<?xml"));
  for (const char* name : {"GTX-480", "GTX-660", "GTX-960", "GTX-1060 6GB", "Tesla M2050", "Tesla K20c", "20.41 ms"})
    CHECK_THAT(text, Catch::Contains(name));
}

TEST_CASE("rank adds a profile's copies with the device's transfer fits") {
  const std::string profile = roofcast::testing::temporary_file("app.json", R"({
    "format": "roofcast-profile", "version": 1,
    "kernels": [{"name": "k", "parameters": {"K_type": "fp32", "W_comp": 1e9, "W_traf": 0, "E_mix": 1, "D_ops": 1, "D_ldst": 0}}],
    "transfers": [{"kind": "h2d", "pinned": true, "count": 4, "bytes": 1e9}] })");
  const std::string device = roofcast::testing::temporary_file("gpu.json", R"({
    "format": "roofcast-device", "version": 1, "name": "G",
    "throughput": {"fp32_gflops": 1000, "fp64_gflops": 500, "int32_mad_giops": 250, "int32_add_giops": 500,
                   "shared_ldst_gops": 250, "dram_gbps": 100},
    "transfers": {"h2d_pinned": {"bandwidth_gbps": 50, "latency_us": 10}} })");
  const auto result = run_roofcast({"rank", "--profile", profile, "--device", device, "--format", "json"});
  REQUIRE(result.exit_code == 0);
  const auto rank = nlohmann::json::parse(result.out)["devices"][0];
  CHECK(rank["kernels_ms"].get<double>() == Approx(1.0));
  CHECK(rank["transfers_ms"].get<double>() == Approx(20.04));  // 4 x 10 us + 1e9 B / 50 GB/s
  CHECK(rank["total_ms"].get<double>() == Approx(21.04));
  REQUIRE(rank["transfers"].size() == 1);
  CHECK(rank["transfers"][0]["key"] == "h2d_pinned");
  CHECK(rank["transfers"][0]["predicted_ms"].get<double>() == Approx(20.04));
  CHECK(rank["transfers"][0]["measured_ms"].is_null());
}

TEST_CASE("split takes the grid the profile recorded, and asks for it when unknown") {
  const std::string profile = roofcast::testing::temporary_file("shaped.json", R"({
    "format": "roofcast-profile", "version": 1,
    "kernels": [{"name": "k", "launch_shapes": [{"grid": [100, 2, 1], "block": [256, 1, 1], "invocations": 3}],
                 "parameters": {"K_type": "fp32", "W_comp": 1e9, "W_traf": 1e6, "E_mix": 1, "D_ops": 1, "D_ldst": 0}}] })");
  const auto result = run_roofcast({"split", "--profile", profile, "--kernel", "k", "--device", "GTX-480", "--device",
                                    "GTX-1060 6GB", "--format", "json"});
  REQUIRE(result.exit_code == 0);
  CHECK(nlohmann::json::parse(result.out)["total_blocks"] == 200);
  const auto unknown = run_roofcast({"split", "--profile", "thesis-redblack", "--kernel", "sor_red", "--device",
                                     "GTX-480", "--device", "GTX-660"});
  CHECK(unknown.exit_code == 1);
  CHECK_THAT(unknown.err, Catch::Contains("records 0 launch shapes of sor_red; give the grid size to split with --blocks"));
}
