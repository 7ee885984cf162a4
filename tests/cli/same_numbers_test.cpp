// Every command that predicts gives the same time for the same kernel, device and model: the
// models sit behind one interface (model/include/roofcast/model/predictor.hpp), and no command
// wires its own. Each command runs as a user runs it, with both models; its time is read back
// from its output (JSON, CSV, or a chart's data file).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "run_command.hpp"

using roofcast::testing::run_roofcast;
namespace fs = std::filesystem;

namespace {

constexpr const char* kProfile = "thesis-redblack";
constexpr const char* kKernel = "sor_red";
constexpr const char* kDevice = "GTX-660";

nlohmann::json json_of(const std::vector<std::string>& arguments) {
  const auto result = run_roofcast(arguments);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  return nlohmann::json::parse(result.out);
}

std::vector<std::string> words_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

// Column `column` of the first line of `file` whose last word is `last` (a chart's data file).
double data_column(const fs::path& file, const std::string& last, size_t column) {
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);) {
    const auto words = words_of(line);
    if (words.size() > column && words.back() == last && line[0] != '#') return std::stod(words[column]);
  }
  FAIL("no line ending in " << last << " in " << file);
  return 0;
}

fs::path fresh_folder(const std::string& name) {
  const auto folder = fs::temp_directory_path() / ("roofcast-same-numbers-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

}  // namespace

TEST_CASE("every command gives the same time for the same kernel, device and model") {
  std::map<std::string, double> expected_by_model;
  for (const std::string model : {"thesis", "pipes"}) {
    INFO("--model " << model);
    const auto predicted = json_of({"predict", "--model", model, "--profile", kProfile, "--device", kDevice, "--format", "json"});
    REQUIRE(predicted["model"] == model);
    const double expected = predicted["predictions"][0]["predicted_ms"].get<double>();
    expected_by_model[model] = expected;
    // Charts write 6 significant digits; JSON writes every digit.
    const auto same = [&](double value, double digits) { CHECK(value == Approx(expected).epsilon(digits)); };

    const auto explained =
        json_of({"explain", "--model", model, "--profile", kProfile, "--device", kDevice, "--format", "json"});
    same(explained["predictions"][0]["predicted_ms"].get<double>(), 1e-12);

    const auto validated = json_of({"validate", "--model", model, "--reference-profile", kProfile, "--device", kDevice,
                                    "--output", "-"});
    CHECK(validated["model"] == model);
    same(validated["entries"][0]["predicted_ms"].get<double>(), 1e-12);

    const auto ranked = json_of({"rank", "--model", model, "--profile", kProfile, "--device", kDevice, "--format", "json"});
    CHECK(ranked["model"] == model);
    same(ranked["devices"][0]["top_kernels"][0]["predicted_ms"].get<double>(), 1e-12);

    const auto split = json_of({"split", "--model", model, "--profile", kProfile, "--kernel", kKernel, "--device",
                                kDevice, "--device", "GTX-480", "--blocks", "1000", "--format", "json"});
    CHECK(split["model"] == model);
    for (const auto& device : split["devices"])
      if (device["device"] == kDevice) same(device["alone_ms"].get<double>(), 1e-12);

    const auto folder = fresh_folder(model);
    const auto run_in_folder = [&](std::vector<std::string> arguments) {
      const auto result = run_roofcast(arguments);
      INFO(result.err);
      REQUIRE(result.exit_code == 0);
    };
    run_in_folder({"plot", "quadrant", "--model", model, "--profile", kProfile, "--kernel", kKernel, "--device", kDevice,
                   "--output", (folder / "quadrant.svg").string()});
    same(data_column(folder / "quadrant.dat", "\"GTX-660\"", 8), 1e-5);  // predicted_ms

    run_in_folder({"plot", "accuracy", "--model", model, "--profile", kProfile, "--device", kDevice, "--output",
                   (folder / "accuracy.svg").string()});
    same(data_column(folder / "accuracy.dat", "\"sor_red\"", 1), 1e-5);

    // The roofline draws the throughput the time implies: W_comp / time.
    const double W_comp = json_of({"predict", "--model", "thesis", "--profile", kProfile, "--device", kDevice,
                                   "--format", "json"})["predictions"][0]["details"]["W_comp"].get<double>();
    run_in_folder({"plot", "roofline", "--model", model, "--profile", kProfile, "--device", kDevice, "--output",
                   (folder / "roofline.svg").string()});
    same(W_comp / (data_column(folder / "roofline.dat", "\"sor_red\"", 2) * 1e6), 1e-5);

    run_in_folder({"report", "--model", model, "--profile", kProfile, "--device", kDevice, "--output",
                   (folder / "report").string()});
    std::ifstream csv(folder / "report" / "predictions.csv");
    std::string header, row;
    std::getline(csv, header);
    std::getline(csv, row);
    CHECK_THAT(header, Catch::StartsWith("kernel,K_type,predicted_ms GTX-660"));
    REQUIRE(row.starts_with("sor_red,"));
    const size_t second = row.find(',', row.find(',') + 1);
    same(std::stod(row.substr(second + 1)), 1e-12);
    fs::remove_all(folder);
  }
  // The two models differ on this kernel (34.80 ms and 28.37 ms), so a command that ignored
  // --model would fail above.
  CHECK(expected_by_model["thesis"] != Approx(expected_by_model["pipes"]).epsilon(0.05));
}

TEST_CASE("every command that predicts defaults to the pipes model and says so in --help") {
  const std::vector<std::vector<std::string>> commands = {{"predict"}, {"explain"},         {"validate"},
                                                          {"rank"},    {"split"},           {"report"},
                                                          {"plot", "roofline"}, {"plot", "quadrant"}, {"plot", "accuracy"}};
  for (auto command : commands) {
    INFO(command.front() << " " << command.back());
    command.push_back("--help");
    const auto result = run_roofcast(command);
    CHECK(result.exit_code == 0);
    CHECK_THAT(result.out, Catch::Contains("--model") && Catch::Contains("pipes (the multi-pipeline model") &&
                               Catch::Contains("the default"));
  }
}

TEST_CASE("every command that prints results takes --format, markdown where a table is sensible") {
  const auto markdown = [](std::vector<std::string> arguments) {
    arguments.insert(arguments.end(), {"--format", "markdown"});
    const auto result = run_roofcast(arguments);
    INFO(result.err);
    CHECK(result.exit_code == 0);
    CHECK_THAT(result.out, Catch::Contains("|---") || Catch::Contains("| ---") || Catch::Contains("|:--") ||
                               Catch::Contains("| :--") || Catch::Contains("--:|"));
  };
  markdown({"predict", "--profile", kProfile, "--device", kDevice});
  markdown({"rank", "--profile", kProfile, "--device", kDevice});
  markdown({"split", "--profile", kProfile, "--kernel", kKernel, "--device", kDevice, "--device", "GTX-480", "--blocks", "10"});
  markdown({"validate", "--reference-profile", kProfile, "--device", kDevice});
  markdown({"devices"});

  const auto explained = run_roofcast({"explain", "--profile", kProfile, "--device", kDevice, "--format", "csv"});
  CHECK(explained.exit_code == 0);
  CHECK_THAT(explained.out, Catch::StartsWith("kernel,device,device_id,limiter"));
  const auto validated = json_of({"validate", "--reference-profile", kProfile, "--device", kDevice, "--format", "json"});
  CHECK(validated["format"] == "roofcast-validation");
  const auto split = run_roofcast(
      {"split", "--profile", kProfile, "--kernel", kKernel, "--device", kDevice, "--device", "GTX-480", "--blocks", "10",
       "--format", "csv"});
  CHECK_THAT(split.out, Catch::StartsWith("device,id,alone ms total"));
}

namespace {

namespace corpus {

// The validation corpus' profiles (docs/validation/2026-11-24-latency), each predicted for the
// GPU it was profiled on, from a device profile of that GPU with block_dispatch_gblocks (the
// 2026-11-27 tune runs' benches): the model's every term, block dispatch included, is in play.
struct Run {
  const char* profiles;
  const char* device;
};
constexpr Run kRuns[] = {{"docs/validation/2026-11-24-latency/h100-run/profiles", "docs/validation/2026-11-27-tune-h100/device.json"},
                         {"docs/validation/2026-11-24-latency/h200-run/profiles", "docs/validation/2026-11-27-tune-h200/device.json"}};

fs::path source(const char* path) { return fs::path(ROOFCAST_SOURCE_DIR) / path; }

std::vector<fs::path> profiles_in(const fs::path& folder) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

// The cells of one CSV line (quoted cells may hold commas and doubled quotes).
std::vector<std::string> csv_cells(const std::string& line) {
  std::vector<std::string> cells(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      cells.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      cells.emplace_back();
    } else {
      cells.back() += c;
    }
  }
  return cells;
}

// Kernel -> predicted ms of report's predictions.csv (one device: its first time column).
std::map<std::string, double> report_times(const fs::path& csv) {
  std::ifstream in(csv);
  std::string line;
  std::getline(in, line);
  REQUIRE(csv_cells(line).at(2).starts_with("predicted_ms "));
  std::map<std::string, double> times;
  while (std::getline(in, line)) {
    const auto cells = csv_cells(line);
    times[cells.at(0)] = std::stod(cells.at(2));
  }
  return times;
}

// Kernel (as the chart's data quotes it) -> predicted ms of an accuracy chart's data file:
// "measured predicted corrected bound ape \"kernel\"" rows.
std::map<std::string, double> chart_times(const fs::path& data) {
  std::ifstream in(data);
  std::map<std::string, double> times;
  for (std::string line; std::getline(in, line);) {
    const size_t quote = line.find('"');
    if (line.empty() || line[0] == '#' || quote == std::string::npos) continue;
    const auto words = words_of(line.substr(0, quote));
    if (words.size() != 5) continue;
    times[line.substr(quote + 1, line.rfind('"') - quote - 1)] = std::stod(words[1]);
  }
  return times;
}

}  // namespace corpus

// predict's time of every kernel of one run's profiles against every other command's.
void check_same_times(const corpus::Run& run) {
  size_t kernels = 0, dispatch_costed = 0;
  const std::string device = corpus::source(run.device).string();
  for (const auto& file : corpus::profiles_in(corpus::source(run.profiles))) {
    const std::string profile = file.string();
    INFO(profile << " on " << device);
    const auto profile_json = nlohmann::json::parse(std::ifstream(file));
    std::map<std::string, nlohmann::json> shapes;  // kernel -> its launch shapes
    for (const auto& k : profile_json["kernels"]) shapes[k["name"]] = k["launch_shapes"];

    // predict's JSON is the reference: every digit.
    std::map<std::string, double> expected;
    const auto predicted = json_of({"predict", "--profile", profile, "--device", device, "--format", "json"});
    for (const auto& p : predicted["predictions"]) {
      expected[p["kernel"]] = p["predicted_ms"].get<double>();
      if (p["details"]["dispatch_ms"].get<double>() > 0) ++dispatch_costed;
    }
    REQUIRE(expected.size() == shapes.size());
    kernels += expected.size();
    const auto same = [&](const std::string& kernel, double value, double digits) {
      INFO(kernel);
      REQUIRE(expected.contains(kernel));
      CHECK(value == Approx(expected[kernel]).epsilon(digits));
    };

    const auto validated = json_of({"validate", "--reference-profile", profile, "--device", device, "--output", "-"});
    CHECK(validated["entries"].size() == expected.size());
    for (const auto& e : validated["entries"]) same(e["kernel"], e["predicted_ms"].get<double>(), 1e-12);

    const auto ranked = json_of({"rank", "--profile", profile, "--device", device, "--top", "100000", "--format", "json"});
    CHECK(ranked["devices"][0]["top_kernels"].size() == expected.size());
    for (const auto& k : ranked["devices"][0]["top_kernels"]) same(k["kernel"], k["predicted_ms"].get<double>(), 1e-12);

    const auto folder = fresh_folder("corpus");
    // (No quadrant charts: the time is the table's.)
    REQUIRE(run_roofcast({"report", "--profile", profile, "--device", device, "--quadrant-kernels", "0", "--output",
                          (folder / "report").string()})
                .exit_code == 0);
    const auto reported = corpus::report_times(folder / "report" / "predictions.csv");
    CHECK(reported.size() == expected.size());
    for (const auto& [kernel, ms] : reported) same(kernel, ms, 1e-12);

    // Charts write 6 significant digits.
    REQUIRE(run_roofcast({"plot", "accuracy", "--profile", profile, "--device", device, "--output",
                          (folder / "accuracy.svg").string()})
                .exit_code == 0);
    const auto charted = corpus::chart_times(folder / "accuracy.dat");
    CHECK(charted.size() == expected.size());
    for (const auto& [kernel, ms] : charted) same(kernel, ms, 1e-5);
    fs::remove_all(folder);

    for (const auto& [kernel, launch_shapes] : shapes) {
      const auto explained =
          json_of({"explain", "--profile", profile, "--kernel", kernel, "--device", device, "--format", "json"});
      same(kernel, explained["predictions"][0]["predicted_ms"].get<double>(), 1e-12);
      // tune re-cuts a kernel into one launch shape: with one, its profiled configuration is
      // the profile's launch; with several, no candidate is.
      if (launch_shapes.size() != 1) continue;
      const auto& b = launch_shapes[0]["block"];
      const std::string block = fmt::format("{}x{}x{}", b[0].get<double>(), b[1].get<double>(), b[2].get<double>());
      const auto tuned = json_of({"tune", "--profile", profile, "--kernel", kernel, "--device", device,
                                  "--block-sizes", block, "--format", "json"});
      size_t profiled = 0;
      for (const auto& launch : tuned["devices"][0]["launches"]) {
        if (!launch["profiled"].get<bool>()) continue;
        ++profiled;
        same(kernel, launch["predicted_ms"].get<double>(), 1e-12);
      }
      CHECK(profiled == 1);
    }
  }
  CHECK(kernels >= 50);
  CHECK(dispatch_costed == kernels);  // the device profile has the block dispatch rate
}

}  // namespace

// One test per run, so that ctest runs them side by side.
TEST_CASE("every command gives the same time for the same kernel and device on the validation corpus: H100") {
  check_same_times(corpus::kRuns[0]);
}

TEST_CASE("every command gives the same time for the same kernel and device on the validation corpus: H200") {
  check_same_times(corpus::kRuns[1]);
}

TEST_CASE("explain shows the block dispatch cost on a line of its own") {
  const std::string device = corpus::source("docs/validation/2026-11-27-tune-h100/device.json").string();
  const std::string profile = corpus::source("docs/validation/2026-11-24-latency/h100-run/profiles/launch_chain.json").string();
  const auto explained = run_roofcast({"explain", "--profile", profile, "--device", device});
  REQUIRE(explained.exit_code == 0);
  CHECK_THAT(explained.out, Catch::Contains("  dispatch block dispatch") &&
                                Catch::Contains("launch + max(compute, memory, latency, block dispatch)"));
}
