// `roofcast profile` at application scale on a GPU (issue 15): sampling, per-process outputs of
// a fork tree and `roofcast merge`, and faults. Skips (exit 77) where there is no GPU.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofcast/formats/files.hpp"
#include "roofcast/formats/measured_json.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/profiler/collector_protocol.hpp"
#include "profile_files.hpp"
#include "run_command.hpp"

using roofcast::testing::run_roofcast;
namespace fs = std::filesystem;

namespace {

const std::string kTree = std::string(ROOFCAST_BINARY_DIR) + "/roofcast-fork-tree-test-app";

fs::path fresh(const std::string& name) { return fresh_test_folder("roofcast-scale-test-", name); }

// The first run's spread budget (the variable in roofcast's own environment) while it lives, so
// that what it profiles does not depend on how long the process took to start.
struct InRunBudget {
  explicit InRunBudget(const char* budget) { ::setenv(roofcast::profiler::protocol::kInRunSpreadVariable, budget, 1); }
  ~InRunBudget() { ::unsetenv(roofcast::profiler::protocol::kInRunSpreadVariable); }
};

// The occurrences (0-based, in launch order) of a kernel's launches that carry counters.
std::vector<int> profiled_occurrences(const nlohmann::json& kernel) {
  std::vector<int> occurrences;
  int occurrence = 0;
  for (const auto& launch : kernel["launches"]) {
    if (launch.contains("counters")) occurrences.push_back(occurrence);
    ++occurrence;
  }
  return occurrences;
}

}  // namespace

TEST_CASE("a sampled profile scales a few launches per shape to all, as a full collection counts them") {
  const fs::path folder = fresh("sample");
  const auto sampled = run_roofcast({"profile", "-o", (folder / "sampled.json").string(), "--", kTree, "--children", "0"});
  INFO(sampled.err);
  REQUIRE(sampled.exit_code == 0);
  CHECK(sampled.err.find("41 launches (6 profiled") != std::string::npos);
  const auto all = run_roofcast(
      {"profile", "--sample", "all", "-o", (folder / "all.json").string(), "--", kTree, "--children", "0"});
  INFO(all.err);
  REQUIRE(all.exit_code == 0);
  auto s = kernels_by_short_name(read_checked_profile(folder / "sampled.json"));
  auto a = kernels_by_short_name(read_checked_profile(folder / "all.json"));
  CHECK(s.at("tree_step")["invocations"] == 40);
  CHECK(s.at("tree_step")["profiled_invocations"] == 5);
  CHECK(s.at("tree_step")["counter_scaling"] == "per_launch_shape");
  CHECK(a.at("tree_step")["profiled_invocations"] == 40);
  CHECK(a.at("tree_step")["counter_scaling"] == "none");
  for (const char* metric : {"smsp__inst_executed.sum", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
                             "smsp__sass_thread_inst_executed_op_memory_pred_on.sum"}) {
    INFO(metric);
    CHECK(s.at("tree_step")["counters"][metric].get<double>() ==
          Approx(a.at("tree_step")["counters"][metric].get<double>()).epsilon(1e-6));
  }
  // --runs two: the counter run follows the sample plan, 5 launches spread over tree_step's 40
  // (the middles of five slices), not its first 5.
  const auto spread = run_roofcast({"profile", "--runs", "two", "--per-launch", "-o", (folder / "spread.json").string(),
                                    "--", kTree, "--children", "0"});
  INFO(spread.err);
  REQUIRE(spread.exit_code == 0);
  // Held in a variable: a range-for over a member of a temporary would read freed memory.
  const auto spread_kernels = kernels_by_short_name(read_checked_profile(folder / "spread.json"));
  CHECK(profiled_occurrences(spread_kernels.at("tree_step")) == std::vector<int>{4, 12, 20, 28, 36});
  // Filters still apply: -c 10 records 10 launches, of which 5 are profiled.
  const auto filtered = run_roofcast(
      {"profile", "-k", "tree_step", "-c", "10", "-o", (folder / "c10.json").string(), "--", kTree, "--children", "0"});
  INFO(filtered.err);
  REQUIRE(filtered.exit_code == 0);
  auto f = kernels_by_short_name(read_checked_profile(folder / "c10.json"));
  CHECK(f.size() == 1);
  CHECK(f.at("tree_step")["invocations"] == 10);
  CHECK(f.at("tree_step")["profiled_invocations"] == 5);
  fs::remove_all(folder);
}

TEST_CASE("one run (--single-run), two runs and the default count the same, and say how they ran") {
  const fs::path folder = fresh("single");
  const auto two = run_roofcast(
      {"profile", "--runs", "two", "-o", (folder / "two.json").string(), "--", kTree, "--children", "0"});
  INFO(two.err);
  REQUIRE(two.exit_code == 0);
  const auto one = run_roofcast(
      {"profile", "--single-run", "-o", (folder / "one.json").string(), "--", kTree, "--children", "0"});
  INFO(one.err);
  REQUIRE(one.exit_code == 0);
  CHECK(one.err.find("41 launches (6 profiled") != std::string::npos);
  CHECK(one.err.find("one run") != std::string::npos);
  const auto automatic =
      run_roofcast({"profile", "-o", (folder / "auto.json").string(), "--", kTree, "--children", "0"});
  INFO(automatic.err);
  REQUIRE(automatic.exit_code == 0);
  auto t = kernels_by_short_name(read_checked_profile(folder / "two.json"));
  auto o = kernels_by_short_name(read_checked_profile(folder / "one.json"));
  auto a = kernels_by_short_name(read_checked_profile(folder / "auto.json"));
  REQUIRE(o.size() == t.size());
  REQUIRE(a.size() == t.size());
  CHECK(o.at("tree_step")["invocations"] == 40);
  CHECK(o.at("tree_step")["profiled_invocations"] == 5);
  CHECK(a.at("tree_step")["profiled_invocations"] == 5);
  CHECK(o.at("tree_step")["measured_ms"].get<double>() > 0);
  for (const char* metric : {"smsp__inst_executed.sum", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
                             "smsp__sass_thread_inst_executed_op_memory_pred_on.sum"}) {
    INFO(metric);
    CHECK(o.at("tree_step")["counters"][metric].get<double>() ==
          Approx(t.at("tree_step")["counters"][metric].get<double>()).epsilon(1e-6));
    CHECK(a.at("tree_step")["counters"][metric].get<double>() ==
          Approx(t.at("tree_step")["counters"][metric].get<double>()).epsilon(1e-6));
  }
  // The checkpoint's copies are the collector's, not the application's transfers: the same
  // copies as in two runs (their times differ from run to run).
  const auto one_profile = read_checked_profile(folder / "one.json");
  const auto two_profile = read_checked_profile(folder / "two.json");
  const auto auto_profile = read_checked_profile(folder / "auto.json");
  auto copies = [](const nlohmann::json& profile) {
    std::map<std::string, std::pair<double, double>> by_kind;
    for (const auto& transfer : profile.value("transfers", nlohmann::json::array()))
      by_kind[transfer["kind"]] = {transfer["count"].get<double>(), transfer["bytes"].get<double>()};
    return by_kind;
  };
  CHECK(copies(one_profile) == copies(two_profile));
  CHECK(one_profile["collector"]["single_run"] == true);
  CHECK(one_profile["collector"]["runs"] == 1);
  CHECK(two_profile["collector"]["runs"] == 2);
  // tree_step's launches do the same work: whether they took the same time decides the runs.
  const int runs = auto_profile["collector"]["runs"].get<int>();
  CHECK((runs == 1 || runs == 2));
  CHECK(automatic.err.find(runs == 1 ? "(one run " : "then a counter run") != std::string::npos);
  fs::remove_all(folder);
}

TEST_CASE("a shape whose launches differ is sampled over its whole run in the first run, or by a counter run") {
  const fs::path folder = fresh("in-run");
  // --grow: tree_step's launch i takes i more steps, so its launches count different instructions
  // from the second on. With a budget that pays for every launch of the in-run grid, the first
  // run profiles 0-13, 16, 19, ... 37 of its 40 and keeps the middles of slices of 3.
  std::vector<std::string> grow = {"--", kTree, "--children", "0", "--grow"};
  auto profile = [&](const std::string& name, const char* budget) {
    const InRunBudget in_run(budget);
    std::vector<std::string> arguments = {"profile", "--metrics", "thesis", "--per-launch", "-o",
                                          (folder / name).string()};
    arguments.insert(arguments.end(), grow.begin(), grow.end());
    return run_roofcast(arguments);
  };
  const auto in_run = profile("in-run.json", "1000");
  INFO(in_run.err);
  REQUIRE(in_run.exit_code == 0);
  CHECK(in_run.err.find("(one run ") != std::string::npos);
  CHECK(in_run.err.find("5 to 15 spread over the run for 1 shape(s)") != std::string::npos);
  const auto in_run_profile = read_checked_profile(folder / "in-run.json");
  CHECK(in_run_profile["collector"]["runs"] == 1);
  CHECK(in_run_profile["collector"]["in_run_spread_shapes"] == 1);
  const auto kernels = kernels_by_short_name(in_run_profile);
  CHECK(profiled_occurrences(kernels.at("tree_step")) ==
        std::vector<int>{1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37});
  // Budget 0: the first run stops at the second launch, a counter run spreads 5 over the 40.
  const auto counter_run = profile("counter-run.json", "0");
  INFO(counter_run.err);
  REQUIRE(counter_run.exit_code == 0);
  CHECK(counter_run.err.find("then a counter run") != std::string::npos);
  CHECK(counter_run.err.find("1 whose launches count different instructions") != std::string::npos);
  const auto spread = kernels_by_short_name(read_checked_profile(folder / "counter-run.json"));
  CHECK(profiled_occurrences(spread.at("tree_step")) == std::vector<int>{4, 12, 20, 28, 36});
  // Against every launch counted: both samples of a linear growth in work over 40 launches
  // miss the last launches' slice (the in-run one: the 40th; the spread one: the middle of 36-39
  // is 36), so within 5 %.
  const auto all = run_roofcast({"profile", "--metrics", "thesis", "--sample", "all", "-o",
                                 (folder / "all.json").string(), "--", kTree, "--children", "0", "--grow"});
  INFO(all.err);
  REQUIRE(all.exit_code == 0);
  const auto a = kernels_by_short_name(read_checked_profile(folder / "all.json"));
  for (const char* metric : {"smsp__inst_executed.sum", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"}) {
    INFO(metric);
    const double every = a.at("tree_step")["counters"][metric].get<double>();
    CHECK(kernels.at("tree_step")["counters"][metric].get<double>() == Approx(every).epsilon(0.05));
    CHECK(spread.at("tree_step")["counters"][metric].get<double>() == Approx(every).epsilon(0.05));
  }
  fs::remove_all(folder);
}

TEST_CASE("every process of a fork tree gets its own profile, and merge combines them for predict") {
  const fs::path folder = fresh("tree");
  const auto result = run_roofcast({"profile", "-o", (folder / "rank%q{ROOFCAST_TEST_RANK}.json").string(), "--", kTree});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  for (int rank = 0; rank < 3; ++rank) {
    const fs::path file = folder / ("rank" + std::to_string(rank) + ".json");
    REQUIRE(fs::exists(file));
    const auto profile = read_checked_profile(file);
    auto kernels = kernels_by_short_name(profile);
    CHECK(kernels.at("tree_step")["invocations"] == 40);
    CHECK(kernels.at("tree_step")["launch_shapes"][0]["grid"][0] == 4 + rank);  // this rank's own launches
    CHECK(profile["processes"].size() == 1);
  }
  const auto by_pid = run_roofcast({"profile", "--timing-only", "-o", (folder / "pid%p.json").string(), "--", kTree});
  INFO(by_pid.err);
  CHECK(by_pid.exit_code == 0);
  int files = 0;
  for (const auto& entry : fs::directory_iterator(folder)) files += entry.path().filename().string().starts_with("pid");
  CHECK(files == 3);

  const std::string merged = (folder / "merged.json").string();
  const auto merge = run_roofcast({"merge", (folder / "rank0.json").string(), (folder / "rank1.json").string(),
                                   (folder / "rank2.json").string(), "-o", merged});
  INFO(merge.err);
  REQUIRE(merge.exit_code == 0);
  const auto profile = read_checked_profile(merged);
  CHECK(profile["kernels"].size() == 6);
  CHECK(profile["merged"]["invocations"] == 123.0);
  const auto predicted = run_roofcast({"predict", "--profile", merged, "--device", "GTX-660"});
  INFO(predicted.err);
  CHECK(predicted.exit_code == 0);
  CHECK(predicted.out.find("[rank2]") != std::string::npos);
  fs::remove_all(folder);
}

TEST_CASE("a child killed by SIGKILL: the others' records are written, and the application's exit status returned") {
  const fs::path folder = fresh("kill");
  const std::string out = (folder / "tree.json").string();
  const auto result = run_roofcast({"profile", "-o", out, "--", kTree, "--kill-child"});
  INFO(result.err);
  CHECK(result.exit_code == 3);  // the parent's status: a child failed
  CHECK(result.err.find("ended without flushing") != std::string::npos);
  const auto kernels = kernels_by_short_name(read_checked_profile(out));
  // The parent's and the surviving child's 80 launches at least; the killed child's timing
  // records are lost where CUPTI had not handed its Activity buffer over yet.
  CHECK(kernels.at("tree_step")["invocations"] >= 80);
  fs::remove_all(folder);
}

TEST_CASE("an interrupted application: what was recorded is written with a note, and 130 returned") {
  const fs::path folder = fresh("interrupt");
  const std::string out = (folder / "tree.json").string();
  // Two runs: the timing run's records, no counter run.
  const auto result =
      run_roofcast({"profile", "--runs", "two", "-o", out, "--", kTree, "--children", "0", "--interrupt"});
  INFO(result.err);
  CHECK(result.exit_code == 130);
  CHECK(result.err.find("no counter run") != std::string::npos);
  const std::string text = roofcast::read_text_file(out);
  const auto times = roofcast::parse_measured_times(text, out);
  CHECK(times.kernels.size() == 2);
  CHECK(nlohmann::json::parse(text)["notes"].size() == 1);
  // The default's first run times and counts: a kernel profile of the launches before the signal.
  const std::string profiled = (folder / "profiled.json").string();
  const auto first = run_roofcast({"profile", "-o", profiled, "--", kTree, "--children", "0", "--interrupt"});
  INFO(first.err);
  CHECK(first.exit_code == 130);
  const auto profile = read_checked_profile(profiled);
  CHECK(profile["collector"]["runs"] == 1);
  CHECK(kernels_by_short_name(profile).at("tree_step")["invocations"] == 40);
  REQUIRE(profile["notes"].size() == 1);
  CHECK(profile["notes"][0].get<std::string>().find("was ended by signal 2") != std::string::npos);
  fs::remove_all(folder);
}
