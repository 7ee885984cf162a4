// `roofcast profile` end to end without a GPU: a shell script stands in for the application and
// writes the record lines the collector would (collector_record_fields.hpp), so that the two
// runs, their join, the files written, the messages and the exit codes are checked here; the
// real collector is checked on a GPU (profile_gpu_test.cpp).
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "roofcast/formats/files.hpp"
#include "roofcast/formats/measured_json.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/profiler/collector_protocol.hpp"
#include "roofcast/profiler/companions.hpp"
#include "run_command.hpp"

using roofcast::testing::run_roofcast;
namespace fs = std::filesystem;

namespace {

// Writes one process' records as the collector would: a launch of axpy (timing run: its time;
// counter run: every metric asked for, 1000), then exits with its first argument (default 0).
const char* const kStandIn = R"sh(#!/bin/sh
f="$ROOFCAST_PROFILE_OUTPUT_DIR/roofcast-$ROOFCAST_PROFILE_MODE-$$.jsonl"
echo '{"type":"process","pid":'$$',"start_ns":1,"mode":"'"$ROOFCAST_PROFILE_MODE"'"}' > "$f"
echo '{"type":"device","index":0,"name":"NVIDIA H100 80GB HBM3","chip":"GH100"}' >> "$f"
launch='"type":"launch","index":0,"name":"_Z4axpyPf","demangled":"axpy(float*)","grid":[64,1,1],"block":[256,1,1]'
if [ "$ROOFCAST_PROFILE_MODE" = timing ]; then
  echo "{$launch,\"duration_ns\":2000000,\"registers\":32}" >> "$f"
else
  metrics=$(echo "$ROOFCAST_PROFILE_METRICS" | sed 's/[^,][^,]*/"&":1000/g')
  echo '{"type":"config","passes":3}' >> "$f"
  echo "{$launch,\"metrics\":{$metrics}}" >> "$f"
fi
echo '{"type":"end","launches":1}' >> "$f"
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
  CHECK(result.err.find("roofcast profile: 1 kernels, 1 launches (1 profiled, at most 5 per kernel and launch shape) on "
                        "NVIDIA H100 80GB HBM3 -> " + out) == 0);
  const auto profile = roofcast::parse_kernel_profile(roofcast::read_text_file(out), out);
  CHECK(profile.reference_device == "NVIDIA H100 80GB HBM3");
  REQUIRE(profile.kernels.size() == 1);
  CHECK(profile.kernels[0].name == "axpy(float*)");
  CHECK(*profile.kernels[0].measured_ms == Approx(2.0));
  CHECK(std::get<roofcast::KernelCounters>(profile.kernels[0].description).thesis.flop_count_sp_fma == 1000);
}

TEST_CASE("roofcast profile passes the application's exit code on; --timing-only writes measured times") {
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
