// `roofcast import` and `roofcast profile` as a user runs them (no GPU needed).
#include <catch2/catch.hpp>

#include <filesystem>

#include "roofcast/formats/files.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "run_command.hpp"

using roofcast::testing::run_roofcast;
using roofcast::testing::temporary_file;

TEST_CASE("roofcast import nvprof writes a profile that roofcast predict reads") {
  const std::string sample = std::string(ROOFCAST_PROFILER_SAMPLES_DIR) + "/nvprof-redblack.csv";
  const std::string out = temporary_file("imported.json", "");
  std::filesystem::remove(out);
  const auto imported = run_roofcast({"import", "nvprof", sample, "-o", out});
  INFO(imported.err);
  REQUIRE(imported.exit_code == 0);
  const auto profile = roofcast::parse_kernel_profile(roofcast::read_text_file(out), out);
  CHECK(profile.kernels.size() == 2);
  const auto predicted = run_roofcast({"predict", "--profile", out, "--device", "GTX-660", "--format", "csv"});
  INFO(predicted.err);
  CHECK(predicted.exit_code == 0);
  CHECK(predicted.out.find("sor_red") != std::string::npos);
}

TEST_CASE("roofcast import ncu writes to standard output without -o") {
  const std::string sample = std::string(ROOFCAST_PROFILER_SAMPLES_DIR) + "/ncu-testapp-h200.csv";
  const auto imported = run_roofcast({"import", "ncu", sample});
  REQUIRE(imported.exit_code == 0);
  CHECK(imported.out.find("\"reference_device\": \"NVIDIA H200\"") != std::string::npos);
}

TEST_CASE("bad input to import and profile gives one line and a non-zero exit") {
  const auto missing = run_roofcast({"import", "ncu", "/nonexistent.csv"});
  CHECK(missing.exit_code != 0);
  CHECK(missing.err.find("/nonexistent.csv") != std::string::npos);
  const auto wrong = run_roofcast({"import", "nvprof", temporary_file("x.csv", "a,b\n1,2\n")});
  CHECK(wrong.exit_code != 0);
  CHECK(wrong.err.find("nvprof") != std::string::npos);
  const auto no_app = run_roofcast({"profile"});
  CHECK(no_app.exit_code != 0);
  CHECK(no_app.err.find("no application given") != std::string::npos);
  const auto bad_regex = run_roofcast({"profile", "-k", "(", "--", "true"});
  CHECK(bad_regex.exit_code != 0);
  CHECK(bad_regex.err.find("--kernel-regex") != std::string::npos);
}
