#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/occupancy.hpp"
#include "roofcast/model/pipes_prediction.hpp"

namespace roofcast {

// One launch configuration to try (`roofcast tune`, docs/tuning.md). The kernel's total work
// (its counters) stays what the profile measured; only how it is cut into threads and blocks
// changes.
struct LaunchCandidate {
  std::array<double, 3> block{1, 1, 1};  // threads per block in x, y, z
  int registers_per_thread = 0;          // 0: as profiled
  std::optional<double> shared_bytes;    // per block; nullopt: the profiled bytes per thread x the block's threads
  // Each thread does this many times the profiled thread's work (thread coarsening): the
  // problem then needs that many times fewer threads.
  double work_per_thread = 1;
  // > 0: a persistent grid of this many blocks per SM of the target, each thread doing what
  // share of the problem that leaves (work_per_thread is then ignored).
  double grid_blocks_per_sm = 0;
  // fixed_tile_candidates(): the block keeps the profiled block's tile, so each warp still waits
  // for memory and at barriers once per tile step (kernel_with_launch keeps those waits per warp).
  bool fixed_tile = false;
  double threads_per_block() const { return block[0] * block[1] * block[2]; }
};

// Every combination of the given block sizes, register counts, shared-memory sizes, work
// factors and persistent grids (an empty list: as profiled; grids from the problem size).
std::vector<LaunchCandidate> candidate_space(const std::vector<std::array<double, 3>>& blocks,
                                             const std::vector<int>& registers,
                                             const std::vector<double>& shared_bytes,
                                             const std::vector<double>& work_per_thread,
                                             const std::vector<double>& grid_blocks_per_sm = {});

// A tile kernel whose blocks each cover a fixed tile of the problem, their threads sharing it
// (an SGEMM's output tile): every candidate block keeps the profiled block's work and shared
// memory (unless `shared_bytes` are given), so a thread of a block of T threads does
// (profiled threads per block / T) times the profiled thread's work. The grid stays.
std::vector<LaunchCandidate> fixed_tile_candidates(const KernelRecord& kernel,
                                                   const std::vector<std::array<double, 3>>& blocks,
                                                   const std::vector<int>& registers,
                                                   const std::vector<double>& shared_bytes);

struct TunedLaunch {
  LaunchCandidate candidate;  // work_per_thread: what each thread does (a persistent grid's share)
  bool profiled = false;      // the configuration the profile measured
  LaunchShape shape;          // what the candidate launches (grid from the problem size)
  Occupancy occupancy;        // blocks per SM and what limits it
  double occupancy_share = 0; // resident warps over the SM's warp slots (0..1), theoretical
  double waves = 0;           // blocks / (SMs x blocks per SM)
  // Share of the block slots idle over the busiest SM's time: 1 - mean blocks per SM / the
  // busiest SM's blocks (within one wave), or / its waves x blocks per SM (over several).
  double tail_idle_share = 0;
  std::string problem;        // why it cannot launch ("" when it can); then not predicted
  // Why the model cannot cost it though it launches ("" when it can): with a second profiled
  // configuration, the line through the two gives its block no work (line_work_problem()).
  // Then not predicted, ranked after those that are, and never worth measuring.
  std::string cannot_cost;
  PipesPrediction prediction;  // predict_pipes() of the re-cut kernel: all the profiled invocations
  double per_launch_ms = 0;    // prediction.predicted_ms / invocations
  double speedup = 0;         // profiled configuration's predicted time / this one's
  bool worth_measuring = false;
};

struct LaunchTuning {
  std::string device;
  double problem_threads = 0;  // threads of the problem at the profiled per-thread work
  // Fastest first; then those that cannot be costed, then those that cannot launch.
  std::vector<TunedLaunch> ranked;
  // What the model could not cost for some candidate, for want of a counter in the profile or a
  // value in the device profile ("no block_dispatch_gblocks on this device: ..."), each once:
  // the ranking holds without it, which the user should know.
  std::vector<std::string> not_modelled;
};

// Why the kernel cannot be tuned ("" when it can): it needs measured counters and a launch shape.
std::string tuning_problem(const KernelRecord& kernel);

// The launch shape the profile recorded most often: the one that tuning starts from.
const LaunchShape& profiled_shape(const KernelRecord& kernel);

// The kernel re-cut into `candidate` for a problem of `problem_threads` threads (0: the profiled
// grid x block; another size scales every total of work with it): its launch shape and the
// counters that depend on it (warps launched, achieved
// occupancy scaled by the theoretical occupancy on `device`; global atomics issued once per
// block, as in a reduction, scaled by the blocks). Other totals of work stay as measured, or,
// with a `second` profiled configuration of the kernel, follow each block's work on the line
// through the two (two_configurations.hpp; second_configuration_problem() must accept it).
KernelRecord kernel_with_launch(const KernelRecord& kernel, const LaunchCandidate& candidate,
                                const DeviceProfile& device, double problem_threads = 0,
                                const KernelRecord* second = nullptr);

// Predicts each candidate (and the profiled configuration) on `device` with the pipes model and
// ranks them; the first `top` that can launch and be costed are marked worth measuring.
// `second`: as in kernel_with_launch. `terms`: the pipes model's (`tune --ablate`).
LaunchTuning tune_launch(const KernelRecord& kernel, const DeviceProfile& device,
                         const std::vector<LaunchCandidate>& candidates, double problem_threads = 0, int top = 5,
                         const KernelRecord* second = nullptr, const PipesTerms& terms = {});

}  // namespace roofcast
