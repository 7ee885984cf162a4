// `roofcast profile --records-dir DIR` twice into one folder (issue 27): the second profile is
// the one a fresh folder gives, not a mix of both runs. Skips (exit 77) where there is no GPU.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "profile_files.hpp"
#include "run_command.hpp"

using roofcast::testing::run_roofcast;
namespace fs = std::filesystem;

namespace {

const std::string kApp = std::string(ROOFCAST_BINARY_DIR) + "/roofcast-profiler-test-app";

// Counters that count instructions of a fixed program: the same in every run.
const std::vector<std::string> kExactCounters = {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
                                                 "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum",
                                                 "smsp__sass_thread_inst_executed_op_memory_pred_on.sum"};

// What must not differ between two runs of the test program: each kernel's launches, launch
// shapes and instruction counts, and the copies.
nlohmann::json run_independent(const nlohmann::json& profile) {
  nlohmann::json kept;
  for (const auto& [name, kernel] : kernels_by_short_name(profile)) {
    nlohmann::json entry = {{"invocations", kernel["invocations"]},
                            {"profiled_invocations", kernel.value("profiled_invocations", nlohmann::json())}};
    for (const auto& shape : kernel.value("launch_shapes", nlohmann::json::array()))
      entry["launch_shapes"].push_back({{"grid", shape["grid"]}, {"block", shape["block"]},
                                        {"invocations", shape["invocations"]}});
    for (const auto& counter : kExactCounters)
      if (kernel["counters"].contains(counter)) entry[counter] = kernel["counters"][counter];
    kept[name] = entry;
  }
  for (const auto& transfer : profile.value("transfers", nlohmann::json::array()))
    kept["transfers"].push_back({{"kind", transfer["kind"]}, {"pinned", transfer["pinned"]},
                                 {"count", transfer["count"]}, {"bytes", transfer["bytes"]}});
  return kept;
}

nlohmann::json profile_into(const fs::path& records, const fs::path& output, std::string* messages = nullptr) {
  // One run, every launch profiled: nothing in the profile depends on a run's timing noise.
  const auto result = run_roofcast({"profile", "--metrics", "thesis", "--runs", "one", "--sample", "all",
                                    "--records-dir", records.string(), "-o", output.string(), "--", kApp, "--small"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  if (messages) *messages = result.err;
  return read_checked_profile(output);
}

}  // namespace

TEST_CASE("a second profile into the same --records-dir equals one into a fresh folder") {
  const fs::path folder = fresh_test_folder("roofcast-records-gpu-", "twice");
  const fs::path records = folder / "records";
  const nlohmann::json first = profile_into(records, folder / "first.json");
  std::map<std::string, std::uintmax_t> first_records;
  for (const auto& entry : fs::directory_iterator(records))
    if (entry.is_regular_file()) first_records[entry.path().filename().string()] = entry.file_size();
  REQUIRE_FALSE(first_records.empty());

  std::string messages;
  const nlohmann::json second = profile_into(records, folder / "second.json", &messages);
  CHECK_THAT(messages, Catch::Contains("--records-dir " + records.string() + " holds another run's records"));
  const nlohmann::json fresh = profile_into(folder / "fresh-records", folder / "fresh.json");

  CHECK(run_independent(second).dump(1) == run_independent(fresh).dump(1));
  CHECK(run_independent(first).dump(1) == run_independent(fresh).dump(1));
  // The first run's records are as it left them; the second run's went to a subfolder.
  for (const auto& [name, size] : first_records) {
    INFO(name);
    CHECK(fs::file_size(records / name) == size);
  }
  size_t subfolders = 0;
  for (const auto& entry : fs::directory_iterator(records))
    if (entry.is_directory() && entry.path().filename().string().starts_with("run-")) ++subfolders;
  CHECK(subfolders == 1);
  fs::remove_all(folder);
}
