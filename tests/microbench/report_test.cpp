#include <catch2/catch.hpp>

#include <sstream>

#include "roofcast/formats/profile_json.hpp"
#include "roofcast/microbench/peak_table.hpp"
#include "roofcast/microbench/report.hpp"

using namespace roofcast::microbench;

namespace {

Measurement make(const std::string& key, const std::string& unit, double value) {
  Measurement m;
  m.key = key;
  m.label = key;
  m.unit = unit;
  m.value = {value, value * 0.99, value * 1.01, 15};
  m.time_ms = {3, 2.9, 3.1, 15};
  m.verified = true;
  return m;
}

SweepPoint point(const std::string& precision, int iterations, double gops) {
  SweepPoint p;
  p.precision = precision;
  p.iterations = iterations;
  p.ops_per_byte = iterations * 0.5;
  p.time_ms = {2, 1.9, 2.1, 10};
  p.gops = gops;
  p.gbps = 3000;
  p.verified = true;
  return p;
}

SuiteResult h100_like() {
  SuiteResult r;
  r.device.name = "NVIDIA H100 80GB HBM3";
  r.device.backend = "cuda";
  r.device.arch = "sm_90";
  r.device.sm_count = 132;
  r.device.sm_count_observed = 132;
  r.device.memory_bus_bits = 5120;
  r.device.memory_clock_mhz_attribute = 2619;
  r.clocks.sm_clock_mhz_in_kernel = 1980;
  r.measurements = {make("fp32_gflops", "GFLOP/s", 65000),   make("fp64_gflops", "GFLOP/s", 33000),
                    make("int32_mad_giops", "GIOP/s", 32000), make("int32_add_giops", "GIOP/s", 16000),
                    make("shared_ldst_gops", "G/s", 8000),     make("half2_gflops", "GFLOP/s", 130000),
                    make("dram_read_gbps", "GB/s", 3000),      make("dram_write_gbps", "GB/s", 3100),
                    make("dram_copy_gbps", "GB/s", 2900),      make("launch_overhead_us", "us", 2.5)};
  r.sweep = {point("fp32", 0, 100), point("fp32", 8, 12000), point("fp32", 64, 60000)};
  apply_theoretical_peaks(r);
  return r;
}

}  // namespace

TEST_CASE("the device profile holds the thesis' six throughputs, B_mem as the mean of three kernels") {
  const auto profile = make_device_profile(h100_like(), "H100-SXM");
  CHECK(profile.name == "H100-SXM");
  CHECK(profile.throughput.fp32_gflops == 65000);
  CHECK(profile.throughput.shared_ldst_gops == 8000);
  CHECK(profile.throughput.dram_gbps == Approx(3000));
  CHECK(profile.extra_throughput.at("half2_gflops") == 130000);
  CHECK(profile.extra_throughput.at("launch_overhead_us") == 2.5);
  CHECK_FALSE(profile.extra_throughput.count("fp32_gflops"));
  CHECK(profile.roofline_sweep.size() == 3);
  CHECK(profile.sm_count == 132);
}

TEST_CASE("a profile missing a thesis measurement is refused, naming it") {
  auto r = h100_like();
  r.measurements.erase(r.measurements.begin() + 3);
  CHECK_THROWS_WITH(make_device_profile(r, "x"), Catch::Contains("int32_add_giops"));
}

TEST_CASE("the written device profile reads back, with theoretical peaks and provenance beside it") {
  const auto r = h100_like();
  const auto json = device_profile_json(r, {"H100-SXM", "roofcast bench --output h.json", "2026-11-22T01:00:00Z", "0.1"});
  const auto back = roofcast::parse_device_profile(json.dump(), "written.json");
  CHECK(back.name == "H100-SXM");
  CHECK(back.throughput.fp64_gflops == 33000);
  CHECK(back.roofline_sweep.size() == 3);
  CHECK(back.sm_count == 132);
  CHECK(json.at("theoretical").at("fp32_gflops").get<double>() == Approx(132 * 256 * 1.98));
  CHECK(json.at("fraction_of_theoretical").at("fp32_gflops").get<double>() == Approx(65000 / (132 * 256 * 1.98)));
  CHECK(json.at("provenance").at("command") == "roofcast bench --output h.json");
  CHECK(json.at("measurements").at("dram_read_gbps").at("verified") == true);
  CHECK(json.at("clocks").at("memory_clock_mhz").get<double>() == 2619);
}

TEST_CASE("the CSV has a header and one row per peak and sweep point") {
  const auto r = h100_like();
  const std::string csv = measurements_csv(r);
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);
  CHECK(line.rfind("kind,key,precision,iterations,unit,median", 0) == 0);
  const size_t columns = std::count(line.begin(), line.end(), ',');
  size_t rows = 0;
  while (std::getline(lines, line)) {
    ++rows;
    CHECK(static_cast<size_t>(std::count(line.begin(), line.end(), ',')) == columns);
  }
  CHECK(rows == r.measurements.size() + r.sweep.size());
  CHECK(csv.find("sweep,mixbench_fp32,fp32,64,GOP/s,60000") != std::string::npos);
}

TEST_CASE("sweep dips are points more than the tolerance below their left neighbour") {
  std::vector<SweepPoint> sweep = {point("fp32", 0, 100), point("fp32", 8, 1000), point("fp32", 16, 980),
                                   point("fp64", 0, 50),  point("fp64", 8, 40)};
  const auto dips = sweep_dips(sweep, 0.03);
  REQUIRE(dips.size() == 1);
  CHECK(dips[0].find("fp64 at 8 iterations") == 0);
  CHECK(sweep_dips(sweep, 0.25).empty());
}

TEST_CASE("the markdown report names the device, the command and every quantity") {
  const auto md = markdown_report(h100_like(), {"H100-SXM", "roofcast bench --output h.json", "2026-11-22", "0.1"});
  CHECK(md.find("# roofcast bench: H100-SXM") == 0);
  CHECK(md.find("`roofcast bench --output h.json`") != std::string::npos);
  CHECK(md.find("| fp32_gflops | GFLOP/s | 65000.00") != std::string::npos);
  CHECK(md.find("B_mem (mean of read, write, copy)") != std::string::npos);
}
