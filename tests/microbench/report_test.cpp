#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include "roofcast/formats/profile_json.hpp"
#include "roofcast/microbench/peak_table.hpp"
#include "roofcast/microbench/report.hpp"
#include "roofcast/model/transfers.hpp"

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

// Two copy sweeps of three sizes: 50 GB/s + 2 us pinned, 1000 GB/s + 5 us device to device.
SuiteResult with_transfers() {
  SuiteResult r = h100_like();
  auto sweep = [](const std::string& key, double gbps, double latency_us) {
    TransferSweep s;
    s.key = key;
    s.label = key + " label";
    for (const double bytes : {4096.0, 1048576.0, 268435456.0}) {
      TransferPoint p;
      p.bytes = bytes;
      const double ms = latency_us * 1e-3 + bytes / (gbps * 1e6);
      p.time_ms = {ms, ms * 0.98, ms * 1.05, 15};
      p.verified = true;
      s.points.push_back(p);
    }
    s.bandwidth_gbps = gbps;
    s.latency_us = latency_us;
    s.worst_relative_residual = 0.042;
    return s;
  };
  r.transfers = {sweep("h2d_pinned", 50, 2), sweep("d2d", 1000, 5)};
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

TEST_CASE("latencies go into the profile in ns, with their cycles at the kernel's clock beside them") {
  auto r = h100_like();
  Measurement ffma = make("latency_ffma_ns", "ns", 2.0);
  ffma.sm_clock_mhz = 1980;
  r.measurements.push_back(ffma);
  r.measurements.push_back(make("latency_dram_ns", "ns", 350));  // no clock measured: no cycles
  const auto profile = make_device_profile(r, "H100-SXM");
  CHECK(profile.extra_throughput.at("latency_ffma_ns") == 2.0);
  CHECK(profile.extra_throughput.at("latency_dram_ns") == 350);

  const auto json = device_profile_json(r, {"H100-SXM", "roofcast bench", "2026-11-24T19:00:00Z", "0.1"});
  CHECK(json.at("throughput").at("latency_ffma_ns").get<double>() == 2.0);
  CHECK(json.at("measurements").at("latency_ffma_ns").at("cycles").get<double>() == Approx(3.96));
  CHECK_FALSE(json.at("measurements").at("latency_dram_ns").contains("cycles"));
  CHECK_FALSE(json.at("measurements").at("dram_read_gbps").contains("cycles"));
  CHECK(roofcast::parse_device_profile(json.dump(), "written.json").extra_throughput.at("latency_ffma_ns") == 2.0);

  const auto rows = summary_rows(r);
  const auto row = std::find_if(rows.begin(), rows.end(), [](const SummaryRow& x) { return x.label == "latency_ffma_ns"; });
  REQUIRE(row != rows.end());
  REQUIRE(row->cycles);
  CHECK(*row->cycles == Approx(3.96));
  CHECK_FALSE(rows.front().cycles);  // fp32_gflops: a rate, no cycles
  const std::string md = markdown_report(r, {"H100-SXM", "roofcast bench", "2026-11-24T19:00:00Z", "0.1"});
  CHECK(md.find("| latency_ffma_ns | ns | 2.00 |") != std::string::npos);
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

TEST_CASE("copy fits go into the device profile's transfers and read back") {
  const auto r = with_transfers();
  const auto profile = make_device_profile(r, "H100-SXM");
  REQUIRE(profile.transfers.size() == 2);
  CHECK(profile.transfers.at("h2d_pinned").bandwidth_gbps == 50);
  CHECK(profile.transfers.at("d2d").latency_us == 5);

  const auto json = device_profile_json(r, {"H100-SXM", "roofcast bench --output h.json", "2026-11-22", "0.1"});
  const auto& fit = json.at("transfers").at("h2d_pinned");
  CHECK(fit.at("bandwidth_gbps").get<double>() == 50);
  CHECK(fit.at("latency_us").get<double>() == 2);
  CHECK(fit.at("worst_relative_residual").get<double>() == 0.042);
  CHECK(fit.at("sizes").get<int>() == 3);
  CHECK(fit.at("largest_bytes").get<double>() == 268435456.0);
  REQUIRE(json.at("transfer_sweep").size() == 6);
  const auto& first = json.at("transfer_sweep")[0];
  CHECK(first.at("key") == "h2d_pinned");
  CHECK(first.at("bytes").get<double>() == 4096);
  CHECK(first.at("fitted_ms").get<double>() == Approx(2e-3 + 4096 / 50e6));
  CHECK(first.at("verified") == true);

  const auto back = roofcast::parse_device_profile(json.dump(), "written.json");
  CHECK(back.transfers.at("d2d").bandwidth_gbps == 1000);
  CHECK(back.transfers.at("h2d_pinned").latency_us == 2);
  CHECK(roofcast::predict_transfer_ms(back.transfers.at("h2d_pinned"), 50e6, 1) == Approx(1.002));
}

TEST_CASE("a profile without copy sweeps has no transfers object") {
  const auto json = device_profile_json(h100_like(), {"H100-SXM", "c", "d", "0.1"});
  CHECK_FALSE(json.contains("transfers"));
  CHECK_FALSE(json.contains("transfer_sweep"));
}

TEST_CASE("the CSV has one row per copy size in GB/s with the size as the work") {
  const auto r = with_transfers();
  const std::string csv = measurements_csv(r);
  const size_t columns = std::count(csv.begin(), csv.begin() + csv.find('\n'), ',');
  std::istringstream lines(csv);
  std::string line;
  size_t transfer_rows = 0;
  while (std::getline(lines, line)) {
    CHECK(static_cast<size_t>(std::count(line.begin(), line.end(), ',')) == columns);
    transfer_rows += line.rfind("transfer,", 0) == 0;
  }
  CHECK(transfer_rows == 6);
  // 256 MiB at 50 GB/s plus 2 us: 5.3707 ms, 49.98 GB/s.
  CHECK(csv.find("transfer,h2d_pinned,,,GB/s,49.9814,") != std::string::npos);
  CHECK(csv.find(",268435456,,49.9814,,,,true") != std::string::npos);
}

TEST_CASE("the markdown report has the copy fits and every copy size") {
  const auto md = markdown_report(with_transfers(), {"H100-SXM", "c", "d", "0.1"});
  CHECK(md.find("## Copies") != std::string::npos);
  CHECK(md.find("| h2d_pinned label | h2d_pinned | 50.00 | 2.00 | 4 KiB to 256 MiB (3) | 4.2 | yes |") !=
        std::string::npos);
  CHECK(md.find("| d2d | 268435456 |") != std::string::npos);
  CHECK(markdown_report(h100_like(), {"H100-SXM", "c", "d", "0.1"}).find("## Copies") == std::string::npos);
}
