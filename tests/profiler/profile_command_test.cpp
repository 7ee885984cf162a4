// `roofcast profile` end to end without a GPU: a shell script stands in for the application and
// writes the record lines the collector would (collector_record_fields.hpp), so that the two
// runs, their join, the files written, the messages and the exit codes are checked here; the
// real collector is checked on a GPU (profile_gpu_test.cpp).
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "roofcast/formats/files.hpp"
#include "roofcast/formats/measured_json.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/profiler/collector_protocol.hpp"
#include "roofcast/profiler/companions.hpp"
#include "run_command.hpp"

using roofcast::testing::run_roofcast;
namespace fs = std::filesystem;

namespace {

// Writes one process' records as the collector would: a launch of axpy, then $2 launches of grow
// (default 0), each taking longer than the one before, then exits with $1 (default 0). The timing
// records hold every launch's time, the counter records every metric asked for (axpy 1000, the
// i-th grow i); a single run ("single") writes both, counters for the first
// ROOFCAST_PROFILE_SAMPLE launches of each kernel only, or for every launch where the in-run
// spread's budget is 1000 (as if it had paid for every launch of the grid: all of them up to
// 3N - 1). A counter run counts every launch (the real collector follows the sample plan), and
// reports an error where $3 is "fail".
const char* const kStandIn = R"sh(#!/bin/sh
dir="$ROOFCAST_PROFILE_OUTPUT_DIR"
grows="${2:-0}"
begin() {
  echo '{"type":"process","pid":'$$',"start_ns":1,"mode":"'"$1"'"}' > "$f"
  echo '{"type":"device","index":0,"name":"NVIDIA H100 80GB HBM3","chip":"GH100"}' >> "$f"
}
launch() {  # index name mangled grid
  echo '"type":"launch","index":'$1',"name":"'$3'","demangled":"'$2'(float*)","grid":['$4',1,1],"block":[256,1,1]'
}
timing() {
  f="$dir/roofcast-timing-$$.jsonl"; begin timing
  echo "{$(launch 0 axpy _Z4axpyPf 64),\"duration_ns\":2000000,\"registers\":32}" >> "$f"
  i=1; while [ $i -le $grows ]; do
    echo "{$(launch $i grow _Z4growPf 8),\"duration_ns\":$((i * 100000)),\"registers\":32}" >> "$f"; i=$((i + 1))
  done
  echo '{"type":"end","launches":'$((grows + 1))'}' >> "$f"
}
counters() {  # $1: the grow launches to count
  f="$dir/roofcast-counters-$$.jsonl"; begin counters
  echo '{"type":"config","passes":3}' >> "$f"
  echo "{$(launch 0 axpy _Z4axpyPf 64),\"metrics\":{$(echo "$ROOFCAST_PROFILE_METRICS" | sed 's/[^,][^,]*/"&":1000/g')}}" >> "$f"
  i=1; while [ $i -le $1 ]; do
    echo "{$(launch $i grow _Z4growPf 8),\"metrics\":{$(echo "$ROOFCAST_PROFILE_METRICS" | sed 's/[^,][^,]*/"&":'$i'/g')}}" >> "$f"
    i=$((i + 1))
  done
  echo '{"type":"end","launches":'$(($1 + 1))'}' >> "$f"
}
case "$ROOFCAST_PROFILE_MODE" in
  timing) timing ;;
  counters) counters "$grows"; [ "$3" = fail ] && echo '{"type":"error","message":"stand-in failure"}' >> "$f" ;;
  single) timing
    if [ "$ROOFCAST_PROFILE_IN_RUN_SPREAD" = 1000 ]; then counters "$grows"
    else counters $((grows < ${ROOFCAST_PROFILE_SAMPLE:-$grows} ? grows : ${ROOFCAST_PROFILE_SAMPLE:-$grows})); fi ;;
esac
exit "${1:-0}"
)sh";

std::string stand_in_app(const fs::path& folder) {
  const fs::path app = folder / "stand-in-app.sh";
  std::ofstream(app) << kStandIn;
  ::chmod(app.c_str(), 0755);
  return app.string();
}

bool collector_built() {
  return roofcast::profiler::find_companion(roofcast::profiler::protocol::kInjectionLibraryName).has_value();
}

}  // namespace

TEST_CASE("roofcast profile writes the kernel profile of the records the application's processes leave") {
  const fs::path folder = roofcast::testing::temporary_folder();
  const std::string app = stand_in_app(folder);
  const std::string out = (folder / "app.json").string();
  const auto result = run_roofcast({"profile", "--metrics", "thesis", "-o", out, "--", app});
  INFO(result.err);
  if (!collector_built()) {
    CHECK(result.exit_code == 1);
    CHECK(result.err.find("the CUPTI collector was not built") != std::string::npos);
    CHECK_FALSE(fs::exists(out));
    return;
  }
  REQUIRE(result.exit_code == 0);
  CHECK(result.err.find("roofcast profile: 1 kernels, 1 launches (1 profiled, at most 5 per kernel and launch shape, "
                        "the first ones) on NVIDIA H100 80GB HBM3 -> " + out + " (one run") == 0);
  const auto profile = roofcast::parse_kernel_profile(roofcast::read_text_file(out), out);
  CHECK(profile.reference_device == "NVIDIA H100 80GB HBM3");
  REQUIRE(profile.kernels.size() == 1);
  CHECK(profile.kernels[0].name == "axpy(float*)");
  CHECK(*profile.kernels[0].measured_ms == Approx(2.0));
  CHECK(std::get<roofcast::KernelCounters>(profile.kernels[0].description).thesis.flop_count_sp_fma == 1000);

  // --runs two: a timing run, then a counter run.
  const auto two = run_roofcast({"profile", "--runs", "two", "--metrics", "thesis", "-o", out, "--", app});
  INFO(two.err);
  REQUIRE(two.exit_code == 0);
  CHECK(two.err.find("(timing run ") != std::string::npos);
  CHECK(nlohmann::json::parse(roofcast::read_text_file(out))["collector"]["runs"] == 2);
}

TEST_CASE("roofcast profile runs the application once more only for kernels whose launches differ in time") {
  const fs::path folder = roofcast::testing::temporary_folder();
  const std::string app = stand_in_app(folder);
  const std::string out = (folder / "app.json").string();
  if (!collector_built()) return;  // the first test case checks the message
  // grow's 8 launches take 0.1 to 0.8 ms: its first 5 do not stand for the rest.
  const auto result = run_roofcast({"profile", "--metrics", "thesis", "-o", out, "--", app, "0", "8"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.err.find("then a counter run") != std::string::npos);
  CHECK(result.err.find("for 1 launch shape(s) the first run could not sample over the run: 1 whose launches count "
                        "different instructions,") != std::string::npos);
  const auto json = nlohmann::json::parse(roofcast::read_text_file(out));
  CHECK(json["collector"]["runs"] == 2);
  CHECK(json["collector"]["spread_shapes"] == 1);
  const auto profile = roofcast::parse_kernel_profile(roofcast::read_text_file(out), out);
  REQUIRE(profile.kernels.size() == 2);
  for (const auto& kernel : profile.kernels) {
    INFO(kernel.name);
    const double fma = std::get<roofcast::KernelCounters>(kernel.description).thesis.flop_count_sp_fma;
    // axpy's counters from the first run; grow's at the 5 positions spread over its 8 launches
    // (the 1st, 3rd and 5th counted in the first run, the 6th and 8th in the counter run),
    // scaled to 8 launches.
    CHECK(fma == Approx(kernel.name == "axpy(float*)" ? 1000 : (1 + 3 + 5 + 6 + 8) * 8.0 / 5));
  }

  // A counter run that fails loses nothing: the first run's counters stay, with a note.
  const auto failed = run_roofcast({"profile", "--metrics", "thesis", "-o", out, "--", app, "0", "8", "fail"});
  INFO(failed.err);
  REQUIRE(failed.exit_code == 0);
  CHECK(failed.err.find("counter run: stand-in failure") != std::string::npos);
  const auto kept = nlohmann::json::parse(roofcast::read_text_file(out));
  CHECK(kept["collector"]["runs"] == 1);
  REQUIRE(kept["notes"].size() == 1);
  CHECK(kept["notes"][0].get<std::string>().find("counters are those of their first launches") != std::string::npos);

  // --single-run stays with the first 5 (1 + ... + 5, scaled to 8 launches by time).
  const auto one = run_roofcast({"profile", "--single-run", "--metrics", "thesis", "-o", out, "--", app, "0", "8"});
  INFO(one.err);
  REQUIRE(one.exit_code == 0);
  CHECK(one.err.find("(one run ") != std::string::npos);
  CHECK(nlohmann::json::parse(roofcast::read_text_file(out))["collector"]["runs"] == 1);

  // Launches alike in time need no second run.
  const auto alike = run_roofcast({"profile", "--metrics", "thesis", "-o", out, "--", app, "0", "1"});
  INFO(alike.err);
  REQUIRE(alike.exit_code == 0);
  CHECK(alike.err.find("(one run ") != std::string::npos);
}

TEST_CASE("roofcast profile makes no second run for a shape the first run sampled over the whole run") {
  const fs::path folder = roofcast::testing::temporary_folder();
  const std::string app = stand_in_app(folder);
  const std::string out = (folder / "app.json").string();
  if (!collector_built()) return;  // the first test case checks the message
  // The budget variable in roofcast's environment reaches the collector (the stand-in then
  // counts all 8 grow launches, as the in-run grid of N = 5 does up to 14).
  ::setenv(roofcast::profiler::protocol::kInRunSpreadVariable, "1000", 1);
  const auto result = run_roofcast({"profile", "--metrics", "thesis", "-o", out, "--", app, "0", "8"});
  ::setenv(roofcast::profiler::protocol::kInRunSpreadVariable, "lots", 1);
  const auto refused = run_roofcast({"profile", "--metrics", "thesis", "-o", out + ".bad", "--", app});
  ::unsetenv(roofcast::profiler::protocol::kInRunSpreadVariable);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.err.find("9 launches (9 profiled, at most 5 per kernel and launch shape, 5 to 15 spread over the run "
                        "for 1 shape(s) with more launches) on ") != std::string::npos);
  CHECK(result.err.find("(one run ") != std::string::npos);
  const auto json = nlohmann::json::parse(roofcast::read_text_file(out));
  CHECK(json["collector"]["runs"] == 1);
  CHECK(json["collector"]["in_run_spread_shapes"] == 1);
  const auto profile = roofcast::parse_kernel_profile(roofcast::read_text_file(out), out);
  REQUIRE(profile.kernels.size() == 2);
  // grow: 1 + ... + 8, every launch counted.
  CHECK(std::get<roofcast::KernelCounters>(profile.kernels[1].description).thesis.flop_count_sp_fma == 36);
  INFO(refused.err);
  CHECK(refused.exit_code == 1);
  CHECK(refused.err.find("ROOFCAST_PROFILE_IN_RUN_SPREAD: expected a number from 0") != std::string::npos);
}

TEST_CASE("roofcast profile passes the application's exit code on, --timing-only writes measured times") {
  const fs::path folder = roofcast::testing::temporary_folder();
  const std::string app = stand_in_app(folder);
  const std::string out = (folder / "times.json").string();
  const auto result = run_roofcast({"profile", "--timing-only", "-o", out, "--", app, "3"});
  INFO(result.err);
  if (!collector_built()) {
    CHECK(result.exit_code == 1);
    return;
  }
  CHECK(result.exit_code == 3);
  CHECK(result.err.find("roofcast profile: the application exited with status 3\n") != std::string::npos);
  const auto times = roofcast::parse_measured_times(roofcast::read_text_file(out), out);
  REQUIRE(times.kernels.size() == 1);
  CHECK(times.kernels[0].measured_ms == Approx(2.0));

  // An application that leaves no records: nothing written, and the reason.
  const auto nothing = run_roofcast({"profile", "-o", (folder / "none.json").string(), "--", "true"});
  CHECK(nothing.exit_code == 1);
  CHECK(nothing.err.find("roofcast profile: no profile written to " + (folder / "none.json").string()) !=
        std::string::npos);
  CHECK_FALSE(fs::exists(folder / "none.json"));
}
