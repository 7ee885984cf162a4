// `roofcast profile` on a PyTorch program (issue 31): the counter run follows its sample plan
// inside the Python process (its plan was once misread there, and it profiled the first N
// launches of every shape instead), and the first run's in-run spread profiles the positions of
// its grid. Skips (exit 77) where there is no GPU, or no PyTorch that sees one.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "profile_files.hpp"
#include "roofcast/profiler/collector_protocol.hpp"
#include "run_command.hpp"

using roofcast::testing::run_roofcast;
namespace fs = std::filesystem;

namespace {

const std::string kApp = std::string(ROOFCAST_SOURCE_DIR) + "/tests/profiler/torch_sample_app.py";

// The occurrences (0-based, in launch order) of the one kernel launched 40 times that carry counters.
std::vector<int> profiled_occurrences(const fs::path& profile_file) {
  const auto profile = read_checked_profile(profile_file);
  std::vector<int> occurrences;
  int kernels = 0;
  for (const auto& kernel : profile["kernels"]) {
    if (kernel["invocations"] != 40) continue;
    ++kernels;
    int occurrence = 0;
    for (const auto& launch : kernel["launches"]) {
      if (launch.contains("counters")) occurrences.push_back(occurrence);
      ++occurrence;
    }
  }
  REQUIRE(kernels == 1);
  return occurrences;
}

// Runs `roofcast profile ARGS -- python3 APP` with the first run's spread budget set to `budget`
// (the variable of roofcast's own environment).
roofcast::testing::CommandResult profile(std::vector<std::string> arguments, const char* budget) {
  ::setenv(roofcast::profiler::protocol::kInRunSpreadVariable, budget, 1);
  arguments.insert(arguments.begin(), "profile");
  for (const char* part : {"--", "python3", kApp.c_str()}) arguments.emplace_back(part);
  auto result = run_roofcast(arguments);
  ::unsetenv(roofcast::profiler::protocol::kInRunSpreadVariable);
  return result;
}

}  // namespace

TEST_CASE("under PyTorch the counter run profiles the launches its sample plan names") {
  const fs::path folder = fresh_test_folder("roofcast-torch-test-", "plan");
  const std::string out = (folder / "two.json").string();
  // --runs two: a timing run, then a counter run that reads the plan inside the Python process.
  const auto two = profile({"--runs", "two", "--per-launch", "--metrics", "thesis", "-o", out}, "0");
  INFO(two.out << two.err);
  REQUIRE(two.exit_code == 0);
  CHECK(two.out.find("torch_sample_app: 40 launches") != std::string::npos);
  CHECK(two.out.find("FAILED") == std::string::npos);
  // The middles of five slices of 40, not the first five.
  CHECK(profiled_occurrences(out) == std::vector<int>{4, 12, 20, 28, 36});
  fs::remove_all(folder);
}

TEST_CASE("under PyTorch the first run samples a shape over its whole run on the in-run grid") {
  const fs::path folder = fresh_test_folder("roofcast-torch-test-", "in-run");
  const std::string out = (folder / "auto.json").string();
  // A budget that pays for every launch of the grid: of 40 launches with N = 2 the first run
  // profiles 0-4, 7, 10, 13, 16, 22 and 31, and keeps the middles of slices of 9.
  const auto in_run = profile({"--sample", "2", "--per-launch", "--metrics", "thesis", "-o", out}, "1000");
  INFO(in_run.out << in_run.err);
  REQUIRE(in_run.exit_code == 0);
  CHECK(in_run.err.find("(one run ") != std::string::npos);
  CHECK(profiled_occurrences(out) == std::vector<int>{4, 13, 22, 31});
  const auto json = read_checked_profile(out);
  CHECK(json["collector"]["runs"] == 1);
  CHECK(json["collector"]["in_run_spread_shapes"] == 1);
  // --runs one: its first two, whatever the budget.
  const std::string first = (folder / "first.json").string();
  const auto first_two =
      profile({"--sample", "2", "--runs", "one", "--per-launch", "--metrics", "thesis", "-o", first}, "0");
  INFO(first_two.err);
  REQUIRE(first_two.exit_code == 0);
  CHECK(profiled_occurrences(first) == std::vector<int>{0, 1});
  fs::remove_all(folder);
}
