// Devices given by name: one matching rule everywhere, the measured device profiles of data/
// usable by their id, and `roofcast --version`.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "roofcast/model/device_name.hpp"
#include "run_command.hpp"

using roofcast::testing::run_roofcast;
namespace fs = std::filesystem;

TEST_CASE("device names match by letters and digits, case ignored") {
  CHECK(roofcast::same_device_name("NVIDIA H200", "nvidia-h200"));
  CHECK(roofcast::same_device_name("GTX-1060 6GB", "gtx_1060_6gb"));
  CHECK(roofcast::same_device_name("NVIDIA H200 (MPS 25%)", "nvidia h200 mps25"));
  CHECK_FALSE(roofcast::same_device_name("NVIDIA H200", "NVIDIA H100"));
  CHECK_FALSE(roofcast::same_device_name("NVIDIA H200 (MPS 25%)", "NVIDIA H200"));
}

TEST_CASE("the measured device profiles of data/ are usable by name and listed by devices") {
  const auto listed = run_roofcast({"devices", "--format", "json"});
  REQUIRE(listed.exit_code == 0);
  bool h100 = false;
  for (const auto& device : nlohmann::json::parse(listed.out))
    if (device["id"] == "h100-sxm") h100 = device["name"] == "NVIDIA H100 80GB HBM3";
  CHECK(h100);

  const auto predicted = run_roofcast({"predict", "--profile", "thesis-redblack", "--device", "h100-sxm", "--format", "json"});
  INFO(predicted.err);
  REQUIRE(predicted.exit_code == 0);
  CHECK(nlohmann::json::parse(predicted.out)["predictions"][0]["device"] == "NVIDIA H100 80GB HBM3");
  // Any spelling of the id: the same rule as every other device name.
  CHECK(run_roofcast({"explain", "--profile", "thesis-redblack", "--device", "H100_SXM"}).exit_code == 0);

  // The one profile of that GPU's name is found by its name too.
  const auto by_name =
      run_roofcast({"predict", "--profile", "thesis-redblack", "--device", "NVIDIA H100 80GB HBM3", "--format", "json"});
  INFO(by_name.err);
  CHECK(by_name.exit_code == 0);
}

TEST_CASE("a device name several device profiles share is refused, naming their ids") {
  const auto folder = fs::temp_directory_path() / ("roofcast-same-name-" + std::to_string(::getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder / "devices");
  for (const char* id : {"gpu-monday", "gpu-tuesday"})
    std::ofstream(folder / "devices" / (std::string(id) + ".json")) << R"({
      "format": "roofcast-device", "version": 1, "name": "Twin GPU",
      "throughput": { "fp32_gflops": 1000, "fp64_gflops": 500, "int32_mad_giops": 250,
                      "int32_add_giops": 500, "shared_ldst_gops": 250, "dram_gbps": 100 } })";
  ::setenv("ROOFCAST_DATA_DIR", folder.c_str(), 1);
  const auto ambiguous = run_roofcast({"predict", "--profile", "thesis-redblack", "--device", "twin gpu"});
  ::unsetenv("ROOFCAST_DATA_DIR");
  fs::remove_all(folder);
  CHECK(ambiguous.exit_code == 1);
  CHECK_THAT(ambiguous.err, Catch::Contains("names 2 devices") && Catch::Contains("gpu-monday") &&
                                Catch::Contains("gpu-tuesday") && Catch::Contains("give one of these ids"));
}

TEST_CASE("ROOFCAST_DATA_DIR is searched first for devices given by name") {
  const auto folder = fs::temp_directory_path() / ("roofcast-data-dir-" + std::to_string(::getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder / "devices");
  std::ofstream(folder / "devices" / "my-gpu.json") << R"({
    "format": "roofcast-device", "version": 1, "name": "My GPU",
    "throughput": { "fp32_gflops": 1000, "fp64_gflops": 500, "int32_mad_giops": 250,
                    "int32_add_giops": 500, "shared_ldst_gops": 250, "dram_gbps": 100 } })";
  ::setenv("ROOFCAST_DATA_DIR", folder.c_str(), 1);
  const auto by_id = run_roofcast({"predict", "--profile", "thesis-redblack", "--device", "my-gpu", "--format", "json"});
  const auto by_name = run_roofcast({"predict", "--profile", "thesis-redblack", "--device", "my gpu", "--format", "json"});
  const auto listed = run_roofcast({"devices"});
  ::unsetenv("ROOFCAST_DATA_DIR");
  fs::remove_all(folder);
  REQUIRE(by_id.exit_code == 0);
  CHECK(nlohmann::json::parse(by_id.out)["predictions"][0]["device"] == "My GPU");
  REQUIRE(by_name.exit_code == 0);
  CHECK_THAT(listed.out, Catch::Contains("my-gpu") && Catch::Contains("My GPU"));
  CHECK(run_roofcast({"predict", "--profile", "thesis-redblack", "--device", "my-gpu"}).exit_code == 1);
}

TEST_CASE("roofcast --version names the version") {
  const auto result = run_roofcast({"--version"});
  CHECK(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::StartsWith("roofcast 0.") || Catch::StartsWith("roofcast 1."));
}

TEST_CASE("a file of the data folders too large for a device profile is named and skipped, not read") {
  const auto folder = fs::temp_directory_path() / ("roofcast-data-dir-large-" + std::to_string(::getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder / "devices");
  const auto large = folder / "devices" / "large.json";
  std::ofstream(large) << "{";
  fs::resize_file(large, 1ull << 30);  // 1 GiB, sparse: no disk used
  ::setenv("ROOFCAST_DATA_DIR", folder.c_str(), 1);
  const auto listed = roofcast::testing::run_roofcast_within(20, {"devices"});
  const auto named = roofcast::testing::run_roofcast_within(20, {"predict", "--profile", "thesis-redblack", "--device",
                                                                 large.string()});
  ::unsetenv("ROOFCAST_DATA_DIR");
  fs::remove_all(folder);
  CHECK(listed.exit_code == 0);
  CHECK(listed.err == "roofcast: warning: " + large.string() +
                          ": 1024.0 MiB, more than a device profile can be (16 MiB); not read\n");
  CHECK_THAT(listed.out, Catch::Contains("GTX-660"));
  CHECK(named.exit_code == 1);
  CHECK(named.err == "roofcast: " + large.string() + ": 1024.0 MiB, more than a device profile can be (16 MiB); not "
                                                     "read\n");
}
