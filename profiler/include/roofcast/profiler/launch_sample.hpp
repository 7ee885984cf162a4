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
  bool take(const SampleShape& shape);
  bool planned(const SampleShape& shape) const { return plan_.launches(shape).has_value(); }
  bool has_plan() const { return plan_.size() > 0; }
  // The first run of --runs auto: a shape not in the plan whose profiled launches count
  // different instructions is profiled no more, since the counter run spreads its sample over
  // the run anyway. observe() gets each profiled launch's instruction counters.
  void leave_differing_shapes() { leave_differing_ = true; }
  void observe(const SampleShape& shape, std::vector<double> instruction_counts);
  void restart() {  // a forked child counts its own launches
    seen_.clear();
    first_counts_.clear();
    differing_.clear();
  }

 private:
  SamplePlan plan_;
  uint64_t sample_;
  std::map<SampleShape, uint64_t> seen_;
  bool leave_differing_ = false;
  std::map<SampleShape, std::vector<double>> first_counts_;
  std::set<SampleShape> differing_;
};

}  // namespace roofcast::profiler
