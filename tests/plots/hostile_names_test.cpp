// Names are data: kernel and device names made to look like gnuplot commands, terminal escape
// sequences or markup reach charts, reports, tables, CSV and error messages as text only.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "run_command.hpp"
#include "xml_tree.hpp"

using roofcast::testing::file_text;
using roofcast::testing::run_roofcast;
using roofcast::testing::run_roofcast_within;
using roofcast::testing::temporary_folder;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// gnuplot runs in the chart's folder: each name tries to create a file there. Each fits in the
// 30 characters that chart titles keep of a name.
const std::string kNewlineSystem = "x\nsystem('touch PWNED')\n";
const std::string kNewlineShell = "x\n!touch PWNED2";
const std::string kBackquotes = "`touch PWNED3`";
const std::string kDevice = "GPU\nsystem('touch PWNED4')\n";
const std::string kTerminalEscape = "k\x1b]0;owned\x07\x1b[2J";
const std::string kMarkup = "<b>bold</b> & =HYPERLINK(\"x\") \\";
const std::vector<std::string> kMarkers = {"PWNED", "PWNED2", "PWNED3", "PWNED4"};

json kernel(const std::string& name, double dram_transactions) {
  return {{"name", name},
          {"invocations", 1},
          {"measured_ms_by_device", {{kDevice, 1.5}}},
          {"counters",
           {{"flop_count_sp_fma", 1e9}, {"flop_count_dp_fma", 0}, {"inst_compute_ld_st", 1e8}, {"inst_executed", 5e8},
            {"inst_fp_32", 2e9}, {"inst_fp_64", 0}, {"inst_integer", 1e8}, {"dram_read_transactions", dram_transactions},
            {"dram_write_transactions", dram_transactions / 2}}}};
}

// A profile whose kernels, and a device profile whose name, carry the hostile names.
struct HostileInputs {
  fs::path folder, profile, device;
};

HostileInputs hostile_inputs() {
  HostileInputs inputs{temporary_folder(), {}, {}};
  inputs.profile = inputs.folder / "profile.json";
  inputs.device = inputs.folder / "device.json";
  const json profile = {{"format", "roofcast-profile"},
                        {"version", 1},
                        {"reference_device", kDevice},
                        {"kernels",
                         {kernel(kNewlineSystem, 4e7), kernel(kNewlineShell, 2e7), kernel(kBackquotes, 1e7),
                          kernel(kTerminalEscape, 3e6), kernel(kMarkup, 1e6)}}};
  const json device = {{"format", "roofcast-device"},
                       {"version", 1},
                       {"name", kDevice},
                       {"throughput",
                        {{"fp32_gflops", 1940.8}, {"fp64_gflops", 89.7}, {"int32_mad_giops", 359.04},
                         {"int32_add_giops", 621.36}, {"shared_ldst_gops", 169.58}, {"dram_gbps", 117.56}}}};
  std::ofstream(inputs.profile) << profile.dump(2);
  std::ofstream(inputs.device) << device.dump(2);
  return inputs;
}

void check_no_marker(const fs::path& folder) {
  for (const auto& marker : kMarkers) {
    INFO(folder / marker);
    CHECK_FALSE(fs::exists(folder / marker));
    CHECK_FALSE(fs::exists(fs::current_path() / marker));
  }
}

// No byte below 0x20 but newline (and tab where allowed: gnuplot indents its SVG with tabs), and
// no DEL: nothing that a terminal or parser acts on.
bool only_text(const std::string& text, bool tabs_allowed = false) {
  return std::none_of(text.begin(), text.end(), [&](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && c != '\n' && !(tabs_allowed && c == '\t')) || byte == 0x7F;
  });
}

}  // namespace

TEST_CASE("names that look like gnuplot commands are never run by plot, rank or report") {
  const HostileInputs in = hostile_inputs();
  const std::string profile = in.profile.string(), device = in.device.string();
  const std::vector<std::pair<std::vector<std::string>, fs::path>> runs{
      {{"plot", "roofline", "--device", device, "--profile", profile, "--output", (in.folder / "r.svg").string()},
       in.folder / "r.svg"},
      {{"plot", "roofline", "--device", device, "--output", (in.folder / "r-alone.png").string()},
       in.folder / "r-alone.png"},
      {{"plot", "quadrant", "--profile", profile, "--kernel", kNewlineSystem, "--device", device, "--device",
        "GTX-660", "--output", (in.folder / "q1.svg").string()},
       in.folder / "q1.svg"},
      {{"plot", "quadrant", "--profile", profile, "--kernel", kNewlineShell, "--device", device, "--output",
        (in.folder / "q2.svg").string()},
       in.folder / "q2.svg"},
      {{"plot", "quadrant", "--profile", profile, "--kernel", kBackquotes, "--device", device, "--output",
        (in.folder / "q3.svg").string()},
       in.folder / "q3.svg"},
      {{"plot", "accuracy", "--profile", profile, "--device", device, "--output", (in.folder / "a.svg").string()},
       in.folder / "a.svg"},
      {{"rank", "--profile", profile, "--device", device, "--device", "GTX-660", "--chart",
        (in.folder / "rank.svg").string()},
       in.folder / "rank.svg"},
      {{"report", "--profile", profile, "--device", device, "--output", (in.folder / "report").string(),
        "--quadrant-kernels", "5"},
       in.folder / "report" / "index.html"},
  };
  for (const auto& [arguments, output] : runs) {
    INFO(arguments[0] << " " << arguments[1]);
    const auto result = run_roofcast(arguments);
    INFO(result.err);
    CHECK(result.exit_code == 0);
    CHECK(fs::exists(output));
    check_no_marker(in.folder);
    check_no_marker(in.folder / "report" / "charts");
  }
  // Every script and data file is text: one line per command, row or comment.
  for (const auto& folder : {in.folder, in.folder / "report" / "charts"})
    for (const auto& entry : fs::directory_iterator(folder))
      if (entry.path().extension() == ".gp" || entry.path().extension() == ".dat") {
        INFO(entry.path());
        CHECK(only_text(file_text(entry.path())));
      }
  // The names are still shown, escaped.
  const auto svg = roofcast::testing::parse_xml(file_text(in.folder / "q1.svg"));
  CHECK_THAT(svg->all_text(), Catch::Contains("GPU\\x0asystem('touch PWNED4')\\x0a"));
  const std::string html = file_text(in.folder / "report" / "index.html");
  CHECK(only_text(html, true));
  CHECK_THAT(html, Catch::Contains("x\\x0a!touch PWNED2") && Catch::Contains("k\\x1b]0;owned\\x07\\x1b[2J") &&
                       Catch::Contains("&lt;b&gt;bold&lt;/b&gt; &amp; =HYPERLINK(&quot;x&quot;) \\"));
  CHECK_THAT(html, !Catch::Contains("<b>bold"));
  // The report's full data: every name escaped as in any CSV output.
  const std::string predictions = file_text(in.folder / "report" / "predictions.csv");
  CHECK(only_text(predictions));
  CHECK_THAT(predictions, Catch::Contains("predicted_ms GPU\\x0asystem('touch PWNED4')\\x0a") &&
                              Catch::Contains("\nk\\x1b]0;owned\\x07\\x1b[2J,") &&
                              Catch::Contains("\n\"<b>bold</b> & =HYPERLINK(\"\"x\"\") \\\","));
  const std::string warnings = file_text(in.folder / "report" / "warnings.csv");
  CHECK(only_text(warnings));
  CHECK_THAT(warnings, Catch::StartsWith("kind,kernel,detail\n"));
}

TEST_CASE("names reach the terminal, CSV and error messages with control characters escaped") {
  const HostileInputs in = hostile_inputs();
  const std::string profile = in.profile.string(), device = in.device.string();

  auto result = run_roofcast({"predict", "--model", "thesis", "--profile", profile, "--device", device});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(only_text(result.out));
  CHECK_THAT(result.out, Catch::Contains("k\\x1b]0;owned\\x07\\x1b[2J") && Catch::Contains("x\\x0a!touch PWNED2"));

  result = run_roofcast({"predict", "--model", "thesis", "--profile", profile, "--device", device, "--format", "csv"});
  REQUIRE(result.exit_code == 0);
  CHECK(only_text(result.out));
  // One record per kernel and a header: no name breaks a record.
  CHECK(std::count(result.out.begin(), result.out.end(), '\n') == 6);
  CHECK_THAT(result.out, Catch::Contains("\"<b>bold</b> & =HYPERLINK(\"\"x\"\") \\\","));

  result = run_roofcast({"plot", "quadrant", "--profile", profile, "--kernel", "\x1b[31mred\x1b[0m\n", "--device",
                         device});
  CHECK(result.exit_code == 1);
  CHECK(only_text(result.err));
  CHECK_THAT(result.err, Catch::StartsWith("roofcast: --kernel \\x1b[31mred\\x1b[0m\\x0a: no kernel of") &&
                             Catch::Contains("k\\x1b]0;owned\\x07\\x1b[2J"));
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
}

TEST_CASE("a path that is not UTF-8 is written to JSON output as printable() shows it, not an internal error") {
  const HostileInputs in = hostile_inputs();
  const fs::path odd = in.folder / "profile-\xff\xfe.json";
  fs::copy_file(in.profile, odd);
  const auto result =
      run_roofcast({"predict", "--model", "thesis", "--profile", odd.string(), "--device", "GTX-660", "--format", "json"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const json document = json::parse(result.out);
  // As error messages name it: the odd bytes as \xNN, so the path can still be told from others.
  CHECK(document["profile"].get<std::string>() == (in.folder / "profile-\\xff\\xfe.json").string());
}

// The readers refuse such times first (docs/formats.md, numbers every reader accepts); the charts'
// own range check, for values that reach them another way, is tested in validation_entries_test.
TEST_CASE("times beyond what a chart can draw end plot accuracy and report at once with the entry named") {
  const auto folder = temporary_folder();
  const auto validation = folder / "validation.json";
  std::ofstream(validation) << R"({"format": "roofcast-validation", "version": 1, "entries": [
      {"kernel": "k1", "device": "H100", "predicted_ms": 1.5, "measured_ms": 1.2},
      {"kernel": "huge", "device": "H100", "predicted_ms": 1.7e308, "measured_ms": 1.7e308}]})";
  // Once: the axis range with its margin overflowed to infinity and the tick loop never ended.
  auto result = run_roofcast_within(
      60, {"plot", "accuracy", "--validation", validation.string(), "--output", (folder / "a.svg").string()});
  CHECK(result.exit_code == 1);
  CHECK(result.err == "roofcast: " + validation.string() +
                          ": entries[1].predicted_ms: must be between 1e-12 and 1e+20, found 1.7e+308\n");

  // Counters near the double range: the predicted time is infinite.
  const auto profile = folder / "profile.json";
  json huge = kernel("huge", 1e308);
  huge["counters"]["flop_count_sp_fma"] = 1e308;
  huge["counters"]["inst_fp_32"] = 1.7e308;
  huge["counters"]["inst_executed"] = 1.7e308;
  std::ofstream(profile) << json{{"format", "roofcast-profile"}, {"version", 1}, {"kernels", {kernel("k1", 4e7), huge}}}
                                .dump();
  for (const std::vector<std::string>& arguments :
       {std::vector<std::string>{"report", "--profile", profile.string(), "--device", "GTX-660", "--output",
                                 (folder / "report").string()},
        std::vector<std::string>{"plot", "roofline", "--profile", profile.string(), "--device", "GTX-660", "--output",
                                 (folder / "r.svg").string()},
        std::vector<std::string>{"plot", "quadrant", "--profile", profile.string(), "--kernel", "huge", "--device",
                                 "GTX-660", "--output", (folder / "q.svg").string()}}) {
    INFO(arguments[0] << " " << arguments[1]);
    result = run_roofcast_within(60, arguments);
    CHECK(result.exit_code == 1);
    CHECK_THAT(result.err, Catch::Contains("huge"));
    CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  }
}

TEST_CASE("report draws a chart for each kernel whatever its name: template names past a file name's "
          "length, names that differ only in punctuation") {
  const fs::path folder = temporary_folder();
  std::string long_name = "void at::native::vectorized_elementwise_kernel<4, ";
  while (long_name.size() < 400) long_name += "at::native::BinaryFunctor<float, float, float, at::native::MulFunctor<float>>, ";
  const json profile = {{"format", "roofcast-profile"},
                        {"version", 1},
                        {"reference_device", kDevice},
                        {"kernels",
                         {kernel(long_name + "A>", 4e7), kernel(long_name + "B>", 3e7), kernel("scale<1>", 2e7),
                          kernel("scale(1)", 1e7)}}};
  std::ofstream(folder / "profile.json") << profile.dump(2);
  const auto result = run_roofcast({"report", "--profile", (folder / "profile.json").string(), "--device", "GTX-660",
                                    "--quadrant-kernels", "4", "--output", (folder / "report").string()});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  std::set<std::string> charts;
  for (const auto& entry : fs::directory_iterator(folder / "report" / "charts")) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("quadrant-") && name.ends_with(".svg")) {
      CHECK(name.size() < 128);
      charts.insert(name);
    }
  }
  CHECK(charts.size() == 4);
  CHECK(charts.contains("quadrant-scale-1.svg"));
  CHECK(charts.contains("quadrant-scale-1-2.svg"));
  fs::remove_all(folder);
}
