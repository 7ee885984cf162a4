// A device profile that lacks bench keys the pipes model reads is no error, but every command
// that prints predictions says so: one warning line per device on stderr for tables, CSV and
// markdown, the notes of JSON documents, the report's Warnings, and `roofcast devices`.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

using roofcast::testing::run_roofcast;
namespace fs = std::filesystem;

namespace {

const std::string kSource = ROOFCAST_SOURCE_DIR;
const std::string kProfile = kSource + "/docs/validation/2026-11-24-latency/h100-run/profiles/stream.json";
const std::string kKernel = "stream_copy(double*, double const*, unsigned long)";
// A complete profile of an H100 (every key the pipes model reads).
const std::string kComplete = kSource + "/docs/validation/2026-11-27-tune-h100/device.json";

// kComplete without the block dispatch rate and the FFMA latency, as a profile benched before
// those benches existed; written once into a temporary folder.
const std::string& older_device() {
  static const std::string path = [] {
    auto document = nlohmann::json::parse(std::ifstream(kComplete));
    document["name"] = "Older H100";
    for (const char* key : {"block_dispatch_gblocks", "latency_ffma_ns"}) document["throughput"].erase(key);
    return roofcast::testing::temporary_file("older-h100.json", document.dump(1));
  }();
  return path;
}

size_t count_of(const std::string& text, const std::string& part) {
  size_t n = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

// The one warning line about the older device, as every command prints it.
void check_warned_once(const roofcast::testing::CommandResult& result) {
  INFO(result.err);
  CHECK(result.exit_code == 0);
  CHECK(count_of(result.err, "roofcast: warning: Older H100: the device profile lacks block_dispatch_gblocks, "
                             "latency_ffma_ns: the pipes model goes without block dispatch, latency; `roofcast bench "
                             "--complete " + older_device() + "` on that GPU measures them\n") == 1);
  CHECK(count_of(result.err, "warning") == 1);
}

bool has_note(const nlohmann::json& notes) {
  return std::any_of(notes.begin(), notes.end(), [](const nlohmann::json& n) {
    return n.get<std::string>().find("the device profile lacks block_dispatch_gblocks") != std::string::npos;
  });
}

}  // namespace

TEST_CASE("a device profile that lacks bench keys: one warning per device on stderr for tables and CSV") {
  const std::string older = older_device();
  // Given twice, still one line.
  check_warned_once(run_roofcast({"predict", "--profile", kProfile, "--device", older, "--device", older}));
  check_warned_once(run_roofcast({"predict", "--profile", kProfile, "--device", older, "--format", "csv"}));
  check_warned_once(run_roofcast({"predict", "--profile", kProfile, "--device", older, "--format", "markdown"}));
  check_warned_once(run_roofcast({"explain", "--profile", kProfile, "--kernel", kKernel, "--device", older}));
  check_warned_once(
      run_roofcast({"explain", "--profile", kProfile, "--kernel", kKernel, "--device", older, "--format", "csv"}));
  check_warned_once(run_roofcast({"rank", "--profile", kProfile, "--device", older, "--device", kComplete}));
  check_warned_once(run_roofcast({"rank", "--profile", kProfile, "--device", older, "--format", "csv"}));
  check_warned_once(run_roofcast({"split", "--profile", kProfile, "--kernel", kKernel, "--device", older, "--device",
                                  kComplete, "--blocks", "1000"}));
  check_warned_once(run_roofcast({"validate", "--reference-profile", kProfile, "--device", older, "--measured",
                                  "Older H100=" + kProfile}));
  check_warned_once(run_roofcast({"tune", "--profile", kProfile, "--kernel", kKernel, "--device", older,
                                  "--block-sizes", "128,256"}));
  check_warned_once(run_roofcast({"tune", "--profile", kProfile, "--kernel", kKernel, "--device", older,
                                  "--block-sizes", "128,256", "--format", "csv"}));
  const auto folder = roofcast::testing::temporary_folder();
  const auto report = run_roofcast({"report", "--profile", kProfile, "--device", older, "--output", (folder / "r").string()});
  check_warned_once(report);
  CHECK_THAT(roofcast::testing::file_text(folder / "r" / "index.html"),
             Catch::Contains("device profiles") && Catch::Contains("the device profile lacks block_dispatch_gblocks"));
  fs::remove_all(folder);

  // A complete profile, or the thesis model (which reads none of these keys): no warning.
  CHECK(run_roofcast({"predict", "--profile", kProfile, "--device", kComplete}).err.empty());
  CHECK(run_roofcast({"predict", "--model", "thesis", "--profile", kProfile, "--device", older}).err.empty());
}

TEST_CASE("a device profile that lacks bench keys: JSON outputs carry the note, not a warning") {
  const std::string older = older_device();
  const auto predicted = run_roofcast({"predict", "--profile", kProfile, "--device", older, "--format", "json"});
  CHECK(predicted.err.empty());
  for (const auto& p : nlohmann::json::parse(predicted.out)["predictions"]) CHECK(has_note(p["details"]["notes"]));

  const auto explained = run_roofcast(
      {"explain", "--profile", kProfile, "--kernel", kKernel, "--device", older, "--format", "json"});
  CHECK(explained.err.empty());
  CHECK(has_note(nlohmann::json::parse(explained.out)["predictions"][0]["details"]["notes"]));

  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"rank", "--profile", kProfile, "--device", older, "--format", "json"},
        {"split", "--profile", kProfile, "--kernel", kKernel, "--device", older, "--device", kComplete, "--blocks", "1000",
         "--format", "json"},
        {"tune", "--profile", kProfile, "--kernel", kKernel, "--device", older, "--block-sizes", "128", "--format", "json"},
        {"validate", "--reference-profile", kProfile, "--device", older, "--measured", "Older H100=" + kProfile,
         "--format", "json"}}) {
    INFO(command.front());
    const auto result = run_roofcast(command);
    REQUIRE(result.exit_code == 0);
    CHECK(result.err.find("warning") == std::string::npos);
    const auto notes = nlohmann::json::parse(result.out)["notes"];
    CHECK(has_note(notes));
    CHECK(notes.front().get<std::string>().starts_with("Older H100: "));
  }
}

TEST_CASE("roofcast devices marks the profiles that lack bench keys the pipes model reads") {
  const auto folder = fs::temp_directory_path() / ("roofcast-bench-keys-" + std::to_string(::getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder / "devices");
  fs::copy_file(older_device(), folder / "devices" / "older-h100.json");
  fs::copy_file(kComplete, folder / "devices" / "complete-h100.json");
  ::setenv("ROOFCAST_DATA_DIR", folder.c_str(), 1);
  // --all: profiles of one device measured earlier than another are listed too.
  const auto table = run_roofcast({"devices", "--all"});
  const auto listed = run_roofcast({"devices", "--all", "--format", "json"});
  ::unsetenv("ROOFCAST_DATA_DIR");
  fs::remove_all(folder);
  REQUIRE(table.exit_code == 0);
  CHECK_THAT(table.out, Catch::Contains("bench keys"));
  const auto row_of = [&](const std::string& id) {
    const size_t at = table.out.find("\n" + id + " ");
    REQUIRE(at != std::string::npos);
    return table.out.substr(at + 1, table.out.find('\n', at + 1) - at - 1);
  };
  CHECK_THAT(row_of("older-h100"), Catch::Contains(" lacks 2 "));
  CHECK_THAT(row_of("complete-h100"), Catch::Contains(" all "));
  CHECK_THAT(row_of("thesis-gtx-480"), Catch::Contains(" none "));

  REQUIRE(listed.exit_code == 0);
  for (const auto& device : nlohmann::json::parse(listed.out)) {
    if (device["id"] == "older-h100")
      CHECK(device["missing_bench_keys"] == nlohmann::json::array({"block_dispatch_gblocks", "latency_ffma_ns"}));
    if (device["id"] == "complete-h100") CHECK(device["missing_bench_keys"].empty());
  }
}
