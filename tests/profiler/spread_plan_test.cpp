// --runs auto: which shapes the first run's first N launches stand for, and which need a
// counter run spread over their launches.
#include <catch2/catch.hpp>

#include "roofcast/profiler/launch_sample.hpp"
#include "roofcast/profiler/spread_plan.hpp"

using namespace roofcast::profiler;
using roofcast::LaunchRecord;

namespace {

LaunchRecord launch(const char* name, unsigned grid, double duration_ns, bool profiled, int process = 0) {
  LaunchRecord l;
  l.process = process;
  l.name = name;
  l.grid = {grid, 1, 1};
  l.block = {256, 1, 1};
  l.duration_ns = duration_ns;
  if (profiled) l.metrics["smsp__inst_executed.sum"] = 1000;
  return l;
}

SampleShape shape(const char* name, unsigned grid) { return {name, {grid, 1, 1}, {256, 1, 1}}; }

}  // namespace

TEST_CASE("launches are alike when their 10th to 90th percentile times lie within 2 % of the median") {
  CHECK(alike_in_time({}));
  CHECK(alike_in_time({5000}));
  CHECK(alike_in_time({100000, 101000, 99500, 100500, 100000}));
  CHECK_FALSE(alike_in_time({100000, 110000, 120000, 130000, 140000}));
  // One slow launch in twenty is beyond the 90th percentile.
  std::vector<double> one_outlier(19, 100000);
  one_outlier.push_back(300000);
  CHECK(alike_in_time(one_outlier));
  // Short launches: 200 ns of timestamp jitter is allowed whatever the median.
  CHECK(alike_in_time({3000, 3150, 2900, 3100}));
  CHECK_FALSE(alike_in_time({3000, 3500, 2500, 3600}));
}

TEST_CASE("a counter run spreads the shapes whose unprofiled launches differ in time, or that have no counters") {
  std::vector<LaunchRecord> launches;
  // "steady": 2 profiled, 6 alike; "bfs": 2 profiled, the rest grow; "all": every launch profiled.
  for (int i = 0; i < 8; ++i) launches.push_back(launch("steady", 10, 50000 + 100 * (i % 2), i < 2));
  for (int i = 0; i < 8; ++i) launches.push_back(launch("bfs", 10, 20000.0 * (i + 1), i < 2));
  for (int i = 0; i < 3; ++i) launches.push_back(launch("all", 10, 1000.0 * (i + 1), true));
  // A graph's kernel: timed, never profiled.
  launches.push_back(launch("graph_node", 4, 9000, false));
  launches.push_back(launch("graph_node", 4, 9000, false));
  // The same kernel with another grid is another shape, whose launches differ.
  launches.push_back(launch("steady", 20, 90000, true));
  launches.push_back(launch("steady", 20, 190000, false));
  launches.push_back(launch("steady", 20, 290000, false));

  const auto spread = shapes_to_spread(launches);
  CHECK(shapes_of(spread) == std::set<SampleShape>{shape("bfs", 10), shape("graph_node", 4), shape("steady", 20)});
  CHECK(spread.at(shape("graph_node", 4)) == SpreadReason::no_counters);
  CHECK(spread.at(shape("bfs", 10)) == SpreadReason::times_differ);
  CHECK(spread_reasons_text(spread) ==
        "1 with no counters in the first run (CUDA graph kernels), 2 whose launch times differ");
}

TEST_CASE("launches that differ in time but take under 1 % of the kernel time need no counter run") {
  std::vector<LaunchRecord> launches;
  for (int i = 0; i < 8; ++i) launches.push_back(launch("big", 10, 1e6, i < 5));
  for (int i = 0; i < 12; ++i) launches.push_back(launch("tiny", 1, 2000.0 + 500 * i, i < 5));  // 0.7 %
  CHECK(shapes_to_spread(launches).empty());
  for (auto& l : launches)
    if (l.name == "tiny") *l.duration_ns *= 10;  // 7 %
  CHECK(shapes_of(shapes_to_spread(launches)) == std::set<SampleShape>{shape("tiny", 1)});
}

TEST_CASE("first launches that count different instructions ask for a spread, even where times are alike") {
  std::vector<LaunchRecord> launches;
  for (int i = 0; i < 8; ++i) launches.push_back(launch("pass", 10, 50000, i < 5));
  CHECK(shapes_to_spread(launches).empty());
  // The third pass executes 3 % more warp instructions: not the same work.
  launches[2].metrics["smsp__inst_executed.sum"] = 1030;
  const auto spread = shapes_to_spread(launches);
  CHECK(shapes_of(spread) == std::set<SampleShape>{shape("pass", 10)});
  CHECK(spread_reasons_text(spread) == "1 whose launches count different instructions");
  // 1 % more is alike; other counters (DRAM sectors move from run to run) are not compared.
  launches[2].metrics["smsp__inst_executed.sum"] = 1010;
  launches[2].metrics["dram__sectors_read.sum"] = 5;
  CHECK(shapes_to_spread(launches).empty());
}

TEST_CASE("each process' launches of a shape are judged apart, and an untimed launch asks for a spread") {
  std::vector<LaunchRecord> launches;
  for (int i = 0; i < 6; ++i) launches.push_back(launch("k", 10, 50000, i < 2, 0));
  for (int i = 0; i < 6; ++i) launches.push_back(launch("k", 10, 80000, i < 2, 1));  // slower, alike within
  CHECK(shapes_to_spread(launches).empty());
  launches.back().duration_ns.reset();
  CHECK(shapes_of(shapes_to_spread(launches)) == std::set<SampleShape>{shape("k", 10)});
}

TEST_CASE("the counter run after a first run profiles the spread positions the first run did not count") {
  // 8 launches of "grow" in one process, the first 5 counted in the first run; "steady" not spread.
  std::vector<LaunchRecord> first;
  for (int i = 0; i < 8; ++i) {
    first.push_back(launch("grow", 10, 1000.0 * (i + 1), i < 5));
    first.back().index = static_cast<uint64_t>(2 * i);
    if (i < 5) first.back().metrics["smsp__inst_executed.sum"] = i + 1;
    first.push_back(launch("steady", 10, 1000, i < 5));
    first.back().index = static_cast<uint64_t>(2 * i + 1);
  }
  const std::set<SampleShape> spread = {shape("grow", 10)};
  const CounterRunPlan plan{&spread, first_profiled(first, spread)};
  CHECK(plan.already_profiled.at(shape("grow", 10)) == 5u);
  const SamplePlan sample_plan = counter_run_sample_plan(first, plan);
  CHECK(sample_plan.launches(shape("grow", 10)) == 8u);
  CHECK(sample_plan.launches(shape("steady", 10)) == 0u);  // never sampled
  // 5 spread over 8: occurrences 0, 2, 4, 5, 7; the first run counted 0, 2 and 4.
  CHECK(planned_launches(first, sample_plan, 5) == 2u);

  // The counter run's joined launches: counters on every grow launch (value 100 + occurrence).
  std::vector<LaunchRecord> counted = first;
  int occurrence = 0;
  for (auto& l : counted) {
    l.metrics.clear();
    if (l.name == "grow") l.metrics["smsp__inst_executed.sum"] = 100 + occurrence++;
  }
  CHECK(take_spread_counters(first, counted, plan, 5) == 2u);
  std::vector<double> grow_counts;
  for (const auto& l : first)
    if (l.name == "grow") grow_counts.push_back(l.metrics.empty() ? -1 : l.metrics.at("smsp__inst_executed.sum"));
  CHECK(grow_counts == std::vector<double>{1, -1, 3, -1, 5, 105, -1, 107});
  for (const auto& l : first)
    if (l.name == "steady") CHECK(l.metrics.size() == (l.index < 10 ? 1u : 0u));  // untouched
}

TEST_CASE("a shape the first run sampled over the whole run needs no counter run, and keeps its sample only") {
  // "grow" (20 launches, each 10 % longer: a counter run's case) with counters on the in-run
  // grid of N = 5 (0-13, 16, 19); "cut" likewise but its budget ran out before launch 19.
  std::vector<LaunchRecord> launches;
  for (int i = 0; i < 20; ++i) {
    const bool on_grid = in_run_candidate(static_cast<uint64_t>(i), 5);
    launches.push_back(launch("grow", 10, 1000 * (1 + 0.1 * i), on_grid));
    if (on_grid) launches.back().metrics["smsp__inst_executed.sum"] = 100 + i;
    launches.push_back(launch("cut", 10, 1000 * (1 + 0.1 * i), on_grid && i < 19));
    if (on_grid && i < 19) launches.back().metrics["smsp__inst_executed.sum"] = 100 + i;
    launches.back().index = 1000 + static_cast<uint64_t>(i);
  }
  const auto sampled = keep_in_run_samples(launches, 5);
  CHECK(sampled == std::set<SampleShape>{shape("grow", 10)});
  std::vector<double> kept;
  size_t cut_counted = 0;
  for (const auto& l : launches) {
    if (l.name == "grow" && !l.metrics.empty()) kept.push_back(l.metrics.at("smsp__inst_executed.sum"));
    cut_counted += l.name == "cut" && !l.metrics.empty();
  }
  CHECK(kept == std::vector<double>{101, 104, 107, 110, 113, 116, 119});  // 20 launches: slices of 3
  CHECK(cut_counted == 15u);                                               // untouched
  const auto spread = shapes_to_spread(launches, sampled);
  CHECK(shapes_of(spread) == std::set<SampleShape>{shape("cut", 10)});
  CHECK(spread.at(shape("cut", 10)) == SpreadReason::instructions_differ);
  // A shape every process launched at most N times, all profiled, is not counted as spread.
  std::vector<LaunchRecord> few = {launch("k", 1, 10, true), launch("k", 1, 10, true, 1)};
  CHECK(keep_in_run_samples(few, 5).empty());
  CHECK(shapes_to_spread(few).empty());
  // Sampled in one process but not in the other: a counter run, and nothing dropped.
  std::vector<LaunchRecord> two;
  for (int p = 0; p < 2; ++p)
    for (int i = 0; i < 12; ++i) two.push_back(launch("k", 1, 1000.0 * (i + 1), p == 0 || i < 5, p));
  CHECK(keep_in_run_samples(two, 5).empty());
  CHECK(shapes_of(shapes_to_spread(two)) == std::set<SampleShape>{shape("k", 1)});
}

TEST_CASE("where at least half of a shape's launches were profiled and agree, the others' times do not ask for a spread") {
  // 8 launches, the first 5 profiled, the last 3 not alike in time (a PyTorch op's check, warm-ups
  // and timed repeats): the 5 stand for all. With 11 (6 unprofiled) they do not.
  std::vector<LaunchRecord> launches;
  for (int i = 0; i < 8; ++i) launches.push_back(launch("op", 10, 100000.0 * (i < 5 ? 1 : 1 + 0.1 * i), i < 5));
  CHECK(shapes_to_spread(launches).empty());
  for (int i = 8; i < 11; ++i) launches.push_back(launch("op", 10, 100000.0 * (1 + 0.1 * i), false));
  const auto spread = shapes_to_spread(launches);
  CHECK(shapes_of(spread) == std::set<SampleShape>{shape("op", 10)});
  CHECK(spread_reasons_text(spread) == "1 whose launch times differ");
}
