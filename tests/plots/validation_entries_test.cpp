// Reading the validation file of `roofcast validate`, and drawing the accuracy chart from it.
#include <catch2/catch.hpp>

#include <cmath>

#include "chart_checks.hpp"
#include "many_kernels.hpp"
#include "roofcast/data/bundled_data.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/plots/accuracy_chart.hpp"
#include "roofcast/formats/validation_json.hpp"
#include "roofcast/plots/validation_entries.hpp"

using namespace roofcast;
using namespace roofcast::testing;

namespace {

constexpr const char* kValidation = R"({
  "format": "roofcast-validation", "version": 1, "model": "thesis", "reference_device": "H200",
  "entries": [
    {"kernel": "sgemm", "device": "H100", "predicted_ms": 2.0, "measured_ms": 2.5, "corrected_ms": 2.4, "bound": "compute",
     "notes": "ignored"},
    {"kernel": "stream", "device": "H100", "predicted_ms": 1.0, "measured_ms": 1.0, "bound": "memory"},
    {"kernel": "sgemm", "device": "H200 MPS 50%", "predicted_ms": 4.0, "measured_ms": 2.0, "bound": "compute"}
  ],
  "summary": {"median_ape": 20.0}
})";

std::string error_of(const std::string& text) {
  try {
    parse_validation_file(text, "v.json").entries;
  } catch (const InputError& error) {
    return error.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("validation entries are read, unknown fields ignored") {
  const auto entries = parse_validation_file(kValidation, "v.json").entries;
  REQUIRE(entries.size() == 3);
  CHECK(entries[0].kernel == "sgemm");
  CHECK(entries[0].device == "H100");
  CHECK(entries[0].predicted_ms == 2.0);
  CHECK(entries[0].measured_ms == 2.5);
  REQUIRE(entries[0].corrected_ms);
  CHECK(*entries[0].corrected_ms == 2.4);
  CHECK_FALSE(entries[1].corrected_ms);
  CHECK(entries[1].bound == "memory");
  CHECK(entries[0].absolute_percentage_error() == Approx(20.0));
  CHECK(entries[2].absolute_percentage_error() == Approx(100.0));
}

TEST_CASE("bad validation files give one line naming the file and field") {
  CHECK(error_of("{") == "v.json: not valid JSON (byte 2): the file ends too early (truncated?)");
  CHECK(error_of(R"({"format": "roofcast-profile", "entries": []})") ==
        R"(v.json: format: expected "roofcast-validation", found "roofcast-profile")");
  CHECK_THAT(error_of(R"({"version": 2, "entries": []})"), Catch::StartsWith("v.json: version: version 2 is newer"));
  CHECK(error_of(R"({"model": "thesis"})") == "v.json: entries: missing");
  CHECK(error_of(R"({"entries": []})") == "v.json: entries: is empty, nothing to plot");
  CHECK(error_of(R"({"entries": [{"kernel": "k", "device": "d", "predicted_ms": 1}]})") ==
        "v.json: entries[0].measured_ms: missing");
  CHECK(error_of(R"({"entries": [{"kernel": "k", "device": "d", "predicted_ms": 1, "measured_ms": "2"}]})") ==
        "v.json: entries[0].measured_ms: expected a number, found string");
  CHECK(error_of(R"({"entries": [{"kernel": "k", "device": "d", "predicted_ms": 0, "measured_ms": 2}]})") ==
        "v.json: entries[0].predicted_ms: must be > 0, found 0");
  CHECK(error_of(R"({"entries": [{"kernel": "", "device": "d", "predicted_ms": 1, "measured_ms": 2}]})") ==
        "v.json: entries[0].kernel: must not be empty");
  CHECK(error_of(R"({"entries": [{"kernel": "k", "device": "d", "predicted_ms": 1, "measured_ms": 2, "bound": "io"}]})") ==
        R"(v.json: entries[0].bound: expected "compute" or "memory", found "io")");
}

TEST_CASE("accuracy chart: points at (measured, predicted), per-device distributions, 25 % band") {
  const auto entries = parse_validation_file(kValidation, "v.json").entries;
  const GnuplotChart chart = accuracy_chart(entries, "test file", *chart_target_for("accuracy.svg"));
  CHECK_THAT(chart.data, Catch::Contains("# [1] device H100: measured_ms predicted_ms"));
  CHECK_THAT(chart.data, Catch::Contains("2.5 2 2.4 compute 20 \"sgemm\""));
  CHECK_THAT(chart.data, Catch::Contains("1 1 ? memory 0 \"stream\""));
  // H100's error distribution: 0 % then 20 %, each half of its predictions.
  CHECK_THAT(chart.data, Catch::Contains("error distribution: ape_percent share_percent\n0 0\n0 50\n20 100\n"));

  const RenderedSvg svg = render_svg(chart);
  const std::string text = svg_text(*svg.root);
  for (const char* expected : {"H100", "H200 MPS 50%", "within 25 %", "predicted = measured", "test file",
                               "H100: 10.0 % | 100 %", "all 3 predictions: 20.0 % | 67 %", "median APE | within 25 %"})
    CHECK_THAT(text, Catch::Contains(expected));
  // The H200 MPS point sits at (2 ms measured, 4 ms predicted) on the log-log panel.
  const std::string left_panel = chart.script.substr(0, chart.script.find("# Right:"));
  const PlotArea area = plot_area(*svg.root, left_panel);
  const Axis x = axis_from_script(left_panel, 'x'), y = axis_from_script(left_panel, 'y');
  CHECK(x.log);
  const int number = plot_number(left_panel, "H200 MPS 50%");
  REQUIRE(number > 0);
  const auto markers = markers_of(*svg.root, number, area);
  REQUIRE(!markers.empty());  // the point, then its key sample (the key sits inside this panel)
  CHECK(markers[0].first == Approx(x_pixel(2.0, x, area)).margin(1.0));
  CHECK(markers[0].second == Approx(y_pixel(4.0, y, area)).margin(1.0));
}

TEST_CASE("validation entries from a profile with measured times (the thesis' red/black SOR)") {
  const KernelProfile profile = *find_bundled_profile("thesis-redblack");
  const auto devices = bundled_devices();
  const auto reference = std::find_if(devices.begin(), devices.end(), [](auto& d) { return d.name == "GTX-480"; });
  const auto entries = validation_entries_from(predict_profile(*roofcast::make_predictor("thesis"), profile, devices, &*reference));
  REQUIRE(entries.size() == 6);
  for (const auto& e : entries) {
    INFO(e.device);
    CHECK(e.kernel == "sor_red");
    CHECK(e.measured_ms == profile.kernels[0].measured_ms_by_device.at(e.device));
    CHECK(e.corrected_ms);
    CHECK(e.absolute_percentage_error() < 25);  // the thesis' own result for this kernel
  }
}

TEST_CASE("accuracy chart: a time beyond what a log axis can show is an error naming the kernel") {
  auto entries = parse_validation_file(kValidation, "v.json").entries;
  entries.back().measured_ms = 1e308;
  const std::string kernel = entries.back().kernel, device = entries.back().device;
  CHECK_THROWS_WITH(accuracy_chart(entries, "test file", *chart_target_for("accuracy.svg")),
                    Catch::StartsWith("accuracy chart: kernel " + kernel + " on " + device + ": measured_ms 1e+308"));
  entries.back().measured_ms = 1e-310;  // denormal
  CHECK_THROWS_AS(accuracy_chart(entries, "test file", *chart_target_for("accuracy.svg")), InputError);
}

TEST_CASE("the accuracy chart of 40,000 kernels counts them all and names at most 4 in its title") {
  std::vector<AccuracyEntry> entries;
  for (int i = 0; i < 40000; ++i)
    entries.push_back({"kernel_" + std::to_string(i), "GTX-660", 1.0 + i % 5, 1.0 + i % 3, std::nullopt, "memory"});
  // Its time at scale (a search per kernel once took seconds) is scripts/dev/scale-bench.sh's job.
  const GnuplotChart chart = accuracy_chart(entries, "many", *chart_target_for("a.svg"));
  CHECK_THAT(chart.script, Catch::Contains("40000 predictions on 1 device."));
  CHECK_THAT(chart.script, !Catch::Contains(" of kernel_0"));  // the title names at most 4 kernels
}

TEST_CASE("validation files: numbers beyond the double range and out-of-range times are input errors") {
  auto error_of = [](const std::string& text) -> std::string {
    try {
      roofcast::parse_validation_file(text, "v.json").entries;
    } catch (const roofcast::InputError& error) {
      return error.what();
    }
    return "";
  };
  CHECK(error_of(R"({"entries": [{"kernel": "k", "device": "d", "predicted_ms": 1e400, "measured_ms": 2}]})") ==
        "v.json: not valid JSON: a number beyond the double range");
  CHECK_THAT(error_of(R"({"entries": [{"kernel": "k", "device": "d", "predicted_ms": 1, "measured_ms": 1e-320}]})"),
             Catch::StartsWith("v.json: entries[0].measured_ms: must be between 1e-12 and 1e+20"));
  CHECK_THAT(error_of(R"({"version": 4294967297, "entries": []})"), Catch::StartsWith("v.json: version: version"));
}
