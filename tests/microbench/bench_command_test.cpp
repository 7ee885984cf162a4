#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>

#include "run_command.hpp"

// Without a GPU (as in CI) `roofcast bench` still fails cleanly: one line, non-zero exit,
// before any benchmark runs.
TEST_CASE("roofcast bench refuses an output folder that does not exist, in one line") {
  const auto result = roofcast::testing::run_roofcast({"bench", "--quick", "--output", "/nonexistent-folder/x.json"});
  CHECK(result.exit_code != 0);
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  const bool names_problem = result.err.find("/nonexistent-folder") != std::string::npos ||
                             result.err.find("roofcast-bench was not built") != std::string::npos;
  CHECK(names_problem);
}

TEST_CASE("roofcast bench requires --output") {
  const auto result = roofcast::testing::run_roofcast({"bench", "--quick"});
  CHECK(result.exit_code != 0);
  CHECK(result.err.find("--output") != std::string::npos);
}

// Where no GPU can be used (CUDA_VISIBLE_DEVICES empty hides a present one too), bench says that
// there is none and what to do instead, not the CUDA runtime's "driver version is insufficient".
TEST_CASE("roofcast bench where no GPU is visible says so in one line and exits 1") {
  const std::string output = (roofcast::testing::temporary_folder() / "gpu.json").string();
  ::setenv("CUDA_VISIBLE_DEVICES", "", 1);
  ::setenv("HIP_VISIBLE_DEVICES", "-1", 1);
  const auto result = roofcast::testing::run_roofcast({"bench", "--quick", "--output", output});
  ::unsetenv("CUDA_VISIBLE_DEVICES");
  ::unsetenv("HIP_VISIBLE_DEVICES");
  CHECK(result.exit_code == 1);
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  const bool built = result.err.find("roofcast-bench was not built") == std::string::npos;
  if (built) {
    CHECK_THAT(result.err, Catch::StartsWith("roofcast bench: no GPU on this machine") &&
                               Catch::Contains("a device `roofcast devices` lists"));
    CHECK(result.err.find("insufficient") == std::string::npos);
  }
}
