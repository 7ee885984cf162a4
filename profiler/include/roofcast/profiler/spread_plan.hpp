#pragma once

#include <set>
#include <vector>

#include "roofcast/formats/collector_records.hpp"
#include "roofcast/profiler/launch_sample.hpp"

namespace roofcast::profiler {

// `roofcast profile` (default, --runs auto): the first run times every launch and profiles the
// first N launches of each (process, kernel, grid, block). The first N stand for all the launches
// of a shape where those take the same time; where they do not (the work changes from launch to
// launch, as in a graph traversal), or where none was profiled, a counter run profiles N launches
// spread over all of them.

// Whether launches are alike: the 10th and 90th percentiles of their durations lie within 2 %
// of the median, or within 200 ns of it (the jitter of short launches' timestamps).
bool alike_in_time(std::vector<double> durations_ns);

// The shapes that a counter run must profile again, spread over their launches: those with no
// profiled launch, and those that take 1 % of the kernel time or more and whose launches differ:
// the unprofiled ones not alike in time, or the profiled ones' instruction counters (metrics
// named *inst_executed*) more than 2 % apart (below that, their counters hardly move a prediction, and another
// run of the application costs as much as the first). `launches`: the first run's timed launches
// in order, with metrics where they were profiled (join_runs with keep_unprofiled). A profiled
// launch was timed from an empty L2, so only the others' times are compared.
std::set<SampleShape> shapes_to_spread(const std::vector<LaunchRecord>& launches);

}  // namespace roofcast::profiler
