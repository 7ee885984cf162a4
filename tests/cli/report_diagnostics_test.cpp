// The Diagnostics section of `roofcast report` and its diagnostics.csv (issue 17): explain's
// numbers, escaped names, "not measured" for profiles without the counters.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <regex>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "run_command.hpp"

using roofcast::testing::file_text;
using roofcast::testing::run_roofcast;
using roofcast::testing::temporary_folder;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// Profiles and the device profile of the H100 run in docs/validation/2026-11-25-tune.
const std::string kRun = std::string(ROOFCAST_SOURCE_DIR) + "/docs/validation/2026-11-25-tune/";
const std::string kDevice = kRun + "device.json";
const std::string kHostile = "<script>alert(1)</script>\nnext";

json profile_json(const std::string& name) { return json::parse(file_text(kRun + "profiles/" + name + ".json")); }

// One profile of four kernels, each with one diagnostic that fires on the H100: uncoalesced
// loads, divergence, bank conflicts, a tail; `extra` kernels are appended.
json four_kernels(const std::vector<json>& extra = {}) {
  json profile = profile_json("access_strided");
  for (const char* name : {"branch_divergent", "transpose_conflicting", "sweep_fma"})
    profile["kernels"].push_back(profile_json(name)["kernels"][0]);
  for (const auto& kernel : extra) profile["kernels"].push_back(kernel);
  return profile;
}

// The kernel of `name` with only the nine counters of the thesis model (`--metrics thesis`, or
// a profile from before the diagnostics' counters).
json without_diagnostic_counters(const std::string& name) {
  json kernel = profile_json(name)["kernels"][0];
  json nine;
  for (const char* counter :
       {"dram__sectors_read.sum", "dram__sectors_write.sum", "smsp__inst_executed.sum",
        "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_fp32_pred_on.sum", "smsp__sass_thread_inst_executed_op_fp64_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_integer_pred_on.sum",
        "smsp__sass_thread_inst_executed_op_memory_pred_on.sum"})
    nine[counter] = kernel["counters"].at(counter);
  REQUIRE(nine.size() == 9);
  kernel["counters"] = nine;
  return kernel;
}

struct Report {
  int exit_code = -1;
  std::string out, err, html, section, csv;
  fs::path folder;
};

// `roofcast report` of `profile` (a file or a bundled name) into `folder`/report, and what it wrote.
Report report_of(const std::string& profile, const fs::path& folder, const std::vector<std::string>& arguments) {
  Report r;
  r.folder = folder;
  std::vector<std::string> command = {"report", "--profile", profile, "--output", (folder / "report").string(),
                                      "--quadrant-kernels", "0"};
  command.insert(command.end(), arguments.begin(), arguments.end());
  const auto result = run_roofcast(command);
  r.exit_code = result.exit_code;
  r.out = result.out;
  r.err = result.err;
  r.html = file_text(folder / "report" / "index.html");
  r.csv = file_text(folder / "report" / "diagnostics.csv");
  const auto begin = r.html.find("<h2>Diagnostics</h2>");
  if (begin != std::string::npos) r.section = r.html.substr(begin, r.html.find("<h2>", begin + 1) - begin);
  return r;
}

Report report(const json& profile, const std::vector<std::string>& arguments) {
  const fs::path folder = temporary_folder();
  std::ofstream(folder / "profile.json") << profile.dump();
  return report_of((folder / "profile.json").string(), folder, arguments);
}

}  // namespace

TEST_CASE("report's Diagnostics: each diagnostic that fires, explain's numbers, the largest saving first") {
  const json profile = four_kernels();
  const Report r = report(profile, {"--device", kDevice});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  REQUIRE_FALSE(r.section.empty());
  CHECK_THAT(r.out, Catch::Contains("every kernel's diagnostics in"));
  CHECK_THAT(r.section, Catch::Contains("href=\"diagnostics.csv\""));

  // For each kernel, the line explain prints and the row the report shows: the same numbers.
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"access_strided(float*, float const*, unsigned long)", "uncoalesced global loads"},
      {"branch_divergent(float*, float const*, unsigned int const*, unsigned long)", "warp divergence"},
      {"transpose_conflicting(float*, float const*, int)", "shared-memory bank conflicts"},
      {"sweep_fma(float*, float const*, unsigned long)", "tail effect"}};
  const fs::path profile_file = r.folder / "profile.json";
  size_t previous_row = 0;
  for (const auto& [kernel, diagnostic] : expected) {
    INFO(kernel);
    const auto explain = run_roofcast({"explain", "--profile", profile_file.string(), "--kernel", kernel, "--device",
                                       kDevice});
    REQUIRE(explain.exit_code == 0);
    std::smatch fix;
    REQUIRE(std::regex_search(explain.out, fix,
                              std::regex("  " + diagnostic +
                                         " +[^\n]*if fixed: ([0-9.]+) ms instead of ([0-9.]+) ms \\(([-+0-9.]+) %\\)")));
    const std::string row = "<td class=\"name\">" + diagnostic + "</td>";
    const auto at = r.section.find(row);
    REQUIRE(at != std::string::npos);
    const std::string line = r.section.substr(at, r.section.find("</tr>", at) - at);
    CHECK_THAT(line, Catch::Contains("<td>" + fix[2].str() + "</td><td>" + fix[1].str() + "</td>") &&
                         Catch::EndsWith("<td>" + fix[3].str() + "</td>"));
    CHECK(at > previous_row);  // the savings fall in the order of `expected`
    previous_row = at;
    // diagnostics.csv: the same with full precision.
    std::smatch csv_row;
    REQUIRE(std::regex_search(r.csv, csv_row,
                              std::regex("\n[^\n]*" + diagnostic + ",yes,[^\n]*,([0-9.e-]+),([0-9.e-]+),([0-9.e-]+)\n")));
    CHECK(fmt::format("{:.6f}", std::stod(csv_row[1].str())) == fix[2].str());
    CHECK(fmt::format("{:.6f}", std::stod(csv_row[2].str())) == fix[1].str());
  }
  // Only what fires: none of the diagnostics that are fine, nothing not measured.
  CHECK(r.section.find("<td class=\"name\">occupancy limiter</td>") == std::string::npos);
  CHECK(r.section.find("Not measured") == std::string::npos);
  CHECK(std::count(r.csv.begin(), r.csv.end(), '\n') == 1 + 4);
}

TEST_CASE("report's Diagnostics: a hostile kernel name is data, in the section and in diagnostics.csv") {
  json hostile = profile_json("access_strided")["kernels"][0];
  hostile["name"] = kHostile;
  hostile.erase("mangled_name");
  const Report r = report(four_kernels({hostile}), {"--device", kDevice});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  // Its uncoalesced loads fire, as the strided kernel's do: a row with the escaped name.
  CHECK_THAT(r.section, Catch::Contains("<td class=\"name\">&lt;script&gt;alert(1)&lt;/script&gt;\\x0anext</td>"
                                        "<td class=\"name\">NVIDIA H100 80GB HBM3</td><td class=\"name\">uncoalesced "
                                        "global loads</td>"));
  CHECK(r.html.find("<script") == std::string::npos);
  CHECK(r.html.find("alert(1)</script>\n") == std::string::npos);
  CHECK_THAT(r.csv, Catch::Contains("\n<script>alert(1)</script>\\x0anext,NVIDIA H100 80GB HBM3,uncoalesced global "
                                    "loads,yes,"));
  CHECK(std::count(r.csv.begin(), r.csv.end(), '\n') == 1 + 5);  // one line per row: the newline escaped
}

TEST_CASE("report's Diagnostics: profiles without the counters say \"not measured\" and still report") {
  SECTION("only the nine counters of the thesis model") {
    json profile = profile_json("access_strided");
    profile["kernels"][0] = without_diagnostic_counters("access_strided");
    const Report r = report(profile, {"--device", kDevice});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.section, Catch::Contains("No diagnostic fires for these kernels."));
    for (const char* name : {"uncoalesced global loads", "warp divergence", "shared-memory bank conflicts"}) {
      CHECK_THAT(r.section, Catch::Contains(std::string("</strong>: ") + name + ": not measured (the profile lacks"));
      CHECK(std::regex_search(r.csv, std::regex(std::string(",") + name + ",no,\"?not measured \\(the profile lacks")));
    }
    // Occupancy and the tail need the launch shape only: measured, and fine.
    CHECK_THAT(r.section, !Catch::Contains("</strong>: occupancy limiter") && !Catch::Contains("</strong>: tail effect"));
  }
  SECTION("published model parameters (the thesis' Rodinia kernels)") {
    const Report r = report_of("thesis-rodinia", temporary_folder(), {"--device", "GTX-660"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.section, Catch::Contains("<li><strong>lvmd-krn</strong>: all diagnostics: not measured (the profile "
                                          "gives this kernel&#39;s model parameters, not its counters)</li>"));
    // Not measured on every device: one row, no device named.
    CHECK_THAT(r.csv, Catch::Contains("\nlvmd-krn,,all diagnostics,no,"));
  }
  SECTION("a device profile without occupancy limits (the thesis' GPUs)") {
    const Report r = report(profile_json("access_strided"), {"--device", kDevice, "--device", "GTX-660"});
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK_THAT(r.section, Catch::Contains(": occupancy limiter: not measured (the profile lacks a launch shape, or the "
                                          "device its occupancy limits) (on GTX-660)</li>"));
    CHECK_THAT(r.csv, Catch::Contains(",GTX-660,occupancy limiter,no,"));
    // It still fires on both: the H100's numbers as without the GTX-660.
    CHECK(std::count(r.csv.begin(), r.csv.end(), '\n') == 1 + 2 + 2);
  }
}

TEST_CASE("report's Diagnostics: the shown kernels' with --top, every kernel's with --all-diagnostics") {
  const json profile = four_kernels();
  // The two with the most predicted time: the strided loads and the bank conflicts.
  const Report top = report(profile, {"--device", kDevice, "--top", "2"});
  INFO(top.err);
  REQUIRE(top.exit_code == 0);
  CHECK_THAT(top.section, Catch::Contains(">uncoalesced global loads<") &&
                              Catch::Contains(">shared-memory bank conflicts<") &&
                              !Catch::Contains(">warp divergence<") && !Catch::Contains(">tail effect<"));
  CHECK_THAT(top.section, Catch::Contains("every kernel's with <code>roofcast report --all-diagnostics</code>"));
  CHECK(std::count(top.csv.begin(), top.csv.end(), '\n') == 1 + 2);
  CHECK_THAT(top.out, Catch::Contains("the shown kernels' diagnostics in"));

  const Report all = report(profile, {"--device", kDevice, "--top", "2", "--all-diagnostics"});
  REQUIRE(all.exit_code == 0);
  CHECK_THAT(all.section, Catch::Contains("Those of every kernel, with full precision"));
  CHECK_THAT(all.section, !Catch::Contains(">warp divergence<"));
  CHECK(std::count(all.csv.begin(), all.csv.end(), '\n') == 1 + 4);
  CHECK_THAT(all.csv, Catch::Contains(",warp divergence,yes,") && Catch::Contains(",tail effect,yes,"));
}

TEST_CASE("report's Diagnostics with --model thesis: none, as explain gives none, and the page says why") {
  const Report r = report(four_kernels(), {"--device", kDevice, "--model", "thesis"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.section, Catch::Contains("predictions of the pipes model") && !Catch::Contains("<table>"));
  CHECK_FALSE(fs::exists(r.folder / "report" / "diagnostics.csv"));
}
