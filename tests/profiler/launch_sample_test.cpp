// --sample: which launches the counter run profiles, and how their counters are scaled.
#include <catch2/catch.hpp>

#include "test_files.hpp"

#include <nlohmann/json.hpp>

#include "roofcast/formats/profile_json.hpp"
#include "roofcast/profiler/kernel_summary.hpp"
#include "roofcast/profiler/launch_records.hpp"
#include "roofcast/profiler/launch_sample.hpp"
#include "roofcast/profiler/metric_set.hpp"
#include "roofcast/profiler/progress_monitor.hpp"

#include <algorithm>
#include <fstream>

using namespace roofcast::profiler;
using roofcast::LaunchRecord;

TEST_CASE("a sample of N takes N launches of a shape, spread over its run") {
  std::vector<uint64_t> taken;
  for (uint64_t i = 0; i < 1000; ++i)
    if (is_sampled(i, 1000, 5)) taken.push_back(i);
  CHECK(taken == std::vector<uint64_t>{100, 300, 500, 700, 900});  // the middles of five slices
  for (uint64_t total = 1; total < 200; ++total)
    for (uint64_t sample = 1; sample < 12; ++sample) {
      uint64_t count = 0;
      for (uint64_t i = 0; i < total + 3; ++i) count += is_sampled(i, total, sample);
      INFO(total << " launches, sample " << sample);
      REQUIRE(count == std::min(total, sample));  // N of them, or all of a shape launched fewer times
    }
  for (uint64_t i = 0; i < 20; ++i) CHECK(is_sampled(i, 20, 0));  // 0: all
}

TEST_CASE("the sample plan survives its file, and the sampler follows it per shape") {
  const auto folder = roofcast::testing::fresh_folder("sample-plan");
  SamplePlan plan;
  const SampleShape step{"_Z4stepPf", {64, 1, 1}, {256, 1, 1}};
  const SampleShape other{"_Z4stepPf", {128, 1, 1}, {256, 1, 1}};
  plan.add(step, 10);
  plan.add(step, 7);  // another process launched it less: the largest count is kept
  plan.add(other, 2);
  const std::string path = (folder / "plan.txt").string();
  auto through_file = [&](const SamplePlan& written) {
    REQUIRE(written.write(path));
    auto read = SamplePlan::read(path);
    REQUIRE(read);
    return *read;
  };
  const SamplePlan read = through_file(plan);
  CHECK(read.launches(step) == 10u);
  CHECK(read.launches(other) == 2u);
  LaunchSampler sampler(read, 2);
  std::vector<int> taken;
  for (int i = 0; i < 10; ++i)
    if (sampler.take(step)) taken.push_back(i);
  CHECK(taken == std::vector<int>{2, 7});
  CHECK(sampler.take(other));
  CHECK(sampler.take(other));
  const SampleShape unknown{"_Z5otherv", {1, 1, 1}, {32, 1, 1}};  // not in the plan: the first 2
  CHECK(sampler.take(unknown));
  CHECK(sampler.take(unknown));
  CHECK_FALSE(sampler.take(unknown));
  sampler.restart();
  CHECK(sampler.take(unknown));
  // A shape whose first 3 launches a first run profiled: those are not taken again.
  SamplePlan after_first_run;
  after_first_run.add(step, 10, 3);
  const SamplePlan reread = through_file(after_first_run);
  CHECK(reread.already_profiled(step) == 3u);
  CHECK(reread.already_profiled(other) == 0u);
  LaunchSampler spreading(reread, 5);
  taken.clear();
  for (int i = 0; i < 10; ++i)
    if (spreading.take(step)) taken.push_back(i);
  CHECK(taken == std::vector<int>{3, 5, 7, 9});  // 1 was the first run's
  for (const char* bad : {"12 1 1", "12 0 4 1 1 128 1 1", "12 0 4 1 1 128 1 1 ", "12 0 4 1 x 128 1 1 _Z1fv",
                          "-1 0 4 1 1 128 1 1 _Z1fv", "99999999999999999999 0 4 1 1 128 1 1 _Z1fv"}) {
    INFO(bad);
    roofcast::testing::write_lines(folder / "bad.txt", {bad});
    CHECK_FALSE(SamplePlan::read((folder / "bad.txt").string()));
  }
  // The name is the rest of the line, spaces and all.
  roofcast::testing::write_lines(folder / "spaced.txt", {"3 1 4 1 1 128 1 1 (unknown kernel)"});
  const auto spaced = SamplePlan::read((folder / "spaced.txt").string());
  REQUIRE(spaced);
  const SampleShape unknown_kernel{"(unknown kernel)", {4, 1, 1}, {128, 1, 1}};
  CHECK(spaced->launches(unknown_kernel) == 3u);
  CHECK(spaced->already_profiled(unknown_kernel) == 1u);
  CHECK_FALSE(SamplePlan::read((folder / "missing.txt").string()));
}

namespace {

LaunchRecord launch(const char* name, unsigned grid, uint64_t index, double duration_ns) {
  LaunchRecord l;
  l.name = name;
  l.demangled = std::string(name) + "()";
  l.index = index;
  l.grid = {grid, 1, 1};
  l.block = {256, 1, 1};
  l.duration_ns = duration_ns;
  return l;
}

void count(LaunchRecord& l, double instructions, double occupancy) {
  for (const auto& metric : metric_names(MetricSetName::thesis)) l.metrics[metric] = instructions;
  l.metrics["sm__warps_active.avg.pct_of_peak_sustained_active"] = occupancy;
}

}  // namespace

TEST_CASE("the in-run sample: middles of slices of a power of 3 launches, N to 3N of them, each grid in the finer") {
  CHECK(in_run_step(4, 5) == 1);
  CHECK(in_run_step(14, 5) == 1);
  CHECK(in_run_step(15, 5) == 3);
  CHECK(in_run_step(44, 5) == 3);
  CHECK(in_run_step(45, 5) == 9);
  CHECK(in_run_step(1000000, 0) == 1);  // all
  std::vector<uint64_t> taken;
  for (uint64_t i = 0; i < 40; ++i)
    if (in_run_sampled(i, 40, 5)) taken.push_back(i);
  CHECK(taken == std::vector<uint64_t>{1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37});
  taken.clear();
  for (uint64_t i = 0; i < 40; ++i)
    if (in_run_sampled(i, 40, 2)) taken.push_back(i);
  CHECK(taken == std::vector<uint64_t>{4, 13, 22, 31});
  // Whatever the run's length, its sample is N to 3N launches, each profiled when it came.
  for (uint64_t sample = 1; sample < 8; ++sample)
    for (uint64_t total = sample; total < 3000; ++total) {
      uint64_t count = 0;
      for (uint64_t i = 0; i < total; ++i) {
        if (!in_run_sampled(i, total, sample)) continue;
        ++count;
        INFO(total << " launches, sample " << sample << ", occurrence " << i);
        REQUIRE(in_run_candidate(i, sample));
      }
      INFO(total << " launches, sample " << sample);
      REQUIRE(count >= sample);
      REQUIRE(count <= 3 * sample);
    }
  // What the first run profiles of 40 launches with N = 2: 11, of which the sample keeps 4.
  taken.clear();
  for (uint64_t i = 0; i < 40; ++i)
    if (in_run_candidate(i, 2)) taken.push_back(i);
  CHECK(taken == std::vector<uint64_t>{0, 1, 2, 3, 4, 7, 10, 13, 16, 22, 31});
}

TEST_CASE("the first run of --runs auto profiles the in-run grid of a shape whose launches differ, while its budget lasts") {
  const SampleShape pass{"_Z10merge_passv", {64, 1, 1}, {256, 1, 1}};
  const SampleShape step{"_Z4stepv", {64, 1, 1}, {256, 1, 1}};
  // Each profiled launch takes 0.25 s.
  auto run = [&](double budget, double own_seconds, int launches) {
    LaunchSampler sampler(SamplePlan(), 5);
    sampler.spread_in_run(budget);
    std::vector<int> passes, steps;
    for (int i = 0; i < launches; ++i) {
      if (sampler.take(pass, own_seconds)) {
        passes.push_back(i);
        sampler.observe(pass, {1000.0 + 100 * i, 50}, 0.25);  // 10 % more instructions each launch
      }
      if (sampler.take(step, own_seconds)) {
        steps.push_back(i);
        sampler.observe(step, {1000.0 + i, 50}, 0.25);  // within 2 %
      }
    }
    return std::pair{passes, steps};
  };
  // pass's launches differ from its second on: it goes on on the grid; step's agree: its first 5.
  const std::vector<int> grid = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 19};
  const std::vector<int> first_five = {0, 1, 2, 3, 4};
  CHECK(run(1.0 / 3, 100, 20) == std::pair{grid, first_five});
  // Budget 0: the first N of alike shapes; a shape whose launches differ, no more once they do.
  CHECK(run(0, 100, 20) == std::pair{std::vector<int>{0, 1}, first_five});
  // A budget of 1 s, 4 extra launches: pass's 2, 3, 4 and 5; its 6 is refused, and it is
  // profiled no more.
  CHECK(run(0.5, 2, 20) == std::pair{std::vector<int>{0, 1, 2, 3, 4, 5}, first_five});
  // Without spread_in_run (--runs one), the first N are profiled whatever they count.
  LaunchSampler one_run(SamplePlan(), 3);
  std::vector<int> taken;
  for (int i = 0; i < 5; ++i)
    if (one_run.take(pass)) {
      taken.push_back(i);
      one_run.observe(pass, {1000.0 + 100 * i});
    }
  CHECK(taken == std::vector<int>{0, 1, 2});
  // A forked child starts over.
  LaunchSampler sampler(SamplePlan(), 5);
  sampler.spread_in_run(0);
  for (int i = 0; i < 6; ++i) sampler.take(step, 10);
  CHECK_FALSE(sampler.take(step, 10));
  sampler.restart();
  CHECK(sampler.take(step, 10));
  CHECK(same_instruction_counts({100, 200}, {101, 197}));
  CHECK_FALSE(same_instruction_counts({100, 200}, {100, 190}));
  CHECK_FALSE(same_instruction_counts({100}, {100, 200}));
}

TEST_CASE("sampled counters are scaled to all invocations, shape by shape") {
  RunRecords timing, counters;
  // 10 launches of grid 64 (2 profiled), 4 of grid 128 (1 profiled), 3 of grid 32 (none).
  for (uint64_t i = 0; i < 17; ++i) timing.launches.push_back(launch("_Z4stepv", i < 10 ? 64 : i < 14 ? 128 : 32, i, 1000));
  for (uint64_t i : {2, 7, 11}) {
    LaunchRecord c = timing.launches[i];
    c.duration_ns.reset();
    count(c, c.grid[0] == 64 ? (i == 2 ? 100 : 120) : 400, i == 2 ? 50 : 70);
    counters.launches.push_back(c);
  }
  const JoinedRuns joined = join_runs(timing, counters, true);
  CHECK(joined.launches.size() == 17);  // every timed launch is kept
  CHECK(joined.timing_only == 14);
  CHECK(joined.counters_only == 0);
  const auto kernels = summarize_kernels(joined.launches);
  REQUIRE(kernels.size() == 1);
  const KernelSummary& step = kernels[0];
  CHECK(step.invocations == 17);
  CHECK(step.profiled_invocations == 3);
  CHECK(step.scaled);
  // Shapes: (100 + 120) x 10 / 2 + 400 x 4 / 1 = 2700 over 14 invocations; the 3 of grid 32
  // have no profiled launch: scaled as the kernel's others, x 17 / 14.
  CHECK(step.counters.at("smsp__inst_executed.sum") == Approx(2700.0 * 17 / 14));
  // Ratios: means over the profiled launches (equal durations here).
  CHECK(step.counters.at("sm__warps_active.avg.pct_of_peak_sustained_active") == Approx((50 + 70 + 70) / 3.0));
  REQUIRE(step.shapes.size() == 3);
  CHECK(step.shapes[0].profiled_invocations == 2);
  CHECK(step.shapes[2].profiled_invocations == 0);

  ProfileProvenance provenance{"GPU", "GH100", "app", "2026-11-25T00:00:00Z", "thesis", 2, {}, "all"};
  const auto json = kernel_profile_json(kernels, provenance, false);
  CHECK(json["kernels"][0]["profiled_invocations"] == 3);
  CHECK(json["kernels"][0]["counter_scaling"] == "per_launch_shape");
  CHECK(json["kernels"][0]["launch_shapes"][1]["profiled_invocations"] == 1);
  const auto profile = roofcast::parse_kernel_profile(json.dump(), "sampled.json");  // new fields: still a profile
  CHECK(profile.kernels[0].invocations == 17);
}

TEST_CASE("a kernel whose every launch was profiled is not scaled") {
  std::vector<LaunchRecord> launches = {launch("_Z1kv", 8, 0, 10), launch("_Z1kv", 8, 1, 30)};
  count(launches[0], 5, 10);
  count(launches[1], 7, 30);
  const auto kernels = summarize_kernels(launches);
  CHECK_FALSE(kernels[0].scaled);
  CHECK(kernels[0].counters.at("smsp__inst_executed.sum") == 12);
  CHECK(kernels[0].counters.at("sm__warps_active.avg.pct_of_peak_sustained_active") == Approx(25.0));
  ProfileProvenance provenance{"GPU", "GH100", "app", "2026-11-25T00:00:00Z", "thesis", 2, {}, "all"};
  const auto json = kernel_profile_json(kernels, provenance, false);
  CHECK(json["kernels"][0]["counter_scaling"] == "none");
  CHECK_FALSE(json["kernels"][0]["launch_shapes"][0].contains("profiled_invocations"));
}

TEST_CASE("a sampled join pairs by index only") {
  RunRecords timing, counters;
  for (uint64_t i = 0; i < 4; ++i) timing.launches.push_back(launch("_Z1kv", 8, i, 10));
  LaunchRecord c = timing.launches[2];
  count(c, 9, 10);
  counters.launches = {c};
  const JoinedRuns joined = join_runs(timing, counters, true);
  REQUIRE(joined.launches.size() == 4);
  CHECK(joined.launches[2].metrics.at("smsp__inst_executed.sum") == 9);
  CHECK(joined.launches[0].metrics.empty());
}

TEST_CASE("the progress monitor counts launch and progress records as the files grow") {
  const auto folder = roofcast::testing::fresh_folder("progress");
  roofcast::testing::write_lines(folder / "roofcast-timing-10.jsonl",
                                 {R"({"mode":"timing","pid":10,"type":"process"})",
                                  R"({"launches_seen":1000,"type":"progress"})"});
  ProgressMonitor monitor(folder, "timing", 0, false);
  monitor.poll();
  CHECK(monitor.progress().launches == 1000);  // records not handed over yet: the progress record
  roofcast::testing::write_lines(folder / "roofcast-counters-11.jsonl",
                                 {R"({"device":0,"passes":19,"type":"config"})",
                                  R"({"index":0,"name":"_Z1kv","type":"launch"})", R"({"index":4,"name":"_Z1jv","type":"launch"})"});
  ProgressMonitor counters(folder, "counters", 10, false);
  counters.poll();
  CHECK(counters.progress().launches == 2);
  CHECK(counters.progress().kernels == 2);
  CHECK(counters.progress().passes == 19);
  std::ofstream(folder / "roofcast-counters-11.jsonl", std::ios::app) << R"({"index":9,"name":"_Z1kv","type":"la)";
  counters.poll();  // a line not yet ended is not counted
  CHECK(counters.progress().launches == 2);
  std::ofstream(folder / "roofcast-counters-11.jsonl", std::ios::app) << "unch\"}\n";
  counters.poll();
  CHECK(counters.progress().launches == 3);
  CHECK(counters.progress().kernels == 2);
}
