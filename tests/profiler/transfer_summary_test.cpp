// Copy records from the collector's per-process files to the profile's "transfers" array.
#include <catch2/catch.hpp>

#include "test_files.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "roofcast/formats/profile_json.hpp"
#include "roofcast/profiler/kernel_summary.hpp"
#include "roofcast/profiler/launch_records.hpp"
#include "roofcast/profiler/metric_set.hpp"
#include "roofcast/profiler/transfer_summary.hpp"

using namespace roofcast::profiler;
using roofcast::TransferKind;
namespace fs = std::filesystem;
using roofcast::testing::fresh_folder;
using roofcast::testing::write_lines;

namespace {

std::string process(int pid, long start_ns) {
  return nlohmann::json{{"type", "process"}, {"pid", pid}, {"start_ns", start_ns}, {"mode", "timing"}}.dump();
}

std::string copy(const char* direction, bool pinned, double bytes, double duration_ns, int device = 0) {
  return nlohmann::json{{"type", "copy"},  {"direction", direction}, {"pinned", pinned}, {"bytes", bytes},
                        {"count", 1},      {"duration_ns", duration_ns}, {"device", device}, {"stream", 7},
                        {"src_memory", "pageable"}, {"dst_memory", "device"}}
      .dump();
}

std::string memset_line(double bytes, double duration_ns) {
  return nlohmann::json{{"type", "memset"}, {"bytes", bytes}, {"count", 1}, {"duration_ns", duration_ns},
                        {"device", 0}, {"stream", 7}}
      .dump();
}

// A launch with the thesis counters, so that the profile it makes parses.
std::string kernel_launch() {
  nlohmann::json metrics;
  for (const auto& metric : metric_names(MetricSetName::thesis)) metrics[metric] = 1000.0;
  return nlohmann::json{{"metrics", metrics}, {"type", "launch"}, {"index", 0}, {"name", "_Z4axpyPf"}, {"demangled", "axpy(float*)"},
                        {"device", 0}, {"grid", {4, 1, 1}}, {"block", {256, 1, 1}}, {"dynamic_shared_bytes", 0},
                        {"duration_ns", 2000.0}, {"registers", 32}, {"static_shared_bytes", 0}}
      .dump();
}

const std::string kEnd = R"({"type":"end","launches":1,"copies":3})";

// Two processes (the application and a child) with copies of every kind.
RunRecords two_process_run() {
  const auto folder = fresh_folder("copies-run");
  write_lines(folder / "roofcast-timing-100.jsonl",
              {process(100, 1000), copy("h2d", false, 4096, 1500), copy("h2d", false, 1000, 500),
               copy("h2d", true, 1 << 20, 40000), kernel_launch(), copy("d2h", false, 4, 2500),
               memset_line(256, 300), kEnd});
  write_lines(folder / "roofcast-timing-200.jsonl",
              {process(200, 2000), copy("h2d", true, 3 << 20, 110000), copy("d2d", false, 8192, 1000),
               copy("p2p", false, 65536, 9000), copy("d2h", true, 2048, 3000, 1), kernel_launch(), kEnd});
  // The counter run's files are not the timing run's.
  write_lines(folder / "roofcast-counters-100.jsonl", {process(100, 5000), copy("h2d", false, 1e9, 1e9)});
  RunRecords run = read_run_records(folder, "timing");
  fs::remove_all(folder);
  return run;
}

}  // namespace

TEST_CASE("copy and memset records are read per process beside the launches") {
  const RunRecords run = two_process_run();
  CHECK(run.launches.size() == 2);
  REQUIRE(run.copies.size() == 9);
  CHECK(run.copies[0].process == 0);
  CHECK(run.copies[0].kind == "h2d");
  CHECK_FALSE(run.copies[0].pinned);
  CHECK(run.copies[0].bytes == 4096);
  CHECK(run.copies[0].duration_ns == 1500);
  CHECK(run.copies[4].kind == "memset");
  CHECK(run.copies[5].process == 1);
  CHECK(run.copies[5].pinned);
  CHECK(run.copies[8].device == 1);
  CHECK(run.incomplete_processes == 0);
}

TEST_CASE("transfers are summed per kind and pinned-ness, memsets and peer copies kept apart") {
  const RunRecords run = two_process_run();
  const auto transfers = summarize_transfers(run.copies);
  REQUIRE(transfers.size() == 5);
  // h2d pinned: 1 MiB (40 us) + 3 MiB (110 us) from the two processes.
  CHECK(transfers[0].kind == TransferKind::host_to_device);
  CHECK(transfers[0].pinned);
  CHECK(transfers[0].count == 2);
  CHECK(transfers[0].bytes == 4194304);
  CHECK(*transfers[0].measured_ms == Approx(0.150));
  // h2d pageable: 4096 + 1000 bytes, 1.5 + 0.5 us.
  CHECK(transfers[1].kind == TransferKind::host_to_device);
  CHECK_FALSE(transfers[1].pinned);
  CHECK(transfers[1].count == 2);
  CHECK(transfers[1].bytes == 5096);
  CHECK(*transfers[1].measured_ms == Approx(0.002));
  CHECK(transfers[2].kind == TransferKind::device_to_host);
  CHECK(transfers[2].pinned);
  CHECK(transfers[2].bytes == 2048);
  CHECK(transfers[3].kind == TransferKind::device_to_host);
  CHECK_FALSE(transfers[3].pinned);
  CHECK(transfers[3].count == 1);
  CHECK(transfers[3].bytes == 4);
  CHECK(*transfers[3].measured_ms == Approx(0.0025));
  CHECK(transfers[4].kind == TransferKind::device_to_device);
  CHECK(transfers[4].bytes == 8192);

  const OtherCopies other = summarize_other_copies(run.copies);
  CHECK(other.memset_count == 1);
  CHECK(other.memset_bytes == 256);
  CHECK(other.memset_ms == Approx(0.0003));
  CHECK(other.peer_count == 1);
  CHECK(other.peer_bytes == 65536);

  // --device 1: only the pinned d2h copy.
  const auto on_device_1 = summarize_transfers(run.copies, 1);
  REQUIRE(on_device_1.size() == 1);
  CHECK(on_device_1[0].kind == TransferKind::device_to_host);
  CHECK(on_device_1[0].bytes == 2048);
}

TEST_CASE("the profile's transfers array parses back as the model's transfer records") {
  const RunRecords run = two_process_run();
  const auto kernels = summarize_kernels(run.launches);
  nlohmann::json profile = kernel_profile_json(kernels, {"NVIDIA H100", "GH100", "./app", "2026-11-22T00:00:00Z", "full", 4, {}},
                                               true);
  add_transfers(profile, run.copies, true);
  REQUIRE(profile["transfers"].size() == 5);
  const auto& first = profile["transfers"][0];
  CHECK(first.size() == 5);
  CHECK(first["kind"] == "h2d");
  CHECK(first["pinned"] == true);
  CHECK(first["count"] == 2.0);
  CHECK(first["bytes"] == 4194304.0);
  CHECK(first["measured_ms"].get<double>() == Approx(0.15));
  CHECK(profile["memsets"]["bytes"] == 256.0);
  CHECK(profile["peer_copies"]["count"] == 1.0);
  REQUIRE(profile["copies"].size() == 9);
  CHECK(profile["copies"][6]["kind"] == "d2d");
  CHECK(profile["copies"][6]["process"] == 1);
  CHECK(profile["copies"][6]["duration_ms"] == Approx(0.001));

  const auto parsed = roofcast::parse_kernel_profile(profile.dump(), "profile.json");
  REQUIRE(parsed.transfers.size() == 5);
  CHECK(parsed.transfers[1].kind == TransferKind::host_to_device);
  CHECK_FALSE(parsed.transfers[1].pinned);
  CHECK(parsed.transfers[1].count == 2);
  CHECK(parsed.transfers[1].bytes == 5096);
  CHECK(*parsed.transfers[1].measured_ms == Approx(0.002));
  CHECK(parsed.transfers[4].kind == TransferKind::device_to_device);

  nlohmann::json without = kernel_profile_json(kernels, {}, false);
  add_transfers(without, {}, false);
  CHECK_FALSE(without.contains("transfers"));
  CHECK_FALSE(without.contains("copies"));
}

TEST_CASE("a copy record cut by a kill is ignored like a cut launch") {
  const auto folder = fresh_folder("copies-cut");
  std::ofstream(folder / "roofcast-timing-300.jsonl") << process(300, 1) << "\n"
                                                      << copy("h2d", true, 512, 100) << "\n"
                                                      << R"({"type":"copy","direction":"d2h","by)";
  const RunRecords run = read_run_records(folder, "timing");
  fs::remove_all(folder);
  REQUIRE(run.copies.size() == 1);
  CHECK(run.copies[0].bytes == 512);
  CHECK(run.incomplete_processes == 1);
}
