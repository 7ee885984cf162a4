// `roofcast predict` run as a user runs it: the built binary, its output parsed back.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

using roofcast::testing::run_roofcast;

TEST_CASE("predict --format json follows formats.md") {
  const auto result = run_roofcast({"predict", "--model", "thesis", "--profile", "thesis-redblack", "--device", "GTX-660", "--format", "json"});
  REQUIRE(result.exit_code == 0);
  CHECK(result.err.empty());
  const auto document = nlohmann::json::parse(result.out);
  REQUIRE(document["predictions"].size() == 1);
  CHECK(document["version"] == 3);
  CHECK(document["model"] == "thesis");
  const auto& p = document["predictions"][0];
  for (const char* key : {"kernel", "device", "predicted_ms", "bound", "limiter", "details"}) CHECK(p.contains(key));
  const auto& details = p["details"];
  for (const char* key : {"E_mix", "E_instr", "T_op_adjusted", "O_krn", "O_dev"}) CHECK(details.contains(key));
  CHECK(p["kernel"] == "sor_red");
  CHECK(p["device"] == "GTX-660");
  CHECK(p["bound"] == "compute");
  CHECK(p["predicted_ms"].get<double>() == Approx(34.803).margin(5e-4));
  CHECK(details["E_mix"].get<double>() == Approx(0.5769).margin(5e-5));
  CHECK(details["E_instr"].get<double>() == Approx(0.5589).margin(5e-5));
  CHECK(details["T_op_adjusted"].get<double>() == Approx(28.92).margin(5e-3));
  CHECK(details["O_krn"].get<double>() == Approx(0.3019).margin(5e-5));
  CHECK(details["O_dev"].get<double>() == Approx(0.2460).margin(5e-5));
  REQUIRE(document["totals"].size() == 1);
  CHECK(document["totals"][0]["predicted_ms"] == p["predicted_ms"]);
}

TEST_CASE("predict with no device predicts on every current device, the thesis' GPUs included, as a table by default") {
  const auto result = run_roofcast({"predict", "--model", "thesis", "--profile", "thesis-rodinia"});
  REQUIRE(result.exit_code == 0);
  for (const char* text : {"GTX-480", "GTX-660", "GTX-960", "GTX-1060 6GB", "Tesla M2050", "Tesla K20c", "lct-gic",
                           "Totals per device", "E_instr %"})
    CHECK_THAT(result.out, Catch::Contains(text));
}

TEST_CASE("predict --format csv has one row per kernel and device") {
  const auto result = run_roofcast({"predict", "--model", "thesis", "--profile", "thesis-rodinia", "--all-devices", "--format", "csv"});
  REQUIRE(result.exit_code == 0);
  const auto devices = nlohmann::json::parse(run_roofcast({"devices", "--format", "json"}).out);
  CHECK(std::count(result.out.begin(), result.out.end(), '\n') == 1 + 28 * static_cast<long>(devices.size()));
  CHECK_THAT(result.out, Catch::StartsWith("kernel,device,device_id,K_type,bound,predicted_ms"));
}

TEST_CASE("predict --utilization-correction reproduces the reference device's measured time") {
  const auto result = run_roofcast({"predict", "--model", "thesis", "--profile", "thesis-redblack", "--device", "GTX-480",
                                    "--utilization-correction", "--format", "json"});
  REQUIRE(result.exit_code == 0);
  const auto p = nlohmann::json::parse(result.out)["predictions"][0];
  CHECK(p["corrected_ms"].get<double>() == Approx(21.456));
}

TEST_CASE("a device profile file works as --device") {
  const std::string file = roofcast::testing::temporary_file("mine.json", R"({
    "format": "roofcast-device", "version": 1, "name": "My GPU",
    "throughput": { "fp32_gflops": 1000, "fp64_gflops": 500, "int32_mad_giops": 250,
                    "int32_add_giops": 500, "shared_ldst_gops": 250, "dram_gbps": 100 } })");
  const auto result = run_roofcast({"predict", "--profile", "thesis-redblack", "--device", file, "--format", "json"});
  REQUIRE(result.exit_code == 0);
  const auto p = nlohmann::json::parse(result.out)["predictions"][0];
  CHECK(p["device"] == "My GPU");
  CHECK(p["measured_ms"].is_null());
}

TEST_CASE("explain walks through every intermediate value") {
  const auto result = run_roofcast({"explain", "--model", "thesis", "--profile", "thesis-redblack", "--device", "GTX-660"});
  REQUIRE(result.exit_code == 0);
  for (const char* text : {"E_mix   = 57.69 %", "D_ops   = 12.15 %", "E_instr = C_op / (C_op + C_ldst + C_other) = 55.89 %",
                           "compute bound", "34.803 ms", "-0.14 %"})
    CHECK_THAT(result.out, Catch::Contains(text));
}

TEST_CASE("predict --model pipes names the limiter and reports every cost") {
  const auto result = run_roofcast(
      {"predict", "--profile", "thesis-redblack", "--device", "GTX-660", "--model", "pipes", "--format", "json"});
  REQUIRE(result.exit_code == 0);
  const auto document = nlohmann::json::parse(result.out);
  CHECK(document["model"] == "pipes");
  REQUIRE(document["predictions"].size() == 1);
  const auto& p = document["predictions"][0];
  // Memory bound: 32 x (70642416 + 33570816) DRAM bytes at B_mem 117.56 GB/s (no read/write split measured).
  CHECK(p["limiter"] == "DRAM");
  CHECK(p["predicted_ms"].get<double>() == Approx(32.0 * (70642416 + 33570816) / 117.56e9 * 1e3));
  const auto& details = p["details"];
  for (const char* cost : {"fp64 pipe", "alu pipe", "lsu pipe", "issue"})
    CHECK(details["compute_costs_ms"].contains(cost));
  CHECK(details["measured_pipes"] == false);
  // The thesis' data has no stall counters: the latency term is reported as not modelled.
  CHECK(details["latency_ms"] == 0);
  CHECK(details["latency"]["modelled"] == false);
  CHECK_THAT(details["latency"]["note"].get<std::string>(), Catch::Contains("latency not modelled"));

  const auto table = run_roofcast({"predict", "--profile", "thesis-redblack", "--device", "GTX-660", "--model", "pipes"});
  REQUIRE(table.exit_code == 0);
  CHECK_THAT(table.out, Catch::Contains("limiter"));
}

TEST_CASE("explain --model pipes walks through the multi-pipeline model") {
  const auto result = run_roofcast({"explain", "--profile", "thesis-redblack", "--device", "GTX-660", "--model", "pipes"});
  REQUIRE(result.exit_code == 0);
  for (const char* text : {"Multi-pipeline model", "fp64 pipe", "memory   DRAM", "limiter: DRAM",
                           "pipes derived from the thesis' instruction classes"})
    CHECK_THAT(result.out, Catch::Contains(text));
}

TEST_CASE("the multi-pipeline model is the default, --model thesis keeps the thesis model") {
  const auto pipes = run_roofcast({"predict", "--profile", "thesis-redblack", "--device", "GTX-660"});
  REQUIRE(pipes.exit_code == 0);
  CHECK_THAT(pipes.out, Catch::Contains("model: pipes") && Catch::Contains("limiter"));
  const auto thesis = run_roofcast({"predict", "--profile", "thesis-redblack", "--device", "GTX-660", "--model", "thesis"});
  REQUIRE(thesis.exit_code == 0);
  CHECK_THAT(thesis.out, Catch::Contains("model: thesis") && Catch::Contains("34.803"));
}

TEST_CASE("devices lists the six thesis GPUs") {
  const auto result = run_roofcast({"devices"});
  REQUIRE(result.exit_code == 0);
  for (const char* name : {"GTX-480", "GTX-660", "GTX-960", "GTX-1060 6GB", "Tesla M2050", "Tesla K20c", "1940.80"})
    CHECK_THAT(result.out, Catch::Contains(name));
}

namespace {

// `ours` is `theirs` (nlohmann's dump of the same document) line by line, numbers aside: where
// nlohmann's grisu2 digits are not the shortest, ours are shorter or as long and read back the
// same; from 10^15 to 10^16 ours are fmt's fixed notation where nlohmann writes an exponent.
void check_dump_text(const std::string& ours, const std::string& theirs) {
  std::istringstream our_lines(ours), their_lines(theirs);
  std::string our, their;
  while (std::getline(their_lines, their)) {
    REQUIRE(std::getline(our_lines, our));
    if (our == their) continue;
    const size_t start = std::min(our.rfind(' '), their.rfind(' ')) + 1;  // where the number starts
    INFO(our << " against nlohmann's " << their);
    REQUIRE(our.substr(0, start) == their.substr(0, start));
    const bool comma = !their.empty() && their.back() == ',';
    CHECK(comma == (!our.empty() && our.back() == ','));
    const std::string our_number = our.substr(start, our.size() - start - comma);
    const std::string their_number = their.substr(start, their.size() - start - comma);
    const double value = std::strtod(our_number.c_str(), nullptr);
    CHECK(value == std::strtod(their_number.c_str(), nullptr));
    if (std::abs(value) < 1e15 || std::abs(value) >= 1e16) CHECK(our_number.size() <= their_number.size());
  }
  CHECK_FALSE(std::getline(our_lines, our));
}

}  // namespace

TEST_CASE("predict --format json is written as nlohmann's dump(2) of the same document") {
  // Names with characters JSON escapes; the output is streamed, not built as a document first.
  const std::string profile = roofcast::testing::temporary_file("escapes.json", R"({
    "format": "roofcast-profile", "version": 1, "reference_device": "GTX-660",
    "kernels": [
      {"name": "k<\"quoted\", tab\t>", "measured_ms": 2.5,
       "parameters": {"K_type": "fp32", "W_comp": 1e9, "W_traf": 1e8, "E_mix": 0.6, "D_ops": 0.2, "D_ldst": 0.1}},
      {"name": "caf\u00e9 \\ back", "invocations": 3,
       "parameters": {"K_type": "int", "W_comp": 2e8, "W_traf": 0, "E_mix": 0.5, "D_ops": 0.3, "D_ldst": 0.2}}]})");
  for (const char* model : {"thesis", "pipes"}) {
    INFO(model);
    const auto result = run_roofcast({"predict", "--model", model, "--profile", profile, "--device", "GTX-660",
                                      "--device", "GTX-480", "--utilization-correction", "--format", "json"});
    REQUIRE(result.exit_code == 0);
    check_dump_text(result.out, nlohmann::json::parse(result.out).dump(2) + "\n");
    CHECK(nlohmann::json::parse(result.out)["predictions"].size() == 4);
  }
}
