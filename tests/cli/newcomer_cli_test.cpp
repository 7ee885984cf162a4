// The first hour of a new user (issue 29, items 1-7), as a user types the commands: devices by
// the names people give them, defaults, kernels as ncu -k takes them, long names, units, exit
// statuses, help.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <unistd.h>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

using roofcast::testing::run_roofcast;
namespace fs = std::filesystem;

namespace {

const std::string kCorpus = std::string(ROOFCAST_SOURCE_DIR) + "/docs/validation/2026-11-24-latency/h200-run/profiles/";

// The id of the device that `--device name` resolves to (predict's JSON), or the error line.
std::string resolved_id(const std::string& name) {
  const auto result = run_roofcast({"predict", "--profile", "thesis-redblack", "--device", name, "--format", "json"});
  if (result.exit_code != 0) return "exit " + std::to_string(result.exit_code) + ": " + result.err;
  return nlohmann::json::parse(result.out)["predictions"][0]["device_id"].get<std::string>();
}

std::vector<std::string> current_device_ids() {
  const auto listed = run_roofcast({"devices", "--format", "json"});
  REQUIRE(listed.exit_code == 0);
  const auto devices = nlohmann::json::parse(listed.out);
  std::vector<std::string> ids;
  for (const auto& device : devices) ids.push_back(device["id"].get<std::string>());
  return ids;
}

}  // namespace

// Item 1.
TEST_CASE("a device is named by its id, full name, short name or partition, case ignored") {
  CHECK(resolved_id("h100-sxm") == "h100-sxm");
  CHECK(resolved_id("H100") == "h100-sxm");
  CHECK(resolved_id("h100") == "h100-sxm");
  CHECK(resolved_id("NVIDIA H100") == "h100-sxm");
  CHECK(resolved_id("NVIDIA H100 80GB HBM3") == "h100-sxm");  // the name a profile's reference device carries
  CHECK(resolved_id("H200") == "h200-sxm");
  CHECK(resolved_id("H200 SXM") == "h200-sxm");
  CHECK(resolved_id("h200_sxm") == "h200-sxm");
  CHECK(resolved_id("H200 MPS 25%") == "h200-sxm-mps25");
  CHECK(resolved_id("h200-mps25") == "h200-sxm-mps25");
  CHECK(resolved_id("GTX-660") == "thesis-gtx-660");
  CHECK(resolved_id("gtx660") == "thesis-gtx-660");
  CHECK(resolved_id("K20c") == "thesis-tesla-k20c");
}

TEST_CASE("an unknown device name lists the devices with their ids and suggests the closest") {
  const auto unknown = run_roofcast({"predict", "--profile", "thesis-redblack", "--device", "H210"});
  CHECK(unknown.exit_code == 1);
  CHECK_THAT(unknown.err, Catch::Contains("--device H210: unknown device") && Catch::Contains("the closest: h2") &&
                              Catch::Contains("thesis-gtx-660 (GTX-660)") && Catch::Contains("h100-sxm (NVIDIA H100"));
  CHECK(std::count(unknown.err.begin(), unknown.err.end(), '\n') == 1);
}

TEST_CASE("a name two devices share is refused with both ids, both are told apart by an id column") {
  const auto folder = fs::temp_directory_path() / ("roofcast-twins-" + std::to_string(::getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder / "devices");
  for (const char* id : {"twin-a", "twin-b"})
    std::ofstream(folder / "devices" / (std::string(id) + ".json")) << R"({
      "format": "roofcast-device", "version": 1, "name": "Twin GPU",
      "throughput": { "fp32_gflops": 1000, "fp64_gflops": 500, "int32_mad_giops": 250,
                      "int32_add_giops": 500, "shared_ldst_gops": 250, "dram_gbps": 100 } })";
  ::setenv("ROOFCAST_DATA_DIR", folder.c_str(), 1);
  const auto ambiguous = run_roofcast({"predict", "--profile", "thesis-redblack", "--device", "twin"});
  const auto both = run_roofcast({"predict", "--model", "thesis", "--profile", "thesis-redblack", "--device", "twin-a",
                                  "--device", "twin-b", "--format", "csv"});
  const auto table = run_roofcast({"predict", "--model", "thesis", "--profile", "thesis-redblack", "--device", "twin-a",
                                   "--device", "twin-b"});
  ::unsetenv("ROOFCAST_DATA_DIR");
  fs::remove_all(folder);
  CHECK(ambiguous.exit_code == 1);
  CHECK_THAT(ambiguous.err, Catch::Contains("--device twin: names 2 devices") && Catch::Contains("twin-a (Twin GPU)") &&
                                Catch::Contains("twin-b (Twin GPU)"));
  REQUIRE(both.exit_code == 0);
  CHECK_THAT(both.out, Catch::StartsWith("kernel,device,device_id,") && Catch::Contains("Twin GPU,twin-a,") &&
                           Catch::Contains("Twin GPU,twin-b,"));
  CHECK_THAT(table.out, Catch::Contains("twin-a") && Catch::Contains("twin-b"));
}

// Item 2.
TEST_CASE("with no --device, commands use every current device roofcast devices lists") {
  const std::vector<std::string> ids = current_device_ids();
  CHECK(std::find(ids.begin(), ids.end(), "h100-sxm") != ids.end());
  CHECK(std::find(ids.begin(), ids.end(), "thesis-gtx-660") != ids.end());
  for (const std::vector<std::string>& extra : {std::vector<std::string>{}, {"--all-devices"}}) {
    std::vector<std::string> command = {"predict", "--profile", "thesis-redblack", "--format", "json"};
    command.insert(command.end(), extra.begin(), extra.end());
    const auto predicted = run_roofcast(command);
    REQUIRE(predicted.exit_code == 0);
    const auto totals = nlohmann::json::parse(predicted.out)["totals"];
    std::vector<std::string> used;
    for (const auto& total : totals)
      used.push_back(total["device_id"].get<std::string>());
    CHECK(used == ids);
  }
}

TEST_CASE("rank ranks the GPUs one can buy or run on, not the thesis' 2010-2016 GPUs") {
  const auto ranked = run_roofcast({"rank", "--profile", kCorpus + "stream.json", "--format", "json"});
  INFO(ranked.err);
  REQUIRE(ranked.exit_code == 0);
  const auto devices = nlohmann::json::parse(ranked.out)["devices"];
  REQUIRE(devices.size() >= 2);
  for (const auto& device : devices) CHECK_THAT(device["device_id"].get<std::string>(), Catch::StartsWith("h"));
  // --all-devices takes the thesis' GPUs too.
  const auto all = run_roofcast({"rank", "--profile", kCorpus + "stream.json", "--all-devices", "--format", "json"});
  REQUIRE(all.exit_code == 0);
  CHECK(nlohmann::json::parse(all.out)["devices"].size() == current_device_ids().size());
}

// Item 3.
TEST_CASE("the kernel option takes what ncu -k takes: base name, a part, regex:, the whole or mangled name") {
  const std::string stream = kCorpus + "stream.json";
  for (const char* name : {"stream_triad", "triad", "regex:tri.d",
                           "stream_triad(double*, double const*, double const*, unsigned long)"}) {
    const auto explained = run_roofcast({"explain", "--profile", stream, "--kernel", name, "--device", "H100"});
    INFO(name << ": " << explained.err);
    CHECK(explained.exit_code == 0);
    CHECK_THAT(explained.out, Catch::StartsWith("Kernel stream_triad of "));
  }
  const auto several = run_roofcast({"explain", "--profile", stream, "--kernel", "regex:^stream_(add|copy)", "--device", "H100"});
  CHECK(several.exit_code == 1);
  CHECK_THAT(several.err, Catch::Contains("2 kernels of") && Catch::Contains("\"stream_copy\" (5 launches)") &&
                              Catch::Contains("\"stream_add\" (5 launches)"));
  const auto typo = run_roofcast({"split", "--profile", stream, "--kernel", "stream_triads", "--device", "H100", "--device", "H200"});
  CHECK(typo.exit_code == 1);
  CHECK_THAT(typo.err, Catch::Contains("did you mean stream_triad?"));
  // tune and plot quadrant find kernels the same way.
  CHECK(run_roofcast({"tune", "--profile", stream, "--kernel", "triad", "--device", "H100", "--format", "json"}).exit_code == 0);
}

TEST_CASE("import ncu demangles names as the collector writes them and keeps the mangled name") {
  const std::string sample = std::string(ROOFCAST_SOURCE_DIR) + "/profiler/samples/ncu-testapp-h200.csv";
  const std::string out = roofcast::testing::temporary_file("imported.json", "");
  fs::remove(out);
  const auto imported = run_roofcast({"import", "ncu", sample, "-o", out});
  INFO(imported.err);
  REQUIRE(imported.exit_code == 0);
  const auto profile = nlohmann::json::parse(roofcast::testing::file_text(out));
  bool fill = false;
  for (const auto& kernel : profile["kernels"])
    if (kernel["name"] == "fill_kernel(float*, unsigned long, float)") fill = kernel["mangled_name"] == "_Z11fill_kernelPfmf";
  CHECK(fill);
  for (const char* name : {"_Z11fill_kernelPfmf", "fill_kernel"}) {
    const auto explained = run_roofcast({"explain", "--profile", out, "--kernel", name, "--device", "H200"});
    INFO(name << ": " << explained.err);
    CHECK(explained.exit_code == 0);
  }
}

// Item 4.
TEST_CASE("long kernel names are shortened in tables and the report, whole in JSON, CSV and title attributes") {
  const std::string pytorch = kCorpus + "pytorch_ops.json";
  const auto ranked = run_roofcast({"rank", "--profile", pytorch, "--device", "H100"});
  REQUIRE(ranked.exit_code == 0);
  size_t longest_line = 0;
  for (size_t start = 0, end; start < ranked.out.size(); start = end + 1) {
    end = ranked.out.find('\n', start);
    if (end == std::string::npos) end = ranked.out.size();
    longest_line = std::max(longest_line, end - start);
  }
  CHECK(longest_line < 400);  // three names of up to 5,100 characters each, shortened
  const auto predicted = run_roofcast({"predict", "--profile", pytorch, "--device", "H100"});
  REQUIRE(predicted.exit_code == 0);
  CHECK(predicted.out.find("distribution_elementwise_grid_stride_kernel<float, 4, at::native::templates") ==
        std::string::npos);
  const auto csv = run_roofcast({"predict", "--profile", pytorch, "--device", "H100", "--format", "csv"});
  CHECK_THAT(csv.out, Catch::Contains("(int, at::native::AbsFunctor<double>, std::array<char*, 2ul>)"));  // whole signatures

  const fs::path folder = roofcast::testing::temporary_folder() / "report";
  const auto report = run_roofcast({"report", "--profile", pytorch, "--device", "H100", "-o", folder.string()});
  INFO(report.err);
  REQUIRE(report.exit_code == 0);
  const std::string html = roofcast::testing::file_text(folder / "index.html");
  CHECK_THAT(html, Catch::Contains("<span title=\"void at::native::"));
  CHECK_THAT(html, Catch::Contains("td.name { white-space: normal"));
}

// Item 5.
TEST_CASE("every time column names its unit and whether it is per launch or a total, JSON and CSV give both") {
  const std::string stream = kCorpus + "stream.json";
  const auto table = run_roofcast({"predict", "--profile", stream, "--device", "H200"});
  REQUIRE(table.exit_code == 0);
  CHECK_THAT(table.out, Catch::Contains("Times in ms, each the total over the kernel's profiled launches") &&
                            Catch::Contains("predicted ms total") && Catch::Contains("measured ms total") &&
                            Catch::Contains("launches"));
  const auto json = run_roofcast({"predict", "--profile", stream, "--device", "H200", "--format", "json"});
  REQUIRE(json.exit_code == 0);
  for (const auto& p : nlohmann::json::parse(json.out)["predictions"]) {
    CHECK(p["invocations"] == 5);
    CHECK(p["predicted_ms_per_launch"].get<double>() == Approx(p["predicted_ms"].get<double>() / 5));
    CHECK(p["measured_ms_per_launch"].get<double>() == Approx(p["measured_ms"].get<double>() / 5));
  }
  const auto csv = run_roofcast({"predict", "--profile", stream, "--device", "H200", "--format", "csv"});
  CHECK_THAT(csv.out, Catch::Contains(",invocations,predicted_ms_per_launch,measured_ms_per_launch\n"));

  const auto explained = run_roofcast({"explain", "--profile", stream, "--kernel", "stream_add", "--device", "H200"});
  CHECK_THAT(explained.out, Catch::Contains("totals over the 5 profiled launches") && Catch::Contains("Per launch: predicted"));
  const auto tuned = run_roofcast({"tune", "--profile", stream, "--kernel", "stream_add", "--device", "H200"});
  CHECK_THAT(tuned.out, Catch::Contains("Times in ms per launch") && Catch::Contains("predicted ms/launch"));
  const auto tuned_csv = run_roofcast({"tune", "--profile", stream, "--kernel", "stream_add", "--device", "H200", "--format", "csv"});
  CHECK_THAT(tuned_csv.out, Catch::Contains("predicted ms/launch,predicted ms total"));
  const auto ranked = run_roofcast({"rank", "--profile", stream, "--device", "H200"});
  CHECK_THAT(ranked.out, Catch::Contains("app ms total"));
  const auto split = run_roofcast({"split", "--profile", stream, "--kernel", "stream_add", "--device", "H200",
                                   "--device", "H100", "--format", "json"});
  REQUIRE(split.exit_code == 0);
  const auto s = nlohmann::json::parse(split.out);
  CHECK(s["devices"][0]["alone_ms_per_launch"].get<double>() == Approx(s["devices"][0]["alone_ms"].get<double>() / 5));
}

// Item 6.
TEST_CASE("usage errors exit 2, bad input 1, and --help says so") {
  const auto typo = run_roofcast({"predcit", "--profile", "thesis-redblack"});
  CHECK(typo.exit_code == 2);
  CHECK_THAT(typo.err, Catch::Contains("unknown command \"predcit\"") && Catch::Contains("did you mean `roofcast predict`?"));
  const auto sub_typo = run_roofcast({"plot", "roofilne", "--device", "H100"});
  CHECK(sub_typo.exit_code == 2);
  CHECK_THAT(sub_typo.err, Catch::Contains("did you mean `roofcast plot roofline`?"));
  CHECK(run_roofcast({}).exit_code == 2);
  CHECK(run_roofcast({"predict"}).exit_code == 2);                                               // a required option
  CHECK(run_roofcast({"predict", "--profile", "thesis-redblack", "--no-such-option"}).exit_code == 2);
  CHECK(run_roofcast({"predict", "--profile", "thesis-redblack", "--format", "xml"}).exit_code == 2);
  CHECK(run_roofcast({"rank", "--profile", "thesis-redblack", "--top", "-1"}).exit_code == 2);
  CHECK(run_roofcast({"validate", "--profile", "thesis-redblack"}).exit_code == 2);  // no device to validate on
  CHECK(run_roofcast({"predict", "--profile", "no-such-profile"}).exit_code == 1);
  CHECK(run_roofcast({"predict", "--profile", "thesis-redblack", "--device", "no-such-gpu"}).exit_code == 1);
  const auto help = run_roofcast({"predict", "--help"});
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.out, Catch::Contains("Exit status: 0 on success; 1 for bad input") &&
                           Catch::Contains("2 for a usage error"));
  CHECK_THAT(run_roofcast({"--help"}).out, Catch::Contains("Exit status:"));
}

TEST_CASE("report -o on an existing file says so in one line and exits 1") {
  const std::string file = roofcast::testing::temporary_file("existing.html", "mine");
  const auto report = run_roofcast({"report", "--profile", "thesis-redblack", "--device", "GTX-660", "-o", file});
  CHECK(report.exit_code == 1);
  CHECK_THAT(report.err, Catch::Contains(file + ": is a file; roofcast replaces only folders here"));
  CHECK(std::count(report.err.begin(), report.err.end(), '\n') == 1);
  CHECK(report.err.find("internal error") == std::string::npos);
  CHECK(roofcast::testing::file_text(file) == "mine");
}

// Item 7.
TEST_CASE("help tells the truth: plot roofline takes one --device, --model cites docs that exist") {
  const auto help = run_roofcast({"plot", "roofline", "--help"});
  REQUIRE(help.exit_code == 0);
  const size_t device = help.out.find("--device");
  REQUIRE(device != std::string::npos);
  const std::string line = help.out.substr(device, help.out.find('\n', device) - device);
  CHECK_THAT(line, !Catch::Contains("...") && !Catch::Contains("x N"));
  const auto two = run_roofcast({"plot", "roofline", "--device", "H100", "--device", "H200", "-o", "x.svg"});
  CHECK(two.exit_code == 2);
  for (const char* command : {"predict", "explain", "rank", "split", "tune", "report", "validate"}) {
    const auto text = run_roofcast({command, "--help"}).out;
    INFO(command);
    CHECK(text.find("docs/model.md") == std::string::npos);
    for (size_t at = text.find("docs/"); at != std::string::npos; at = text.find("docs/", at + 1)) {
      const size_t end = text.find(".md", at);
      REQUIRE(end != std::string::npos);
      CHECK(fs::exists(fs::path(ROOFCAST_SOURCE_DIR) / text.substr(at, end + 3 - at)));
    }
  }
}
