#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace roofcast::profiler {

// Which launches the counter run profiles (`roofcast profile --sample N|all`). The timing run
// records every launch; the counter run profiles at most N launches of each distinct (kernel,
// grid, block), spread evenly over that shape's launches in the timing run, and the profile
// scales their counters to all invocations of the shape (kernel_summary.hpp).

// Whether occurrence `occurrence` (0-based) of a shape launched `total` times is among the
// `sample` spread over them: the ones nearest the middles of `sample` equal slices of the run.
// `sample` 0 means every launch; so does total <= sample.
bool is_sampled(uint64_t occurrence, uint64_t total, uint64_t sample);

// The first run's own spread (--runs auto). It cannot know how many times a shape will launch,
// so past the first `sample` launches it profiles those on a grid from which, once the run has
// ended, a sample spread over the whole run is cut, whatever its length: the middles of slices
// of s launches, s the largest power of 3 that leaves at least `sample` slices (so `sample` to
// 3 x `sample` launches; for 40 launches and a sample of 5, s = 3: occurrences 1, 4, ... 37).
// The middle of a slice of 3s is the middle of the middle one of its three slices of s, so every
// grid holds the coarser ones, and a launch is profiled when it is on the grid of the finest s a
// run ending right after it could have. `sample` 0 means every launch.
uint64_t in_run_step(uint64_t total, uint64_t sample);
// Whether occurrence `occurrence` is in the in-run sample of a shape launched `total` times.
bool in_run_sampled(uint64_t occurrence, uint64_t total, uint64_t sample);
// Whether the first run profiles occurrence `occurrence` to be able to cut that sample.
inline bool in_run_candidate(uint64_t occurrence, uint64_t sample) {
  return in_run_sampled(occurrence, occurrence + 1, sample);
}

// (mangled kernel name, grid, block)
using SampleShape = std::tuple<std::string, std::array<unsigned, 3>, std::array<unsigned, 3>>;

// How many times each shape launched in a process of the timing run (the most over the
// application's processes), handed to the counter run as a small text file; and, where a first
// run profiled a shape's first launches in each process (--runs auto), how many, so that the
// counter run does not profile those again.
class SamplePlan {
 public:
  // Keeps the largest counts per shape.
  void add(const SampleShape& shape, uint64_t launches, uint64_t already_profiled = 0);
  std::optional<uint64_t> launches(const SampleShape& shape) const;
  uint64_t already_profiled(const SampleShape& shape) const;
  size_t size() const { return shapes_.size(); }
  std::vector<SampleShape> shapes() const;
  // Lines "launches already-profiled gx gy gz bx by bz mangled-name"; false when the file cannot
  // be written/read.
  bool write(const std::string& path) const;
  static std::optional<SamplePlan> read(const std::string& path);

 private:
  struct Counts {
    uint64_t launches = 0;
    uint64_t already_profiled = 0;
  };
  std::map<SampleShape, Counts> shapes_;
};

// Two launches of a shape do different work when an instruction counter of theirs differs by
// more than this share of the larger (the first run's early stop here, and spread_plan.hpp).
inline constexpr double kInstructionTolerance = 0.02;
// The counters compared so: instruction counts (`*inst_executed*`), equal for launches doing
// the same work.
inline bool is_instruction_metric(std::string_view metric) { return metric.find("inst_executed") != metric.npos; }
bool same_instruction_counts(const std::vector<double>& a, const std::vector<double>& b);

// The injection's side: counts each shape's launches in this process and says which to profile.
// Shapes the plan does not know (the first run has no plan; or the run went otherwise) have
// their first `sample` launches profiled.
class LaunchSampler {
 public:
  LaunchSampler(SamplePlan plan, uint64_t sample) : plan_(std::move(plan)), sample_(sample) {}
  // The first run of --runs auto: a shape not in the plan whose profiled launches count different
  // instructions (same_instruction_counts) is profiled on from there on the in-run grid
  // (in_run_candidate) while those extra launches cost at most `budget` times the process' own
  // run time so far (what a counter run costs at least: the application run again). One the
  // budget once refuses is profiled no more: its grid has a hole, and a counter run will spread
  // its sample anyway. Shapes whose launches agree: their first N. Budget 0: no more of a shape
  // once its launches differ.
  void spread_in_run(double budget) {
    spread_in_run_ = true;
    budget_ = budget;
  }
  // `own_seconds`: the process' run time so far less the time its profiled launches took (read
  // only by spread_in_run).
  bool take(const SampleShape& shape, double own_seconds = 0);
  bool planned(const SampleShape& shape) const { return plan_.launches(shape).has_value(); }
  bool has_plan() const { return plan_.size() > 0; }
  // After each profiled launch: its instruction counters and the seconds profiling it took.
  void observe(const SampleShape& shape, std::vector<double> instruction_counts, double cost_seconds = 0);
  void restart() {  // a forked child counts its own launches, on a budget of its own
    seen_.clear();
    first_counts_.clear();
    differing_.clear();
    stopped_.clear();
    most_cost_.clear();
    extras_seconds_ = 0;
  }

 private:
  SamplePlan plan_;
  uint64_t sample_;
  std::map<SampleShape, uint64_t> seen_;
  bool spread_in_run_ = false;
  double budget_ = 0;
  double extras_seconds_ = 0;                     // the extra launches' cost so far (estimated)
  std::map<SampleShape, double> most_cost_;       // the most a profiled launch of the shape took
  std::map<SampleShape, std::vector<double>> first_counts_;
  std::set<SampleShape> differing_;
  std::set<SampleShape> stopped_;                 // refused by the budget once
};

}  // namespace roofcast::profiler
