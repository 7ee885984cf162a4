// Every command that predicts gives the same time for the same kernel, device and model: the
// models sit behind one interface (model/include/roofcast/model/predictor.hpp), and no command
// wires its own. Each command runs as a user runs it, with both models; its time is read back
// from its output (JSON, CSV, or a chart's data file).
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

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
  CHECK_THAT(explained.out, Catch::StartsWith("kernel,device,limiter"));
  const auto validated = json_of({"validate", "--reference-profile", kProfile, "--device", kDevice, "--format", "json"});
  CHECK(validated["format"] == "roofcast-validation");
  const auto split = run_roofcast(
      {"split", "--profile", kProfile, "--kernel", kKernel, "--device", kDevice, "--device", "GTX-480", "--blocks", "10",
       "--format", "csv"});
  CHECK_THAT(split.out, Catch::StartsWith("device,alone ms"));
}
