#include "roofcast/model/launch_tuning.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "roofcast/model/atomic_costs.hpp"
#include "roofcast/model/block_refill.hpp"
#include "roofcast/model/counter_names.hpp"
#include "roofcast/model/two_configurations.hpp"

namespace roofcast {

namespace {

constexpr double kWarpSize = 32;
// CUDA's limit on threads per block on every architecture since Fermi.
constexpr double kMaxThreadsPerBlock = 1024;
constexpr const char* kWarpsLaunched = "sm__warps_launched.sum";
// Warp stall reasons that a tile kernel's warp has once per tile step (--fixed-tile).
constexpr const char* kPerTileStepStalls[] = {"smsp__warps_issue_stalled_long_scoreboard.sum",
                                              "smsp__warps_issue_stalled_barrier.sum",
                                              "smsp__warps_issue_stalled_membar.sum"};
constexpr const char* kAchievedOccupancy = "sm__warps_active.avg.pct_of_peak_sustained_active";
// Counters of global atomics: the instructions, their L1 and L2 requests and sectors, and the
// busiest L2 slice's atomic cycles.
constexpr const char* kGlobalAtomicCounters[] = {
    "smsp__sass_inst_executed_op_global_atom.sum", "smsp__sass_inst_executed_op_global_red.sum",
    "smsp__inst_executed_op_global_atom.sum",      "smsp__inst_executed_op_global_red.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
    "lts__t_requests_srcunit_tex_op_atom.sum",     "lts__t_requests_srcunit_tex_op_red.sum",
    "lts__t_sectors_srcunit_tex_op_atom.sum",      "lts__t_sectors_srcunit_tex_op_red.sum",
    "lts__d_atomic_input_cycles_active.max"};

// Resident warps over the SM's warp slots, with as many blocks as the grid gives the busiest SM.
double occupancy_share(const LaunchShape& shape, const Occupancy& occupancy, const DeviceProfile& device) {
  if (occupancy.blocks_per_sm <= 0 || device.occupancy.max_threads_per_sm <= 0) return 0;
  double blocks = occupancy.blocks_per_sm;
  if (device.sm_count > 0) blocks = std::min(blocks, std::ceil(shape.blocks() / device.sm_count));
  return std::min(1.0, blocks * shape.warps_per_block() * kWarpSize / device.occupancy.max_threads_per_sm);
}

// Warps one launch of the profile starts, the mean over its launch shapes.
double profiled_warps_per_launch(const KernelRecord& kernel) {
  double warps = 0, launches = 0;
  for (const auto& shape : kernel.launch_shapes) {
    const auto n = static_cast<double>(std::max<int64_t>(shape.invocations, 1));
    warps += n * shape.blocks() * shape.warps_per_block();
    launches += n;
  }
  return launches > 0 ? warps / launches : 0;
}

double counter(const std::map<std::string, double>& extra, const char* name) {
  const auto it = extra.find(name);
  return it == extra.end() ? 0 : it->second;
}

// Blocks one launch of the profile starts, the mean over its launch shapes.
double profiled_blocks_per_launch(const KernelRecord& kernel) {
  double blocks = 0, launches = 0;
  for (const auto& shape : kernel.launch_shapes) {
    const auto n = static_cast<double>(std::max<int64_t>(shape.invocations, 1));
    blocks += n * shape.blocks();
    launches += n;
  }
  return launches > 0 ? blocks / launches : 0;
}

// True when the kernel's global atomic warp instructions are a small whole number per block
// (one thread of each block adds the block's result): they follow the number of blocks.
bool atomics_per_block(const KernelRecord& kernel, const KernelCounters& counters) {
  const double atomics = counter(counters.extra, "smsp__sass_inst_executed_op_global_atom.sum") +
                         counter(counters.extra, "smsp__sass_inst_executed_op_global_red.sum");
  const double blocks = profiled_blocks_per_launch(kernel) * static_cast<double>(std::max<int64_t>(kernel.invocations, 1));
  if (atomics <= 0 || blocks <= 0) return false;
  const double per_block = atomics / blocks;
  return per_block >= 0.99 && per_block <= 8.01 && std::abs(per_block - std::round(per_block)) < 0.01;
}

LaunchCandidate profiled_candidate(const LaunchShape& shape) {
  LaunchCandidate c;
  c.block = shape.block;
  return c;
}

// The same launch for the model, which reads a grid's number of blocks, not its shape: a
// candidate's 1-D grid of as many blocks as a profiled 2-D grid is that launch.
bool same_launch(const LaunchShape& a, const LaunchShape& b) {
  return a.blocks() == b.blocks() && a.block == b.block && a.registers_per_thread == b.registers_per_thread &&
         a.shared_bytes_per_block() == b.shared_bytes_per_block();
}

TunedLaunch tuned(const KernelRecord& kernel, const LaunchCandidate& candidate, const DeviceProfile& device,
                  double problem_threads, const KernelRecord* second, const PipesTerms& terms) {
  TunedLaunch t;
  t.candidate = candidate;
  const KernelRecord recut = kernel_with_launch(kernel, candidate, device, problem_threads, second);
  t.shape = recut.launch_shapes.front();
  const double threads = t.shape.threads_per_block();
  if (candidate.grid_blocks_per_sm > 0 && device.sm_count > 0)
    t.candidate.work_per_thread = problem_threads / (t.shape.blocks() * threads);
  if (!(candidate.work_per_thread > 0) || !std::isfinite(candidate.work_per_thread)) {
    t.problem = "work per thread must be > 0";
    return t;
  }
  if (threads < 1 || threads > kMaxThreadsPerBlock) {
    t.problem = fmt::format("{:.0f} threads per block: CUDA allows 1 to 1024", threads);
    return t;
  }
  t.occupancy = occupancy_of(t.shape, device.occupancy);
  if (device.occupancy.known() && t.occupancy.blocks_per_sm <= 0) {
    t.problem = "a block does not fit on an SM (" + t.occupancy.limiter + ")";
    return t;
  }
  t.occupancy_share = occupancy_share(t.shape, t.occupancy, device);
  const double blocks = t.shape.blocks();
  if (device.sm_count > 0) {
    const double per_sm = blocks / device.sm_count;
    const double busiest = std::ceil(per_sm), slots = t.occupancy.blocks_per_sm;
    if (slots > 0) t.waves = per_sm / slots;
    // Within one wave the idle time is the SMs with a block fewer; over several, the empty
    // slots of the busiest SM's last wave.
    const double busiest_slots = slots > 0 && busiest > slots ? std::ceil(busiest / slots) * slots : busiest;
    t.tail_idle_share = 1 - per_sm / busiest_slots;
  }
  if (second) t.cannot_cost = line_work_problem(kernel, *second, t.shape);
  if (!t.cannot_cost.empty()) return t;
  t.prediction = predict_pipes(recut, device, terms);
  t.per_launch_ms = t.prediction.predicted_ms / static_cast<double>(std::max<int64_t>(recut.invocations, 1));
  return t;
}

}  // namespace

std::vector<LaunchCandidate> candidate_space(const std::vector<std::array<double, 3>>& blocks,
                                             const std::vector<int>& registers,
                                             const std::vector<double>& shared_bytes,
                                             const std::vector<double>& work_per_thread,
                                             const std::vector<double>& grid_blocks_per_sm) {
  const std::vector<int> regs = registers.empty() ? std::vector<int>{0} : registers;
  std::vector<std::optional<double>> shared;
  for (double s : shared_bytes) shared.emplace_back(s);
  if (shared.empty()) shared.emplace_back(std::nullopt);
  const std::vector<double> works = work_per_thread.empty() ? std::vector<double>{1} : work_per_thread;
  std::vector<LaunchCandidate> out;
  for (const auto& block : blocks)
    for (int r : regs)
      for (const auto& s : shared) {
        for (double w : works) out.push_back({block, r, s, w, 0});
        for (double g : grid_blocks_per_sm) out.push_back({block, r, s, 1, g});
      }
  return out;
}

std::vector<LaunchCandidate> fixed_tile_candidates(const KernelRecord& kernel,
                                                   const std::vector<std::array<double, 3>>& blocks,
                                                   const std::vector<int>& registers,
                                                   const std::vector<double>& shared_bytes) {
  const LaunchShape& profiled = profiled_shape(kernel);
  const std::vector<double> tile_shared =
      shared_bytes.empty() ? std::vector<double>{profiled.shared_bytes_per_block()} : shared_bytes;
  std::vector<LaunchCandidate> out;
  for (const auto& candidate : candidate_space(blocks, registers, tile_shared, {1})) {
    LaunchCandidate c = candidate;
    c.work_per_thread = profiled.threads_per_block() / c.threads_per_block();
    c.fixed_tile = true;
    out.push_back(c);
  }
  return out;
}

std::string tuning_problem(const KernelRecord& kernel) {
  if (kernel.launch_shapes.empty()) return "the profile records no launch shape for it: nothing to re-cut";
  if (!std::holds_alternative<KernelCounters>(kernel.description))
    return "it is described by published parameters, not counters: tuning needs a profile from `roofcast profile`";
  return "";
}

const LaunchShape& profiled_shape(const KernelRecord& kernel) {
  const LaunchShape* most = &kernel.launch_shapes.front();
  for (const auto& shape : kernel.launch_shapes)
    if (shape.invocations > most->invocations) most = &shape;
  return *most;
}

KernelRecord kernel_with_launch(const KernelRecord& kernel, const LaunchCandidate& candidate,
                                const DeviceProfile& device, double problem_threads, const KernelRecord* second) {
  const LaunchShape& reference = profiled_shape(kernel);
  const double profiled_threads = reference.blocks() * reference.threads_per_block();
  if (problem_threads <= 0) problem_threads = profiled_threads;
  // A larger or smaller problem at the same per-thread work: every total scales with it.
  const double work_scale = profiled_threads > 0 ? problem_threads / profiled_threads : 1;
  LaunchShape shape;
  shape.block = candidate.block;
  const double threads = std::max(1.0, candidate.threads_per_block());
  const double work = candidate.work_per_thread > 0 ? candidate.work_per_thread : 1;
  shape.grid = {std::max(1.0, std::ceil(problem_threads / work / threads)), 1, 1};
  if (candidate.grid_blocks_per_sm > 0 && device.sm_count > 0)
    shape.grid = {std::max(1.0, std::round(candidate.grid_blocks_per_sm * device.sm_count)), 1, 1};
  shape.invocations = std::max<int64_t>(kernel.invocations, 1);
  shape.registers_per_thread =
      candidate.registers_per_thread > 0 ? candidate.registers_per_thread : reference.registers_per_thread;
  shape.dynamic_shared_bytes = candidate.shared_bytes
                                   ? *candidate.shared_bytes
                                   : reference.shared_bytes_per_block() / reference.threads_per_block() * threads;

  KernelRecord out = kernel;
  out.measured_ms_by_device.clear();
  const bool unchanged = kernel.launch_shapes.size() == 1 && same_launch(shape, reference) && work_scale == 1;
  out.launch_shapes = {shape};
  auto* counters = std::get_if<KernelCounters>(&out.description);
  if (!counters || unchanged) return out;
  // The reference's time per atomic request is the profiled launch's: the re-cut's totals (its
  // atomics per launch, its measured time kept per instruction, below) no longer give it.
  out.reference_ns_per_atomic_request = one_word_reference_of(kernel, kernel_work_of(kernel)).ns_per_request;
  // The achieved occupancy below follows the theoretical one; the empty slots of blocks waiting
  // for their last warp stay the profiled launch's, for the pipes model to re-cut.
  out.profiled_busy_slot_share = profiled_busy_slot_share(kernel, device);

  if (work_scale != 1) {
    for (auto total : thesis_counter_totals()) counters->thesis.*total *= work_scale;
    for (auto& [name, value] : counters->extra)
      if (is_total_counter(name)) value *= work_scale;
  }

  // Warps launched and each warp's share of the work follow the number of warps.
  const double reference_warps = profiled_warps_per_launch(kernel);
  const double warp_ratio = reference_warps > 0 ? shape.blocks() * shape.warps_per_block() / reference_warps : 1;
  const auto& measured = std::get<KernelCounters>(kernel.description).extra;
  if (auto it = counters->extra.find(kWarpsLaunched); it != counters->extra.end())
    it->second = counter(measured, kWarpsLaunched) * warp_ratio;
  // A fixed tile: a thread's share of each tile step's work changes with its block, but not
  // the steps. Each warp still loads its part of every step's tile (one wait for memory) and
  // meets every barrier, so those waits stay per warp: their totals follow the warps, while the
  // other waits stay with the instructions.
  if (candidate.fixed_tile)
    for (const char* name : kPerTileStepStalls)
      if (auto it = counters->extra.find(name); it != counters->extra.end()) it->second *= warp_ratio;
  if (atomics_per_block(kernel, std::get<KernelCounters>(kernel.description))) {
    const double block_ratio = shape.blocks() / profiled_blocks_per_launch(kernel);
    for (const char* name : kGlobalAtomicCounters)
      if (auto it = counters->extra.find(name); it != counters->extra.end()) it->second = counter(measured, name) * block_ratio;
  }
  // The latency term caps a warp's serial time by a launch's measured time: keep that cap per
  // instruction (each warp now runs work_scale / warp_ratio times the instructions).
  if (out.measured_ms && warp_ratio > 0) *out.measured_ms *= work_scale / warp_ratio;
  // Achieved occupancy follows the theoretical occupancy.
  if (auto it = counters->extra.find(kAchievedOccupancy); it != counters->extra.end()) {
    const double before = occupancy_share(reference, occupancy_of(reference, device.occupancy), device);
    const double after = occupancy_share(shape, occupancy_of(shape, device.occupancy), device);
    if (before > 0 && after > 0) it->second = std::min(100.0, it->second * after / before);
  }
  // A second profiled configuration: each block's work follows the line through the two.
  if (second) {
    const double work_per_block = candidate.fixed_tile ? 1 : problem_threads / (shape.blocks() * threads);
    interpolate_work(kernel, *second, shape, work_per_block, out);
  }
  return out;
}

LaunchTuning tune_launch(const KernelRecord& kernel, const DeviceProfile& device,
                         const std::vector<LaunchCandidate>& candidates, double problem_threads, int top,
                         const KernelRecord* second, const PipesTerms& terms) {
  const LaunchShape& reference = profiled_shape(kernel);
  LaunchTuning tuning;
  tuning.device = device.name;
  tuning.problem_threads = problem_threads > 0 ? problem_threads : reference.blocks() * reference.threads_per_block();

  TunedLaunch profiled = tuned(kernel, profiled_candidate(reference), device, tuning.problem_threads, second, terms);
  profiled.profiled = true;
  tuning.ranked.push_back(profiled);
  for (const auto& candidate : candidates) {
    TunedLaunch t = tuned(kernel, candidate, device, tuning.problem_threads, second, terms);
    const bool duplicate = std::any_of(tuning.ranked.begin(), tuning.ranked.end(), [&](const TunedLaunch& other) {
      return same_launch(other.shape, t.shape) && other.candidate.work_per_thread == t.candidate.work_per_thread;
    });
    if (!duplicate) tuning.ranked.push_back(std::move(t));
  }
  // Predicted first, fastest first; then those that cannot be costed; then those that cannot launch.
  const auto group = [](const TunedLaunch& t) { return !t.problem.empty() ? 2 : !t.cannot_cost.empty() ? 1 : 0; };
  std::stable_sort(tuning.ranked.begin(), tuning.ranked.end(), [&](const TunedLaunch& a, const TunedLaunch& b) {
    if (group(a) != group(b)) return group(a) < group(b);
    return group(a) == 0 && a.prediction.predicted_ms < b.prediction.predicted_ms;
  });
  for (const auto& t : tuning.ranked)
    if (group(t) == 0)
      t.prediction.for_each_note([&](std::string_view note) {
        if (note.starts_with("no ") && std::find(tuning.not_modelled.begin(), tuning.not_modelled.end(), note) ==
                                           tuning.not_modelled.end())
          tuning.not_modelled.emplace_back(note);
      });
  const double profiled_ms = group(profiled) == 0 ? profiled.prediction.predicted_ms : 0;
  int marked = 0;
  for (auto& t : tuning.ranked) {
    if (group(t) != 0) continue;
    if (profiled_ms > 0 && t.prediction.predicted_ms > 0) t.speedup = profiled_ms / t.prediction.predicted_ms;
    if (marked < top) {
      t.worth_measuring = true;
      ++marked;
    }
  }
  return tuning;
}

}  // namespace roofcast
