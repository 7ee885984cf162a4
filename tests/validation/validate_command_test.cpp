// `roofcast validate` through the real binary: the bundled thesis data as a self-test,
// measured-time files joined by device, the written files, and bad input.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "one_line_error.hpp"
#include "run_command.hpp"

using roofcast::testing::check_one_line_error;
using roofcast::testing::run_roofcast;
using roofcast::testing::temporary_file;

namespace {

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

// One kernel, memory bound everywhere: predicted W_traf / B_mem = 1e9 B / 100 GB/s = 10 ms
// on A and 5 ms on B (200 GB/s); 12.5 ms measured on the reference A gives E_util 1.25.
const std::string kProfile = R"({"format": "roofcast-profile", "version": 1, "reference_device": "A",
  "kernels": [{"name": "k", "invocations": 4, "measured_ms": 12.5,
    "parameters": {"K_type": "fp32", "W_comp": 1e8, "W_traf": 1e9, "E_mix": 1, "D_ops": 0.5, "D_ldst": 0.25}}]})";

std::string device_json(const std::string& name, double dram_gbps) {
  return R"({"format": "roofcast-device", "version": 1, "name": ")" + name +
         R"(", "throughput": {"fp32_gflops": 1000, "fp64_gflops": 500, "int32_mad_giops": 500,
            "int32_add_giops": 1000, "shared_ldst_gops": 500, "dram_gbps": )" +
         std::to_string(dram_gbps) + "}}";
}

std::string measured_json(const std::string& device, const std::string& kernels) {
  return R"({"format": "roofcast-measured", "version": 1, "device": ")" + device + R"(", "kernels": [)" + kernels +
         "]}";
}

std::string measured_kernel(const std::string& name, int invocations, double total_ms) {
  return R"({"name": ")" + name + R"(", "invocations": )" + std::to_string(invocations) +
         R"(, "measured_ms": )" + std::to_string(total_ms) + R"(, "min_ms": 0.1, "median_ms": 0.2, "max_ms": 0.3})";
}

}  // namespace

TEST_CASE("validate checks the bundled red/black SOR data against its six measured GPUs") {
  const auto folder = std::filesystem::path(temporary_file("placeholder", "")).parent_path();
  const std::string json_path = (folder / "validation.json").string();
  const std::string markdown_path = (folder / "validation.md").string();
  const auto result = run_roofcast({"validate", "--model", "thesis", "--reference-profile", "thesis-redblack", "--all-devices",
                                    "--output", json_path, "--markdown", markdown_path});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("all devices"));

  // Thesis table 5.6 errors: -4.86 -0.14 -0.45 -1.73 -6.98 -6.40 %.
  const auto json = read_json(json_path);
  CHECK(json["format"] == "roofcast-validation");
  CHECK(json["reference_device"] == "GTX-480");
  CHECK(json["entries"].size() == 6);
  const auto& overall = json["summary"]["overall"];
  CHECK(overall["kernels"] == 6);
  CHECK(overall["median_ape"].get<double>() == Approx((0.0173 + 0.0486) / 2).margin(2e-4));
  CHECK(overall["mean_ape"].get<double>() == Approx(0.2056 / 6).margin(2e-4));
  CHECK(overall["within_10"].get<double>() == 1.0);
  CHECK(overall["under_predicted"] == 6);
  CHECK(overall["corrected"]["kernels"] == 5);  // the reference GTX-480 is not scored corrected
  CHECK(json["summary"]["by_device"].size() == 6);

  std::ifstream markdown(markdown_path);
  std::stringstream text;
  text << markdown.rdbuf();
  CHECK_THAT(text.str(), Catch::StartsWith("# Prediction accuracy: thesis model, reference device GTX-480") &&
                             Catch::Contains("| all devices | 6 |"));
}

TEST_CASE("validate joins measured-time files by device, rescaling other invocation counts") {
  const auto profile = temporary_file("profile.json", kProfile);
  const auto device_a = temporary_file("a.json", device_json("A", 100));
  const auto device_b = temporary_file("b.json", device_json("B", 200));
  const auto on_a = temporary_file("on-a.json", measured_json("A", measured_kernel("k", 4, 12.5)));
  // An MPS client reports the whole GPU's name: B= names the device it stands for.
  // 2 launches in 2 ms stand for 4 launches in 4 ms: error (5 - 4) / 4 = +25 %.
  const auto on_b = temporary_file("on-b.json", measured_json("NVIDIA H200", measured_kernel("k", 2, 2.0)));
  const auto out = std::filesystem::path(profile).parent_path() / "out.json";
  const auto result = run_roofcast({"validate", "--reference-profile", profile, "--device", device_a, "--device",
                                    device_b, "--measured", on_a, "--measured", "B=" + on_b, "--output",
                                    out.string()});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.err, Catch::Contains("compared per launch"));
  const auto json = read_json(out.string());
  REQUIRE(json["entries"].size() == 2);
  const auto& b = json["entries"][1];
  CHECK(b["device"] == "B");
  CHECK(b["predicted_ms"].get<double>() == Approx(5.0));
  CHECK(b["measured_ms"].get<double>() == Approx(4.0));
  CHECK(b["error"].get<double>() == Approx(0.25));
  CHECK(b["corrected_ms"].get<double>() == Approx(6.25));  // E_util 12.5 / 10
  CHECK(b["corrected_ape"].get<double>() == Approx(0.5625));
  CHECK(json["summary"]["overall"]["median_ape"].get<double>() == Approx(0.225));  // (0.2 + 0.25) / 2
}

TEST_CASE("validate --model pipes --ablation scores both models and each term switched off") {
  const auto profile = temporary_file("profile.json", kProfile);
  const auto device_a = temporary_file("a.json", device_json("A", 100));
  const auto device_b = temporary_file("b.json", device_json("B", 200));
  const auto on_b = temporary_file("on-b.json", measured_json("B", measured_kernel("k", 4, 4.0)));
  const auto out = std::filesystem::path(profile).parent_path() / "pipes.json";
  const auto markdown = std::filesystem::path(profile).parent_path() / "pipes.md";
  const auto result = run_roofcast({"validate", "--reference-profile", profile, "--device", device_a, "--device",
                                    device_b, "--measured", on_b, "--model", "pipes", "--ablation", "--output",
                                    out.string(), "--markdown", markdown.string()});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("Ablation"));
  const auto json = read_json(out.string());
  CHECK(json["model"] == "pipes");
  // Published parameters: DRAM direction unknown, so B_mem: 1e9 B / 200 GB/s = 5 ms on B.
  const auto& b = json["entries"][1];
  CHECK(b["predicted_ms"].get<double>() == Approx(5.0));
  // The memory side keeps its efficiency on A (12.5 ms measured, 10 predicted): 5 x 1.25 on B.
  CHECK(b["corrected_ms"].get<double>() == Approx(6.25));
  REQUIRE(json["ablation"].size() >= 3);
  CHECK(json["ablation"][0]["model"] == "thesis");
  CHECK(json["ablation"][1]["model"] == "pipes");
  CHECK(json["ablation"][2]["model"] == "pipes without pipes");
  CHECK(json["ablation"][0]["overall"]["kernels"] == 2);
  std::ifstream md(markdown);
  std::stringstream text;
  text << md.rdbuf();
  CHECK_THAT(text.str(), Catch::Contains("## Ablation"));
}

TEST_CASE("a kernel profile taken on another GPU serves as that GPU's measured times") {
  const auto profile = temporary_file("profile.json", kProfile);
  const auto device_a = temporary_file("a.json", device_json("A", 100));
  const auto device_b = temporary_file("b.json", device_json("B", 200));
  std::string taken_on_b = kProfile;
  taken_on_b.replace(taken_on_b.find("\"A\""), 3, "\"B\"");
  taken_on_b.replace(taken_on_b.find("12.5"), 4, "4.0");
  const auto on_b = temporary_file("profile-b.json", taken_on_b);
  const auto out = std::filesystem::path(profile).parent_path() / "out.json";
  const auto result = run_roofcast({"validate", "--reference-profile", profile, "--device", device_a, "--device",
                                    device_b, "--measured", on_b, "--output", out.string()});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto json = read_json(out.string());
  REQUIRE(json["entries"].size() == 2);
  CHECK(json["entries"][0]["measured_ms"].get<double>() == Approx(12.5));  // A: the profile's own time
  CHECK(json["entries"][1]["measured_ms"].get<double>() == Approx(4.0));   // B: from the other profile
  CHECK(json["entries"][1]["error"].get<double>() == Approx(0.25));
}

TEST_CASE("validate reports each bad input on one line") {
  const auto profile = temporary_file("profile.json", kProfile);
  const auto device_a = temporary_file("a.json", device_json("A", 100));
  SECTION("a kernel missing from the measured file") {
    const auto measured = temporary_file("m.json", measured_json("A", measured_kernel("other", 1, 1.0)));
    check_one_line_error({"validate", "--reference-profile", profile, "--device", device_a, "--measured", measured},
                         measured + ": kernel \"k\" missing (profiled in " + profile);
  }
  SECTION("a measured file of a device not validated") {
    const auto measured = temporary_file("m.json", measured_json("NVIDIA H100", measured_kernel("k", 4, 1.0)));
    check_one_line_error({"validate", "--reference-profile", profile, "--device", device_a, "--measured", measured},
                         measured + ": device \"NVIDIA H100\" matches no --device profile (A)");
  }
  SECTION("an unknown device") {
    check_one_line_error({"validate", "--reference-profile", "thesis-redblack", "--device", "GTX-9999"},
                         "--device GTX-9999: unknown device");
  }
  SECTION("no devices: a usage error, exit status 2") {
    const auto result = run_roofcast({"validate", "--reference-profile", "thesis-redblack"});
    CHECK(result.exit_code == 2);
    CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
    CHECK_THAT(result.err, Catch::StartsWith("roofcast: ") && Catch::Contains("--device"));
  }
  SECTION("no measured time at all") {
    check_one_line_error({"validate", "--reference-profile", profile, "--device", device_a, "--device",
                          "GTX-480"},
                         "kernel \"k\" (" + profile + ") has no measured time on GTX-480");
  }
  SECTION("a file that is not a measured-time file") {
    check_one_line_error({"validate", "--reference-profile", profile, "--device", device_a, "--measured", device_a},
                         device_a + ": format: expected \"roofcast-measured\"");
  }
  SECTION("a missing measured file") {
    check_one_line_error({"validate", "--reference-profile", profile, "--device", device_a, "--measured",
                          "/nonexistent/m.json"},
                         "/nonexistent/m.json: cannot open");
  }
}

TEST_CASE("validate with an unwritable --markdown leaves an existing --output as it was") {
  const auto profile = temporary_file("profile.json", kProfile);
  const auto device_a = temporary_file("a.json", device_json("A", 100));
  const std::string earlier = "{\"earlier\": true}\n";
  const auto output = temporary_file("validation.json", earlier);
  const auto markdown = (std::filesystem::path(output).parent_path() / "missing-folder" / "validation.md").string();
  const auto result = run_roofcast({"validate", "--reference-profile", profile, "--device", device_a, "--output",
                                    output, "--markdown", markdown});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains(markdown + ": cannot write"));
  std::ifstream in(output, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str() == earlier);
  const std::filesystem::directory_iterator folder(std::filesystem::path(output).parent_path());
  CHECK(std::distance(begin(folder), end(folder)) == 1);  // no temporary file left
}

TEST_CASE("validate --output - writes the JSON to standard output and the table to stderr") {
  const auto profile = temporary_file("profile.json", kProfile);
  const auto device_a = temporary_file("a.json", device_json("A", 100));
  const auto result = run_roofcast({"validate", "--reference-profile", profile, "--device", device_a, "--output", "-"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(nlohmann::json::parse(result.out)["format"] == "roofcast-validation");
  CHECK_THAT(result.err, Catch::Contains("all devices"));
}
