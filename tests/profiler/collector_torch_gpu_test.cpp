// `roofcast profile` on a PyTorch program (issue 31): the counter run follows its sample plan
// inside the Python process (its plan was once misread there, and it profiled the first N
// launches of every shape instead), and one run profiles the first N. Skips (exit 77) where
// there is no GPU, or no PyTorch that sees one. (The in-run grid of shapes whose launches differ
// is checked on a C++ program: collector_scale_gpu_tests.)
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "profile_files.hpp"
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

// Runs `roofcast profile ARGS -- python3 APP`.
roofcast::testing::CommandResult profile(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), "profile");
  for (const char* part : {"--", "python3", kApp.c_str()}) arguments.emplace_back(part);
  return run_roofcast(arguments);
}

}  // namespace

TEST_CASE("under PyTorch the counter run profiles the launches its sample plan names") {
  const fs::path folder = fresh_test_folder("roofcast-torch-test-", "plan");
  const std::string out = (folder / "two.json").string();
  // --runs two: a timing run, then a counter run that reads the plan inside the Python process.
  const auto two = profile({"--runs", "two", "--per-launch", "--metrics", "thesis", "-o", out});
  INFO(two.out << two.err);
  REQUIRE(two.exit_code == 0);
  CHECK(two.out.find("torch_sample_app: 40 launches") != std::string::npos);
  CHECK(two.out.find("FAILED") == std::string::npos);
  // The middles of five slices of 40, not the first five.
  CHECK(profiled_occurrences(out) == std::vector<int>{4, 12, 20, 28, 36});
  fs::remove_all(folder);
}

TEST_CASE("under PyTorch one run profiles the first N launches of a shape whose launches agree") {
  const fs::path folder = fresh_test_folder("roofcast-torch-test-", "one");
  const std::string out = (folder / "one.json").string();
  const auto one = profile({"--runs", "one", "--sample", "2", "--per-launch", "--metrics", "thesis", "-o", out});
  INFO(one.out << one.err);
  REQUIRE(one.exit_code == 0);
  CHECK(one.err.find("(one run ") != std::string::npos);
  CHECK(profiled_occurrences(out) == std::vector<int>{0, 1});
  fs::remove_all(folder);
}
