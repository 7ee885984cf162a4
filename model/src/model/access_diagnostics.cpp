#include "roofcast/model/access_diagnostics.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "roofcast/model/launch_tuning.hpp"
#include "roofcast/model/occupancy.hpp"
#include "roofcast/model/pipes_prediction.hpp"

namespace roofcast {

namespace {

constexpr double kWarpSize = 32;
constexpr double kSectorBytes = 32;
// Observed over ideal beyond which a diagnostic applies: below it the difference is within
// what partial warps and the counters' own rounding give.
constexpr double kWorseThanIdeal = 1.2;

using Counters = std::map<std::string, double>;

constexpr const char* kGlobalLoads = "smsp__inst_executed_op_global_ld.sum";
constexpr const char* kL1Hit = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum";
constexpr const char* kL1Miss = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum";
constexpr const char* kThreadInstructions = "smsp__thread_inst_executed.sum";
constexpr const char* kSharedLoads = "smsp__inst_executed_op_shared_ld.sum";
constexpr const char* kSharedStores = "smsp__inst_executed_op_shared_st.sum";
constexpr const char* kSharedLoadWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum";
constexpr const char* kSharedStoreWavefronts = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum";
constexpr const char* kSharedLoadConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum";
constexpr const char* kSharedStoreConflicts = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum";
constexpr std::array<std::pair<const char*, double>, 5> kWidthCounters{{
    {"smsp__sass_inst_executed_op_memory_8b.sum", 1},
    {"smsp__sass_inst_executed_op_memory_16b.sum", 2},
    {"smsp__sass_inst_executed_op_memory_32b.sum", 4},
    {"smsp__sass_inst_executed_op_memory_64b.sum", 8},
    {"smsp__sass_inst_executed_op_memory_128b.sum", 16},
}};

double get(const Counters& c, const std::string& name) {
  const auto it = c.find(name);
  return it == c.end() ? 0 : it->second;
}

bool has_all(const Counters& c, std::initializer_list<const char*> names) {
  return std::all_of(names.begin(), names.end(), [&](const char* n) { return c.contains(n); });
}

void scale(Counters& c, const std::string& name, double factor) {
  if (auto it = c.find(name); it != c.end()) it->second *= factor;
}

double predicted(const KernelRecord& kernel, const DeviceProfile& device, const PipesTerms& terms) {
  return predict_pipes(kernel, device, terms).predicted_ms;
}

// Active threads per executed warp instruction over 32 (1: no divergence); 0 when not recorded.
double thread_efficiency(const KernelCounters& k) {
  const double threads = get(k.extra, kThreadInstructions);
  return threads > 0 && k.thesis.inst_executed > 0 ? std::min(1.0, threads / (kWarpSize * k.thesis.inst_executed)) : 0;
}

Diagnostic not_measured(const char* name, const char* needs) {
  Diagnostic d;
  d.name = name;
  d.finding = fmt::format("not measured (the profile lacks {})", needs);
  return d;
}

Diagnostic uncoalesced_loads(const KernelRecord& kernel, const KernelCounters& k, const DeviceProfile& device,
                             const PipesTerms& terms, double now_ms) {
  const char* name = "uncoalesced global loads";
  double width_instructions = 0, width_bytes = 0;
  for (const auto& [counter, bytes] : kWidthCounters) {
    width_instructions += get(k.extra, counter);
    width_bytes += bytes * get(k.extra, counter);
  }
  if (!has_all(k.extra, {kGlobalLoads, kL1Hit, kL1Miss}) || width_instructions <= 0)
    return not_measured(name, "global-load sector and access-width counters");
  Diagnostic d;
  d.name = name;
  d.measured = true;
  d.predicted_ms = now_ms;
  const double loads = get(k.extra, kGlobalLoads);
  const double sectors = get(k.extra, kL1Hit) + get(k.extra, kL1Miss);
  if (loads <= 0) {
    d.finding = "no global loads";
    return d;
  }
  // A full warp's request touches 32 x the access width, in 32-byte sectors. (The collector
  // does not count active lanes per load: the divergence of other instructions says nothing
  // about them, and a partial warp's load touches fewer sectors, so it is never flagged.)
  const double width = width_bytes / width_instructions;  // mean over all memory instructions
  d.observed = sectors / loads;
  d.ideal = std::max(1.0, kWarpSize * width / kSectorBytes);
  d.applies = d.observed > kWorseThanIdeal * d.ideal;
  d.finding = fmt::format("{:.1f} sectors per global load request; ideal {:.1f} for {:.1f}-byte accesses by a full warp",
                          d.observed, d.ideal, width);
  if (!d.applies) return d;

  // Coalesced: the same loads touch the ideal sectors; L1 misses, the L2 reads they cause and
  // the DRAM reads (at most what reaches L2) shrink with them.
  const double keep = d.ideal / d.observed;
  KernelRecord fixed = kernel;
  auto& fc = std::get<KernelCounters>(fixed.description);
  const double dropped_misses = get(fc.extra, kL1Miss) * (1 - keep);
  scale(fc.extra, kL1Hit, keep);
  scale(fc.extra, kL1Miss, keep);
  if (auto it = fc.extra.find("l1tex__t_bytes.sum"); it != fc.extra.end())
    it->second = std::max(0.0, it->second - sectors * (1 - keep) * kSectorBytes);
  double l2_reads = get(fc.extra, "lts__t_sectors_srcunit_tex_op_read.sum");
  if (l2_reads > 0) {
    const double after = std::max(0.0, l2_reads - dropped_misses);
    for (const char* c : {"lts__t_sectors_srcunit_tex_lookup_hit.sum", "lts__t_sectors_srcunit_tex_lookup_miss.sum"})
      scale(fc.extra, c, after / l2_reads);
    fc.extra["lts__t_sectors_srcunit_tex_op_read.sum"] = after;
    fc.thesis.dram_read_transactions = std::min(fc.thesis.dram_read_transactions, after);
  } else {
    fc.thesis.dram_read_transactions *= keep;
  }
  d.fixed_ms = predicted(fixed, device, terms);
  return d;
}

Diagnostic divergence(const KernelRecord& kernel, const KernelCounters& k, const DeviceProfile& device,
                      const PipesTerms& terms, double now_ms) {
  const char* name = "warp divergence";
  const double efficiency = thread_efficiency(k);
  if (efficiency <= 0) return not_measured(name, kThreadInstructions);
  Diagnostic d;
  d.name = name;
  d.measured = true;
  d.predicted_ms = now_ms;
  d.observed = kWarpSize * efficiency;
  d.ideal = kWarpSize;
  d.applies = d.ideal > kWorseThanIdeal * d.observed;
  d.finding = fmt::format("{:.1f} active threads per executed warp instruction (of 32)", d.observed);
  if (!d.applies) return d;
  // Uniform: the same thread instructions in full warps. Warp instructions, their pipes and the
  // cycles warps stalled shrink; memory requests (and their sectors) stay.
  KernelRecord fixed = kernel;
  auto& fc = std::get<KernelCounters>(fixed.description);
  fc.thesis.inst_executed *= efficiency;
  for (auto& [counter, value] : fc.extra)
    if ((counter.starts_with("smsp__inst_executed_pipe_") && !counter.starts_with("smsp__inst_executed_pipe_lsu")) ||
        counter.starts_with("smsp__warps_issue_stalled_"))
      value *= efficiency;
  d.fixed_ms = predicted(fixed, device, terms);
  return d;
}

Diagnostic bank_conflicts(const KernelRecord& kernel, const KernelCounters& k, const DeviceProfile& device,
                          const PipesTerms& terms, double now_ms) {
  const char* name = "shared-memory bank conflicts";
  if (!has_all(k.extra, {kSharedLoads, kSharedStores, kSharedLoadWavefronts, kSharedStoreWavefronts,
                         kSharedLoadConflicts, kSharedStoreConflicts}))
    return not_measured(name, "shared-memory wavefront and bank-conflict counters");
  Diagnostic d;
  d.name = name;
  d.measured = true;
  d.predicted_ms = now_ms;
  const double requests = get(k.extra, kSharedLoads) + get(k.extra, kSharedStores);
  const double wavefronts = get(k.extra, kSharedLoadWavefronts) + get(k.extra, kSharedStoreWavefronts);
  const double conflicts = get(k.extra, kSharedLoadConflicts) + get(k.extra, kSharedStoreConflicts);
  if (requests <= 0 || wavefronts <= 0) {
    d.finding = "no shared-memory accesses";
    return d;
  }
  d.observed = wavefronts / requests;
  d.ideal = std::max(1.0, std::min(d.observed, (wavefronts - std::min(conflicts, wavefronts)) / requests));
  d.applies = d.observed > kWorseThanIdeal * d.ideal;
  d.finding = fmt::format("{:.2f} wavefronts per shared-memory request; {:.2f} without bank conflicts", d.observed,
                          d.ideal);
  if (!d.applies) return d;
  const double keep = d.ideal / d.observed;
  KernelRecord fixed = kernel;
  auto& fc = std::get<KernelCounters>(fixed.description);
  scale(fc.extra, kSharedLoadWavefronts, keep);
  scale(fc.extra, kSharedStoreWavefronts, keep);
  // Waits for shared-memory results shrink with the wavefronts.
  scale(fc.extra, "smsp__warps_issue_stalled_short_scoreboard.sum", keep);
  scale(fc.extra, "smsp__warps_issue_stalled_mio_throttle.sum", keep);
  d.fixed_ms = predicted(fixed, device, terms);
  return d;
}

// The launch that lifts the limiter: registers or shared memory down to what a full SM of this
// block size allows, or a block of max threads / max blocks threads.
std::optional<LaunchCandidate> lifting_candidate(const LaunchShape& shape, const Occupancy& occupancy,
                                                 const OccupancyLimits& limits) {
  LaunchCandidate c;
  c.block = shape.block;
  const double threads = shape.threads_per_block();
  const double blocks_at_full = std::floor(limits.max_threads_per_sm / (std::ceil(threads / kWarpSize) * kWarpSize));
  if (occupancy.limiter == "registers") {
    c.registers_per_thread = static_cast<int>(std::floor(limits.registers_per_sm / limits.max_threads_per_sm));
  } else if (occupancy.limiter == "shared memory") {
    if (blocks_at_full <= 0) return std::nullopt;
    const double unit = limits.shared_allocation_unit > 0 ? limits.shared_allocation_unit : 1;
    c.shared_bytes = std::max(0.0, std::floor(limits.shared_bytes_per_sm / blocks_at_full / unit) * unit -
                                       limits.reserved_shared_bytes_per_block);
  } else if (occupancy.limiter == "blocks") {
    c.block = {std::ceil(limits.max_threads_per_sm / limits.max_blocks_per_sm / kWarpSize) * kWarpSize, 1, 1};
  } else {
    return std::nullopt;
  }
  return c;
}

Diagnostic occupancy_limiter(const KernelRecord& kernel, const DeviceProfile& device, const PipesTerms& terms,
                             double now_ms) {
  const char* name = "occupancy limiter";
  if (kernel.launch_shapes.empty() || !device.occupancy.known())
    return not_measured(name, "a launch shape, or the device its occupancy limits");
  Diagnostic d;
  d.name = name;
  d.measured = true;
  d.predicted_ms = now_ms;
  const LaunchShape& shape = profiled_shape(kernel);
  const Occupancy occupancy = occupancy_of(shape, device.occupancy);
  const double warps = shape.warps_per_block();
  d.observed = occupancy.blocks_per_sm * warps * kWarpSize / device.occupancy.max_threads_per_sm;
  d.ideal = 1;
  if (occupancy.blocks_per_sm <= 0) {
    d.finding = "a block does not fit on an SM (" + occupancy.limiter + ")";
    return d;
  }
  d.finding = fmt::format("{} blocks of {:.0f} threads per SM: {:.0f} % of the warp slots, limited by {}",
                          occupancy.blocks_per_sm, shape.threads_per_block(), 100 * d.observed, occupancy.limiter);
  const auto lift = lifting_candidate(shape, occupancy, device.occupancy);
  d.applies = lift && d.observed < 1 / kWorseThanIdeal;
  if (!d.applies) return d;
  const KernelRecord fixed = kernel_with_launch(kernel, *lift, device);
  d.fixed_ms = predicted(fixed, device, terms);
  const LaunchShape& f = fixed.launch_shapes.front();
  d.finding += fmt::format("; fixed: {:.0f} threads, {} registers, {:.0f} shared bytes per block", f.threads_per_block(),
                           f.registers_per_thread, f.shared_bytes_per_block());
  return d;
}

Diagnostic tail_effect(const KernelRecord& kernel, const DeviceProfile& device, const PipesTerms& terms, double now_ms) {
  const char* name = "tail effect";
  if (kernel.launch_shapes.empty() || !device.occupancy.known() || device.sm_count <= 0)
    return not_measured(name, "a launch shape, or the device its SM count and occupancy limits");
  Diagnostic d;
  d.name = name;
  d.measured = true;
  d.predicted_ms = now_ms;
  const LaunchShape& shape = profiled_shape(kernel);
  const int per_sm = occupancy_of(shape, device.occupancy).blocks_per_sm;
  if (per_sm <= 0) {
    d.finding = "a block does not fit on an SM";
    return d;
  }
  const double slots = double(per_sm) * device.sm_count;
  const double waves = shape.blocks() / slots;
  d.observed = waves;
  d.ideal = std::max(1.0, std::floor(waves));
  const double last = waves - std::floor(waves);
  d.finding = waves < 1 ? fmt::format("{:.0f} blocks fill {:.0f} % of the GPU's {:.0f} block slots (one partial wave)",
                                      shape.blocks(), 100 * waves, slots)
                        : fmt::format("{:.2f} waves of {:.0f} blocks: the last one {:.0f} % full", waves, slots,
                                      100 * (last > 0 ? last : 1));
  // A partial last wave matters when it makes the waves the SMs run noticeably more than the
  // work needs: 2 for 1.1 waves, but 125 for 124.1.
  d.applies = waves > 1 && last > 0 && std::ceil(waves) / waves > kWorseThanIdeal;
  if (!d.applies) return d;
  // The last wave's blocks spread over the full waves (each thread does a little more).
  LaunchCandidate c;
  c.block = shape.block;
  c.work_per_thread = shape.blocks() / (d.ideal * slots);
  d.fixed_ms = predicted(kernel_with_launch(kernel, c, device), device, terms);
  d.finding += fmt::format("; fixed: {:.0f} full waves, each thread {:.2f}x the work", d.ideal, c.work_per_thread);
  return d;
}

}  // namespace

std::vector<Diagnostic> diagnose(const KernelRecord& kernel, const DeviceProfile& device, const PipesTerms& terms) {
  const auto* counters = std::get_if<KernelCounters>(&kernel.description);
  if (!counters) return {};
  const double now_ms = predicted(kernel, device, terms);
  return {uncoalesced_loads(kernel, *counters, device, terms, now_ms),
          divergence(kernel, *counters, device, terms, now_ms), bank_conflicts(kernel, *counters, device, terms, now_ms),
          occupancy_limiter(kernel, device, terms, now_ms), tail_effect(kernel, device, terms, now_ms)};
}

}  // namespace roofcast
