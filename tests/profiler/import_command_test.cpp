// `roofcast import` and `roofcast profile` as a user runs them (no GPU needed).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>

#include "roofcast/formats/files.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "run_command.hpp"

using roofcast::testing::run_roofcast;
using roofcast::testing::temporary_file;

TEST_CASE("roofcast import nvprof writes a profile that roofcast predict reads") {
  const std::string sample = std::string(ROOFCAST_PROFILER_SAMPLES_DIR) + "/nvprof-redblack.csv";
  const std::string out = temporary_file("imported.json", "");
  std::filesystem::remove(out);
  const auto imported = run_roofcast({"import", "nvprof", sample, "-o", out});
  INFO(imported.err);
  REQUIRE(imported.exit_code == 0);
  const auto profile = roofcast::parse_kernel_profile(roofcast::read_text_file(out), out);
  CHECK(profile.kernels.size() == 2);
  const auto predicted = run_roofcast({"predict", "--profile", out, "--device", "GTX-660", "--format", "csv"});
  INFO(predicted.err);
  CHECK(predicted.exit_code == 0);
  CHECK(predicted.out.find("sor_red") != std::string::npos);
}

TEST_CASE("roofcast import ncu writes to standard output without -o") {
  const std::string sample = std::string(ROOFCAST_PROFILER_SAMPLES_DIR) + "/ncu-testapp-h200.csv";
  const auto imported = run_roofcast({"import", "ncu", sample});
  REQUIRE(imported.exit_code == 0);
  CHECK(imported.out.find("\"reference_device\": \"NVIDIA H200\"") != std::string::npos);
}

TEST_CASE("bad input to import and profile gives one line and a non-zero exit") {
  const auto missing = run_roofcast({"import", "ncu", "/nonexistent.csv"});
  CHECK(missing.exit_code != 0);
  CHECK(missing.err.find("/nonexistent.csv") != std::string::npos);
  const auto wrong = run_roofcast({"import", "nvprof", temporary_file("x.csv", "a,b\n1,2\n")});
  CHECK(wrong.exit_code != 0);
  CHECK(wrong.err.find("nvprof") != std::string::npos);
  const auto no_app = run_roofcast({"profile"});
  CHECK(no_app.exit_code != 0);
  CHECK(no_app.err.find("no application given") != std::string::npos);
  const auto bad_regex = run_roofcast({"profile", "-k", "(", "--", "true"});
  CHECK(bad_regex.exit_code != 0);
  CHECK(bad_regex.err.find("--kernel-regex") != std::string::npos);
}

namespace {

// One kernel "k", two launches, with `duration` as the first launch's gpu__time_duration.sum.
std::string two_launch_ncu_csv(const std::string& duration_unit, const std::string& duration) {
  const std::string thesis = ",\"10\",\"5\",\"100\",\"0\",\"64\",\"64\",\"0\",\"20\",\"30\"\n";
  return "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__sectors_read.sum\",\"dram__sectors_write.sum\","
         "\"smsp__inst_executed.sum\",\"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum\","
         "\"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum\",\"smsp__sass_thread_inst_executed_op_fp32_pred_on.sum\","
         "\"smsp__sass_thread_inst_executed_op_fp64_pred_on.sum\",\"smsp__sass_thread_inst_executed_op_integer_pred_on.sum\","
         "\"smsp__sass_thread_inst_executed_op_memory_pred_on.sum\"\n"
         "\"\",\"\",\"" + duration_unit + "\",\"sector\",\"sector\",\"inst\",\"inst\",\"inst\",\"inst\",\"inst\",\"inst\",\"inst\"\n"
         "\"0\",\"k\",\"" + duration + "\"" + thesis + "\"1\",\"k\",\"1,500\"" + thesis;
}

}  // namespace

TEST_CASE("roofcast import ncu: a launch without its duration is a warning and a note, not a silent loss") {
  const std::string out = temporary_file("na.json", "");
  std::filesystem::remove(out);
  const auto imported =
      run_roofcast({"import", "ncu", temporary_file("na.csv", two_launch_ncu_csv("ns", "n/a")), "-o", out});
  INFO(imported.err);
  REQUIRE(imported.exit_code == 0);
  CHECK(imported.err.find("roofcast import: warning: kernel \"k\": gpu__time_duration.sum is n/a for 1 of its 2 "
                          "launches: no measured time") != std::string::npos);
  const std::string written = roofcast::read_text_file(out);
  CHECK(written.find("\"notes\"") != std::string::npos);
  CHECK(written.find("is n/a for 1 of its 2 launches") != std::string::npos);
  CHECK_FALSE(roofcast::parse_kernel_profile(written, out).kernels[0].measured_ms);
  // Both launches timed (ncu's thousands separator included): 2.5 us, no warning.
  const auto timed = run_roofcast({"import", "ncu", temporary_file("ok.csv", two_launch_ncu_csv("ns", "1,000"))});
  REQUIRE(timed.exit_code == 0);
  CHECK(timed.err.empty());
  CHECK(timed.out.find("\"measured_ms\": 0.0025") != std::string::npos);
}

TEST_CASE("roofcast import ncu refuses units, numbers and rows it cannot read unambiguously") {
  struct Case {
    std::string csv;
    std::string message;
  };
  std::string duplicated = two_launch_ncu_csv("ns", "1000");
  duplicated.replace(duplicated.find("dram__sectors_write.sum"), std::string("dram__sectors_write.sum").size(),
                     "dram__sectors_read.sum");
  std::string late_units = two_launch_ncu_csv("ns", "1000");
  late_units.insert(late_units.find("\"1\",\"k\""), "\"\",\"\",\"ms\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\",\"\"\n");
  for (const Case& c : {Case{two_launch_ncu_csv("NS", "1000"), "gpu__time_duration.sum: unit \"NS\" is not a time unit"},
                        Case{two_launch_ncu_csv("ns", "0x10"), "not a number: \"0x10\""},
                        Case{two_launch_ncu_csv("ns", "1,2,3"), "not a number: \"1,2,3\""},
                        Case{late_units, ":4: a row with an empty ID cell"},
                        Case{duplicated, "column \"dram__sectors_read.sum\" appears twice"}}) {
    INFO(c.csv);
    const auto result = run_roofcast({"import", "ncu", temporary_file("bad.csv", c.csv)});
    CHECK(result.exit_code == 1);
    CHECK(result.err.find(c.message) != std::string::npos);
    CHECK(result.err.find("bad.csv") != std::string::npos);
    CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  }
}
