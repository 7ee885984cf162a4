// Bad input through the real binary: a one-line error naming the file and field or
// kernel, a non-zero exit, and never a crash or an exception trace.
#include <catch2/catch.hpp>

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
}
