#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "roofcast/formats/collector_records.hpp"
#include "roofcast/profiler/launch_sample.hpp"

namespace roofcast::profiler {

// `roofcast profile` (default, --runs auto): the first run times every launch and profiles the
// first N launches of each (process, kernel, grid, block), and where those count different
// instructions, the later launches of the in-run grid (launch_sample.hpp) while that costs at
// most kInRunSpreadBudget of the process' own run time. A shape whose in-run sample got counters
// needs nothing more. Otherwise its first N stand for all its launches where those do the same
// work; where they do not (the work changes from launch to launch, as in a graph traversal), or
// where none was profiled, a counter run profiles N launches spread over all of them.

// The share of a process' own run time (process_clock.hpp: from its start, less what profiling
// took) that the first run may spend profiling launches past the first N of their shape: what a
// counter run, which runs the application again, costs at least. roofcast's environment variable
// of collector_protocol.hpp's kInRunSpreadVariable, where set, replaces it.
inline constexpr double kInRunSpreadBudget = 1.0 / 3;

// The first run's in-run samples (in_run_sampled): the shapes launched more than `sample` times in
// some process whose in-run sample got counters at every launch in every process. They need no
// counter run, and keep counters at those launches only (the others' are dropped, so that the
// sample is spread evenly over the run).
std::set<SampleShape> keep_in_run_samples(std::vector<LaunchRecord>& launches, uint64_t sample);

// Whether launches are alike: the 10th and 90th percentiles of their durations lie within 2 %
// of the median, or within 200 ns of it (the jitter of short launches' timestamps).
bool alike_in_time(std::vector<double> durations_ns);

// The shapes that a counter run must profile again, spread over their launches: those with no
// profiled launch, and those that take 1 % of the kernel time or more (below that, their counters
// hardly move a prediction, and another run of the application costs as much as the first) and
// whose launches differ: the profiled ones' instruction counters (metrics named *inst_executed*)
// more than 2 % apart, or, where fewer than half of its launches in a process were profiled, the
// unprofiled ones not alike in time. (Where at least half were, and count the same instructions,
// the others can move the shape's totals by at most half of how much their work differs from
// the profiled ones'.) `launches`: the first run's timed
// launches in order, with metrics where they were profiled (join_runs with keep_unprofiled). A
// profiled launch was timed from an empty L2, so only the others' times are compared.
// `sampled_in_run` (keep_in_run_samples) are left out. Each shape comes with the first reason
// found, in the order below.
enum class SpreadReason { no_counters, instructions_differ, times_differ };
std::map<SampleShape, SpreadReason> shapes_to_spread(const std::vector<LaunchRecord>& launches,
                                                     const std::set<SampleShape>& sampled_in_run = {});
std::set<SampleShape> shapes_of(const std::map<SampleShape, SpreadReason>& spread);
// "1 with no counters in the first run (CUDA graph kernels), 2 whose launches count different
// instructions": why a counter run was made, for the summary line.
std::string spread_reasons_text(const std::map<SampleShape, SpreadReason>& spread);

SampleShape sample_shape(const LaunchRecord& launch);

// What a counter run after a timing run profiles: N launches of each shape spread over its
// launches in the timing run. Where `only` is given (the counter run of --runs auto), the other
// shapes are not profiled, and the picks among a shape's first `already_profiled` launches (the
// first run counted those) are not profiled again.
struct CounterRunPlan {
  const std::set<SampleShape>* only = nullptr;
  std::map<SampleShape, uint64_t> already_profiled;
};

// The counter run's sample plan: each shape's launches per process in `timing_launches`.
SamplePlan counter_run_sample_plan(const std::vector<LaunchRecord>& timing_launches, const CounterRunPlan& what);

// How many launches a counter run following `plan` with `sample` profiles.
uint64_t planned_launches(const std::vector<LaunchRecord>& timing_launches, const SamplePlan& plan, uint64_t sample);

// For each shape in `spread`: how many of its first launches in each process the first run
// profiled (the most over the processes).
std::map<SampleShape, uint64_t> first_profiled(const std::vector<LaunchRecord>& launches,
                                               const std::set<SampleShape>& spread);

// The spread shapes' launches keep counters at the sample's positions only: the first run's
// where it counted them already, the counter run's elsewhere. `launches` (the first run's,
// joined) and `counter_run_launches` (the counter run's, joined to the same timing records)
// hold every timed launch in the same order. Returns the launches whose counters came from the
// counter run.
size_t take_spread_counters(std::vector<LaunchRecord>& launches, const std::vector<LaunchRecord>& counter_run_launches,
                            const CounterRunPlan& plan, uint64_t sample);

}  // namespace roofcast::profiler
