#include <catch2/catch.hpp>

#include <algorithm>

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
