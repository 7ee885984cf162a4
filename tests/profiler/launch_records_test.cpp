#include <catch2/catch.hpp>

#include "test_files.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/profiler/kernel_summary.hpp"
#include "roofcast/profiler/launch_filter.hpp"
#include "roofcast/profiler/launch_records.hpp"
#include "roofcast/profiler/metric_set.hpp"

using namespace roofcast::profiler;
using roofcast::LaunchRecord;
namespace fs = std::filesystem;
using roofcast::testing::fresh_folder;
using roofcast::testing::write_lines;

namespace {

std::string launch(int index, const char* name, int grid, double duration_ns) {
  nlohmann::json line = {{"type", "launch"}, {"index", index}, {"name", name}, {"demangled", std::string(name) + "(float*)"},
                         {"device", 0}, {"grid", {grid, 1, 1}}, {"block", {256, 1, 1}}, {"dynamic_shared_bytes", 0},
                         {"duration_ns", duration_ns}, {"registers", 32}, {"static_shared_bytes", 2048}};
  return line.dump();
}

std::string counted(int index, const char* name, int grid, double fma, double occupancy) {
  nlohmann::json metrics;
  for (const auto& metric : metric_names(MetricSetName::thesis)) metrics[metric] = fma;
  metrics["sm__warps_active.avg.pct_of_peak_sustained_active"] = occupancy;
  nlohmann::json line = {{"type", "launch"}, {"index", index}, {"name", name}, {"demangled", std::string(name) + "(float*)"},
                         {"device", 0}, {"grid", {grid, 1, 1}}, {"block", {256, 1, 1}}, {"dynamic_shared_bytes", 0},
                         {"metrics", metrics}};
  return line.dump();
}

}  // namespace

TEST_CASE("launch filter: regex, skip and count apply to matching launches in order") {
  LaunchFilter filter({"axpy", 1, 2, std::nullopt});
  CHECK_FALSE(filter.admit("axpy(float*)", 0));  // skipped
  CHECK_FALSE(filter.admit("gemm(float*)", 0));  // does not match
  CHECK(filter.admit("axpy(float*)", 0) == 0u);
  CHECK(filter.admit("axpy(float*)", 1) == 1u);
  CHECK_FALSE(filter.admit("axpy(float*)", 0));  // count reached
  LaunchFilter on_device({"", 0, std::nullopt, 1});
  CHECK_FALSE(on_device.admit("k", 0));
  CHECK(on_device.admit("k", 1) == 0u);
}

TEST_CASE("two runs are joined by process, kernel, shape and order, and aggregated per kernel") {
  const auto folder = fresh_folder("records-join");
  fs::create_directories(folder / "t");
  fs::create_directories(folder / "c");
  // The application (started first) and a child process, in each run.
  write_lines(folder / "t/roofcast-timing-100.jsonl",
              {R"({"type":"process","pid":100,"start_ns":1000,"mode":"timing"})",
               R"({"type":"device","index":0,"name":"NVIDIA H100 80GB HBM3","chip":"GH100"})",
               launch(0, "_Z4axpyPf", 64, 1e6), launch(1, "_Z4gemmPf", 8, 4e6), launch(2, "_Z4axpyPf", 128, 3e6),
               launch(3, "_Z4axpyPf", 64, 2e6), R"({"type":"end","launches":4})"});
  write_lines(folder / "t/roofcast-timing-200.jsonl",
              {R"({"type":"process","pid":200,"start_ns":2000,"mode":"timing"})", launch(0, "_Z4axpyPf", 64, 5e6),
               R"({"type":"end","launches":1})"});
  write_lines(folder / "c/roofcast-counters-300.jsonl",
              {R"({"type":"process","pid":300,"start_ns":3000,"mode":"counters"})",
               R"({"type":"config","device":0,"chip":"GH100","passes":2,"metrics":[]})",
               counted(0, "_Z4axpyPf", 64, 10, 40), counted(1, "_Z4gemmPf", 8, 1000, 90),
               counted(2, "_Z4axpyPf", 128, 20, 50), counted(3, "_Z4axpyPf", 64, 30, 60), R"({"type":"end","launches":4})"});
  // The child's file is cut mid-line (killed): what is complete still counts.
  write_lines(folder / "c/roofcast-counters-400.jsonl",
              {R"({"type":"process","pid":400,"start_ns":4000,"mode":"counters"})", counted(0, "_Z4axpyPf", 64, 7, 70),
               R"({"type":"launch","index":1,"na)"});

  const RunRecords timing = read_run_records(folder / "t", "timing");
  const RunRecords counters = read_run_records(folder / "c", "counters");
  CHECK(timing.processes == 2);
  CHECK(counters.incomplete_processes == 1);
  CHECK(counters.passes == 2u);
  CHECK(timing.devices.at(0).name == "NVIDIA H100 80GB HBM3");
  const JoinedRuns joined = join_runs(timing, counters);
  CHECK(joined.timing_only == 0);
  CHECK(joined.counters_only == 0);
  REQUIRE(joined.launches.size() == 5);

  const auto kernels = summarize_kernels(joined.launches);
  REQUIRE(kernels.size() == 2);
  const KernelSummary& axpy = kernels[0];
  CHECK(axpy.name == "_Z4axpyPf(float*)");
  CHECK(axpy.invocations == 4);
  CHECK(axpy.total_ms == Approx(11.0));
  CHECK(axpy.min_ms == Approx(1.0));
  CHECK(axpy.median_ms == Approx(2.5));
  CHECK(axpy.max_ms == Approx(5.0));
  CHECK(axpy.counters.at("smsp__inst_executed.sum") == 10 + 20 + 30 + 7);                       // sums
  // Ratios are means over the kernel's run time: (40 x 1 + 50 x 3 + 60 x 2 + 70 x 5) / 11 ms.
  CHECK(axpy.counters.at("sm__warps_active.avg.pct_of_peak_sustained_active") == Approx(60.0));
  REQUIRE(axpy.shapes.size() == 2);
  CHECK(axpy.shapes[0].invocations == 3);
  CHECK(axpy.shapes[1].grid[0] == 128);

  ProfileProvenance provenance{"NVIDIA H100 80GB HBM3", "GH100", "app", "2026-11-22T00:00:00Z", "thesis", 2, {}, "all"};
  const auto json = kernel_profile_json(kernels, provenance, true);
  CHECK(json["collector"]["cache_control"] == "all");
  const auto profile = roofcast::parse_kernel_profile(json.dump(), "out.json");
  CHECK(profile.reference_device == "NVIDIA H100 80GB HBM3");
  CHECK(*profile.kernels[1].measured_ms == Approx(4.0));
  CHECK(std::get<roofcast::KernelCounters>(profile.kernels[1].description).thesis.flop_count_sp_fma == 1000);
  CHECK(json["kernels"][0]["launches"].size() == 4);

  const auto times = measured_times(kernels, "NVIDIA H100 80GB HBM3");
  CHECK(times.kernels[0].measured_ms == Approx(11.0));
  fs::remove_all(folder);
}

TEST_CASE("MPI ranks that start in another order in the counter run are matched by their rank variable") {
  const auto folder = fresh_folder("records-ranks");
  fs::create_directories(folder / "t");
  fs::create_directories(folder / "c");
  // Rank 0 starts first in the timing run, rank 1 in the counter run; each rank has its own grid.
  write_lines(folder / "t/roofcast-timing-10.jsonl",
              {R"({"type":"process","pid":10,"start_ns":1000,"mode":"timing","env":{"OMPI_COMM_WORLD_RANK":"0"}})",
               launch(0, "_Z4stepPf", 4, 1e6), R"({"type":"end","launches":1})"});
  write_lines(folder / "t/roofcast-timing-11.jsonl",
              {R"({"type":"process","pid":11,"start_ns":1001,"mode":"timing","env":{"OMPI_COMM_WORLD_RANK":"1"}})",
               launch(0, "_Z4stepPf", 5, 2e6), R"({"type":"end","launches":1})"});
  write_lines(folder / "c/roofcast-counters-20.jsonl",
              {R"({"type":"process","pid":20,"start_ns":3001,"mode":"counters","env":{"OMPI_COMM_WORLD_RANK":"0"}})",
               counted(0, "_Z4stepPf", 4, 10, 40), R"({"type":"end","launches":1})"});
  write_lines(folder / "c/roofcast-counters-21.jsonl",
              {R"({"type":"process","pid":21,"start_ns":3000,"mode":"counters","env":{"OMPI_COMM_WORLD_RANK":"1"}})",
               counted(0, "_Z4stepPf", 5, 20, 50), R"({"type":"end","launches":1})"});
  const RunRecords timing = read_run_records(folder / "t", "timing");
  const RunRecords counters = read_run_records(folder / "c", "counters");
  REQUIRE(counters.process_info.size() == 2);
  CHECK(counters.process_info[0].pid == 20);  // rank 0 first, though it started second
  const JoinedRuns joined = join_runs(timing, counters, true);
  CHECK(joined.timing_only == 0);
  CHECK(joined.counters_only == 0);
  REQUIRE(joined.launches.size() == 2);
  CHECK(joined.launches[0].grid[0] == 4);
  CHECK(joined.launches[0].metrics.at("smsp__inst_executed.sum") == 10);
  CHECK(joined.launches[1].metrics.at("smsp__inst_executed.sum") == 20);
  fs::remove_all(folder);
}

TEST_CASE("a child killed in both runs is numbered after the others, whichever started first") {
  const auto folder = fresh_folder("records-killed");
  fs::create_directories(folder / "t");
  fs::create_directories(folder / "c");
  // Two forked children with the same kernels; the killed one (no end record, its timing
  // records lost) starts second in the timing run and first in the counter run.
  write_lines(folder / "t/roofcast-timing-10.jsonl",
              {R"({"type":"process","pid":10,"start_ns":1000,"mode":"timing"})", launch(0, "_Z4stepPf", 4, 1e6),
               launch(1, "_Z4stepPf", 4, 1e6), R"({"type":"end","launches":2})"});
  write_lines(folder / "t/roofcast-timing-11.jsonl", {R"({"type":"process","pid":11,"start_ns":1001,"mode":"timing"})"});
  write_lines(folder / "c/roofcast-counters-20.jsonl",
              {R"({"type":"process","pid":20,"start_ns":3001,"mode":"counters"})", counted(0, "_Z4stepPf", 4, 10, 40),
               counted(1, "_Z4stepPf", 4, 11, 41), R"({"type":"end","launches":2})"});
  write_lines(folder / "c/roofcast-counters-21.jsonl",
              {R"({"type":"process","pid":21,"start_ns":3000,"mode":"counters"})", counted(0, "_Z4stepPf", 4, 20, 50)});
  const RunRecords timing = read_run_records(folder / "t", "timing");
  const RunRecords counters = read_run_records(folder / "c", "counters");
  REQUIRE(counters.process_info.size() == 2);
  CHECK(counters.process_info[0].pid == 20);  // the one that ended first, though it started second
  CHECK(timing.process_info[0].pid == 10);
  const JoinedRuns joined = join_runs(timing, counters, true);
  CHECK(joined.timing_only == 0);
  CHECK(joined.counters_only == 1);  // the killed child's, whose timing records are lost
  REQUIRE(joined.launches.size() == 2);
  CHECK(joined.launches[0].metrics.at("smsp__inst_executed.sum") == 10);
  CHECK(joined.launches[1].metrics.at("smsp__inst_executed.sum") == 11);
  fs::remove_all(folder);
}

TEST_CASE("launches whose counterpart is missing are not joined") {
  RunRecords timing, counters;
  LaunchRecord a;
  a.name = "k";
  a.grid = {1, 1, 1};
  a.block = {32, 1, 1};
  timing.launches = {a, a};
  timing.launches[1].index = 1;
  LaunchRecord other = a;
  other.grid = {2, 1, 1};
  counters.launches = {a, other};
  counters.launches[1].index = 1;
  const JoinedRuns joined = join_runs(timing, counters);
  CHECK(joined.launches.size() == 1);
  CHECK(joined.timing_only == 1);
  CHECK(joined.counters_only == 1);
}

// The records' lines themselves: tests/formats/collector_records_test.cpp.
TEST_CASE("a malformed record in the middle of a run's file is an error naming file and line") {
  const auto folder = fresh_folder("records-bad");
  write_lines(folder / "roofcast-timing-1.jsonl", {R"({"type":"process","pid":1})", "{not json", launch(0, "k", 1, 1)});
  CHECK_THROWS_WITH(read_run_records(folder, "timing"), Catch::Contains("roofcast-timing-1.jsonl:2"));
  fs::remove_all(folder);
}

TEST_CASE("forked children that start in another order in the counter run are paired by their launches") {
  // Three processes with nothing recorded to tell them apart; each launches its own grid. The
  // two children start in one order in the timing run and in the other in the counter run.
  auto run = [](const std::vector<int>& grids, bool counted_run) {
    RunRecords records;
    records.processes = static_cast<int>(grids.size());
    for (size_t p = 0; p < grids.size(); ++p) {
      for (uint64_t i = 0; i < 3; ++i) {
        LaunchRecord l;
        l.process = static_cast<int>(p);
        l.index = i;
        l.name = "_Z4stepPf";
        l.grid = {static_cast<unsigned>(grids[p]), 1, 1};
        l.block = {256, 1, 1};
        if (counted_run) l.metrics["smsp__inst_executed.sum"] = grids[p] * 100.0 + static_cast<double>(i);
        records.launches.push_back(l);
      }
    }
    return records;
  };
  const RunRecords timing = run({4, 5, 6}, false);
  const RunRecords counters = run({4, 6, 5}, true);
  const JoinedRuns joined = join_runs(timing, counters);
  CHECK(joined.timing_only == 0);
  CHECK(joined.counters_only == 0);
  REQUIRE(joined.launches.size() == 9);
  for (const auto& l : joined.launches) CHECK(l.metrics.at("smsp__inst_executed.sum") == l.grid[0] * 100.0 + l.index);
  // Start order is kept where the launches do not tell the processes apart.
  const RunRecords same = run({4, 4, 4}, true);
  const JoinedRuns by_order = join_runs(run({4, 4, 4}, false), same);
  REQUIRE(by_order.launches.size() == 9);
  CHECK(by_order.launches[3].process == 1);
  CHECK(by_order.launches[3].metrics.at("smsp__inst_executed.sum") == 400.0);
}
