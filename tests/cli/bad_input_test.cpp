// Bad input through the real binary: a one-line error naming the file and field or
// kernel, a non-zero exit, and never a crash or an exception trace.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "one_line_error.hpp"
#include "run_command.hpp"

using roofcast::testing::check_one_line_error;
using roofcast::testing::run_roofcast;
using roofcast::testing::temporary_file;

namespace {

std::string profile_with_counters(const std::string& counters) {
  return R"({"format": "roofcast-profile", "version": 1, "kernels": [{"name": "k1", "counters": {)" + counters +
         "}}]}";
}

const std::string kGoodCounters =
    R"("flop_count_sp_fma": 10, "flop_count_dp_fma": 0, "inst_compute_ld_st": 100, "inst_executed": 50,
       "inst_fp_32": 100, "inst_fp_64": 0, "inst_integer": 300, "dram_read_transactions": 40,
       "dram_write_transactions": 8)";

}  // namespace

TEST_CASE("predict reports each bad input on one line") {
  SECTION("unknown device name") {
    check_one_line_error({"predict", "--profile", "thesis-redblack", "--device", "GTX-9999"},
                         "--device GTX-9999: unknown device");
  }
  SECTION("unknown profile name") {
    check_one_line_error({"predict", "--profile", "no-such-profile"}, "--profile no-such-profile: unknown profile");
  }
  SECTION("missing file") {
    check_one_line_error({"predict", "--profile", "/nonexistent/p.json"}, "/nonexistent/p.json: cannot open");
  }
  SECTION("empty file") {
    const auto file = temporary_file("empty.json", "");
    check_one_line_error({"predict", "--profile", file}, file + ": empty file");
  }
  SECTION("truncated JSON") {
    const auto file = temporary_file("truncated.json", profile_with_counters(kGoodCounters).substr(0, 80));
    check_one_line_error({"predict", "--profile", file}, file + ": not valid JSON");
  }
  SECTION("missing counter") {
    const auto file = temporary_file("missing.json", profile_with_counters(R"("inst_executed": 5)"));
    check_one_line_error({"predict", "--profile", file}, file + ": kernels[0] \"k1\".counters.flop_count_sp_fma: missing");
  }
  SECTION("misspelled counter") {
    std::string counters = kGoodCounters;
    counters.replace(counters.find("inst_integer"), 12, "inst_integr");
    const auto file = temporary_file("misspelled.json", profile_with_counters(counters));
    check_one_line_error({"predict", "--profile", file}, "\"k1\".counters.inst_integer: missing");
  }
  SECTION("wrong type") {
    std::string counters = kGoodCounters;
    counters.replace(counters.find("50"), 2, "\"50\"");
    const auto file = temporary_file("type.json", profile_with_counters(counters));
    check_one_line_error({"predict", "--profile", file}, "counters.inst_executed: expected a number, found string");
  }
  SECTION("negative count") {
    std::string counters = kGoodCounters;
    counters.replace(counters.find("300"), 3, "-300");
    const auto file = temporary_file("negative.json", profile_with_counters(counters));
    check_one_line_error({"predict", "--profile", file}, "counters.inst_integer: must be >= 0");
  }
  SECTION("NaN count") {
    std::string counters = kGoodCounters;
    counters.replace(counters.find("300"), 3, "NaN");
    const auto file = temporary_file("nan.json", profile_with_counters(counters));
    check_one_line_error({"predict", "--profile", file}, file + ": not valid JSON");
  }
  SECTION("zero instructions") {
    std::string counters = kGoodCounters;
    counters.replace(counters.find("\"inst_executed\": 50"), 19, "\"inst_executed\": 0");
    const auto file = temporary_file("zero.json", profile_with_counters(counters));
    check_one_line_error({"predict", "--profile", file}, "\"k1\".counters: inst_executed: is 0");
  }
  SECTION("bad device file") {
    const auto file = temporary_file("device.json", R"({"format": "roofcast-device", "version": 1, "name": "x",
      "throughput": {"fp32_gflops": 1}})");
    check_one_line_error({"predict", "--profile", "thesis-redblack", "--device", file},
                         file + ": throughput.fp64_gflops: missing");
  }
}

TEST_CASE("zero DRAM traffic predicts a compute-bound kernel") {
  std::string counters = kGoodCounters;
  counters.replace(counters.find("\"dram_read_transactions\": 40"), 28, "\"dram_read_transactions\": 0");
  counters.replace(counters.find("\"dram_write_transactions\": 8"), 28, "\"dram_write_transactions\": 0");
  const auto file = temporary_file("nodram.json", profile_with_counters(counters));
  const auto result = run_roofcast({"predict", "--model", "thesis", "--profile", file, "--device", "GTX-480", "--format", "json"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("\"bound\": \"compute\"") && Catch::Contains("\"O_krn\": null"));
}

TEST_CASE("command-line mistakes exit non-zero with usage help") {
  const auto result = run_roofcast({"predict"});
  CHECK(result.exit_code != 0);
  CHECK_THAT(result.err, Catch::Contains("--profile is required"));
  CHECK(run_roofcast({"predict", "--profile", "thesis-redblack", "--format", "xml"}).exit_code != 0);
  const auto cache = run_roofcast({"profile", "--cache-control", "some", "--", "true"});
  CHECK(cache.exit_code != 0);
  CHECK_THAT(cache.err, Catch::Contains("--cache-control"));
  // One run that times and counts needs counters and the collector's own replay.
  for (const std::vector<std::string>& extra : {std::vector<std::string>{"--timing-only"},
                                                std::vector<std::string>{"--cache-control", "none"}}) {
    std::vector<std::string> arguments = {"profile", "--single-run"};
    arguments.insert(arguments.end(), extra.begin(), extra.end());
    arguments.insert(arguments.end(), {"--", "true"});
    const auto single = run_roofcast(arguments);
    CHECK(single.exit_code == 1);
    CHECK_THAT(single.err, Catch::Contains("--single-run"));
  }
  const auto contradiction = run_roofcast({"profile", "--single-run", "--runs", "two", "--", "true"});
  CHECK(contradiction.exit_code == 2);  // a usage error
  CHECK_THAT(contradiction.err, Catch::Contains("--single-run and --runs two"));
  const auto runs = run_roofcast({"profile", "--runs", "three", "--", "true"});
  CHECK(runs.exit_code != 0);
  CHECK_THAT(runs.err, Catch::Contains("--runs"));
}

namespace {

std::string kernel_entry(const std::string& name, const std::string& extra = "") {
  return R"({"name": ")" + name + R"(", "counters": {)" + kGoodCounters + "}" + extra + "}";
}

std::string profile_of(const std::vector<std::string>& kernels) {
  std::string list;
  for (const auto& kernel : kernels) list += (list.empty() ? "" : ", ") + kernel;
  return R"({"format": "roofcast-profile", "version": 1, "reference_device": "GTX-480", "kernels": [)" + list + "]}";
}

const std::string kH100 = std::string(ROOFCAST_SOURCE_DIR) + "/data/devices/measured/h100-sxm.json";

}  // namespace

TEST_CASE("a kernel listed twice is refused by every command, with one message") {
  const auto file = temporary_file("twice.json", profile_of({kernel_entry("k1"), kernel_entry("k2"), kernel_entry("k1")}));
  const std::string message = file + ": kernels[2].name: \"k1\" is listed again (first at kernels[0])";
  check_one_line_error({"predict", "--profile", file, "--device", "GTX-480"}, message);
  check_one_line_error({"predict", "--model", "thesis", "--profile", file, "--device", "GTX-480"}, message);
  check_one_line_error({"rank", "--profile", file}, message);
  check_one_line_error({"split", "--profile", file, "--kernel", "k1", "--blocks", "10"}, message);
  check_one_line_error({"explain", "--profile", file, "--kernel", "k1", "--device", "GTX-480"}, message);
  check_one_line_error({"validate", "--reference-profile", file, "--device", "GTX-480"}, message);
}

TEST_CASE("invocations beyond 2^31 give positive predicted times, never wrapped negative ones") {
  const auto file = temporary_file("many.json", profile_of({kernel_entry("k1", R"(, "invocations": 3000000000)")}));
  const auto result = run_roofcast({"predict", "--profile", file, "--device", kH100, "--format", "json"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto prediction = nlohmann::json::parse(result.out)["predictions"][0];
  CHECK(prediction["details"]["launch_ms"].get<double>() > 0);
  CHECK(prediction["predicted_ms"].get<double>() >= prediction["details"]["launch_ms"].get<double>());
}

TEST_CASE("split of the largest grid CUDA allows gives whole, non-negative block counts, a larger one is refused") {
  const std::string shapes = R"(, "launch_shapes": [{"grid": [2147483647, 65535, 65535], "block": [256, 1, 1],
                                  "invocations": 1}])";
  const auto file = temporary_file("grid.json", profile_of({kernel_entry("k1", shapes)}));
  const auto result = run_roofcast({"split", "--profile", file, "--kernel", "k1", "--device", "GTX-480", "--device",
                                    "GTX-660", "--format", "json"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto split = nlohmann::json::parse(result.out);
  long long sum = 0;
  for (const auto& device : split["devices"]) {
    CHECK(device["blocks"].get<long long>() > 0);
    sum += device["blocks"].get<long long>();
  }
  CHECK(sum == split["total_blocks"].get<long long>());
  const auto too_big = temporary_file("grid2.json", profile_of({kernel_entry("k1", R"(, "launch_shapes": [{"grid":
                                      [1e300, 1, 1], "block": [256, 1, 1], "invocations": 1}])")}));
  check_one_line_error({"split", "--profile", too_big, "--kernel", "k1", "--device", "GTX-480", "--device", "GTX-660"},
                       too_big + ": kernels[0] \"k1\".launch_shapes[0].grid[0]: expected a whole number from 1 to");
}

TEST_CASE("numbers beyond the double range and paths that are not UTF-8 are input errors, not internal ones") {
  std::string counters = kGoodCounters;
  counters.replace(counters.find("300"), 3, "1e400");
  const auto file = temporary_file("huge.json", profile_with_counters(counters));
  check_one_line_error({"predict", "--profile", file}, file + ": not valid JSON: a number beyond the double range");
  // A path that is not UTF-8 is named with the odd byte escaped.
  const std::string folder = std::filesystem::path(file).parent_path().string();
  check_one_line_error({"predict", "--profile", folder + "/bad\xFF.json"}, folder + "/bad\\xff.json: cannot open");
  const std::string csv_path = folder + "/odd\xFEname.csv";
  std::ofstream(csv_path) << "\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",\"Metric Description\",\"Min\",\"Max\","
                             "\"Avg\"\n\"D (0)\",\"k\",1,\"inst_executed\",\"\",1,1,1\n";
  // A profile at such a path is read, and the path is written escaped in the JSON output.
  const std::string profile_path = folder + "/odd\xFEprofile.json";
  std::ofstream(profile_path) << profile_of({kernel_entry("k1")});
  for (const char* command : {"predict", "rank"}) {
    const auto result = run_roofcast({command, "--profile", profile_path, "--device", "GTX-480", "--format", "json"});
    INFO(command << ": " << result.err);
    REQUIRE(result.exit_code == 0);
    CHECK(nlohmann::json::parse(result.out)["profile"] == folder + "/odd\\xfeprofile.json");
  }
  // The import itself succeeds as far as the counters go: the missing thesis counter is the one error.
  check_one_line_error({"import", "nvprof", csv_path}, folder + "/odd\\xfename.csv: kernels[0] \"k\".counters.");
}
