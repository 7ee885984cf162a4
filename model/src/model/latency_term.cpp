#include "roofcast/model/latency_term.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "roofcast/model/block_refill.hpp"
#include "roofcast/model/loaded_latency.hpp"
#include "roofcast/model/occupancy.hpp"

namespace roofcast {

namespace {

constexpr double kWarpSize = 32;
constexpr double kSchedulersPerSm = 4;

// Stall reasons that are a warp waiting for its own work: its latencies. Every other reason
// (selected, not_selected, math_pipe_throttle, mio/lg/tex_throttle, dispatch_stall, misc...) is
// a warp waiting for a unit other warps also use: throughput, which the other costs model.
constexpr std::array<const char*, 5> kBranchFetchReasons{"branch_resolving", "no_instruction", "imc_miss", "drain",
                                                         "sleeping"};

double stall_cycles(const WarpWaits& waits, const char* reason) {
  const auto it = waits.stall_cycles.find(reason);
  return it == waits.stall_cycles.end() ? 0 : it->second;
}

double pipe_instructions(const KernelWork& work, const char* pipe) {
  const auto it = work.pipe_instructions.find(pipe);
  return it == work.pipe_instructions.end() ? 0 : it->second;
}

// Why the term cannot be computed for this kernel on this device, or no note.
Note missing_input(const KernelRecord& kernel, const KernelWork& work, const WarpWaits& waits,
                   const DeviceProfile& device, const DeviceRates& rates) {
  if (waits.warps_launched <= 0 || waits.stall_cycles.empty() || work.warp_instructions <= 0)
    return "no warps-launched or stall-reason counters in the profile: latency not modelled";
  if (rates.sm_clock_mhz <= 0 || rates.latency_l1_hit_ns <= 0 || rates.latency_l2_hit_ns <= 0 ||
      rates.latency_dram_ns <= 0)
    return "no SM clock or memory latencies (latency_l1_hit_ns, latency_l2_hit_ns, latency_dram_ns) on this device: "
           "latency not modelled";
  if (kernel.launch_shapes.empty() || device.sm_count <= 0 || !device.occupancy.known())
    return "no launch shape, SM count or occupancy limits: latency not modelled";
  return {};
}

// The unloaded latency of one global load for the kernel's L1/L2/DRAM hit mix (per sector).
double memory_latency_ns(const WarpWaits& waits, const DeviceRates& rates, std::vector<Note>& notes) {
  if (waits.l1_hit_share < 0 || waits.l2_hit_share < 0)
    notes.push_back("no L1/L2 hit counters: memory waits capped at the DRAM latency");
  const double l1 = std::max(waits.l1_hit_share, 0.0), l2 = std::max(waits.l2_hit_share, 0.0);
  const double mix = l1 * rates.latency_l1_hit_ns +
                     (1 - l1) * (l2 * rates.latency_l2_hit_ns + (1 - l2) * rates.latency_dram_ns);
  // A warp's load waits for the slowest of the lines it touches: from one line (the single-
  // thread chase) to 32 (every lane its own line: the warp chase), by the sectors per load.
  if (rates.latency_dram_warp_ns <= 0 || waits.sectors_per_global_load <= 1) return mix;
  const double spread = (std::min(waits.sectors_per_global_load, 32.0) - 1) / 31;
  return mix * (1 + spread * (rates.latency_dram_warp_ns / rates.latency_dram_ns - 1));
}

// Which dependency dominates the fixed-latency waits: the pipe whose instructions times its
// dependent-issue latency on the target is largest (by instructions where latencies are unknown).
std::string dependency_kind(const KernelWork& work, const DeviceRates& rates) {
  struct Candidate {
    const char* pipe;
    double latency_ns;
    const char* label;
  };
  const std::array<Candidate, 5> candidates{{{"fp64", rates.latency_dfma_ns, "fp64 dependency"},
                                             {"fma", rates.latency_ffma_ns, "fp32 dependency"},
                                             {"alu", rates.latency_imad_ns, "integer dependency"},
                                             {"fp16", rates.latency_hfma2_ns, "fp16 dependency"},
                                             {"xu", rates.latency_mufu_ns, "MUFU dependency"}}};
  std::string kind = "dependency";
  double best = 0;
  for (const auto& c : candidates) {
    const double weight = pipe_instructions(work, c.pipe) * (c.latency_ns > 0 ? c.latency_ns : 1);
    if (weight > best) {
      best = weight;
      kind = c.label;
    }
  }
  return kind;
}

// Per instruction, on the target: issue plus the latencies the warp waited for on the reference.
// Fixed latencies are SM cycles (same architecture: the same cycles at the target's clock);
// memory waits are capped by what the loads can expose unloaded (at high occupancy the
// long-scoreboard stalls also hold queueing under bandwidth load, which is throughput).
std::vector<LatencyPart> parts_per_instruction(const KernelWork& work, const WarpWaits& waits, const DeviceRates& rates,
                                               const LoadedLatency& loaded, std::vector<Note>& notes) {
  const double instructions = work.warp_instructions;
  const double target_ghz = rates.sm_clock_mhz * 1e-3;
  double reference_ghz = waits.reference_clock_mhz * 1e-3;
  if (reference_ghz <= 0) {
    reference_ghz = target_ghz;
    notes.push_back("no reference SM clock (sm__cycles_elapsed.avg.per_second): stall cycles at the target's clock");
  }
  auto cycles = [&](const char* reason) { return stall_cycles(waits, reason) / instructions; };

  const double issue_ns = rates.warp_issue_interval_ns > 0 ? rates.warp_issue_interval_ns : 1 / target_ghz;
  const double dependency_ns = cycles("wait") / target_ghz;

  double shared_ns = cycles("short_scoreboard") / target_ghz;
  if (rates.latency_shared_load_ns > 0 && rates.latency_mufu_ns > 0 && waits.shared_load_instructions >= 0)
    shared_ns = std::min(shared_ns, (waits.shared_load_instructions * rates.latency_shared_load_ns +
                                     pipe_instructions(work, "xu") * rates.latency_mufu_ns) /
                                        instructions);

  // At most one unloaded latency per load (each exposed wait waits for one load).
  double memory_ns = cycles("long_scoreboard") / reference_ghz;
  if (memory_ns > 0) {
    const double per_load_ns = loaded.ns > 0 ? loaded.ns : memory_latency_ns(waits, rates, notes);
    memory_ns = std::min(memory_ns, waits.memory_load_instructions / instructions * per_load_ns);
  }

  double branch_fetch_ns = 0;
  for (const char* reason : kBranchFetchReasons) branch_fetch_ns += cycles(reason) / target_ghz;

  // A warp at a barrier waits for its block's other warps: for their latencies, but also for
  // their throughput stalls. Only the latency share of that time is latency; that share is the
  // one of the warps' time outside barriers (in reference cycles).
  const double own_cycles =
      (issue_ns + dependency_ns + shared_ns + branch_fetch_ns) * target_ghz + memory_ns * reference_ghz + cycles("membar");
  double outside_barrier_cycles = stall_cycles(waits, "selected") > 0 ? 0 : 1;  // the issue cycle
  for (const auto& [reason, total] : waits.stall_cycles)
    if (reason != "barrier") outside_barrier_cycles += total / instructions;
  const double latency_share = outside_barrier_cycles > 0 ? std::min(1.0, own_cycles / outside_barrier_cycles) : 1;
  const double barrier_ns = cycles("barrier") * latency_share / target_ghz + cycles("membar") / reference_ghz;

  return {{"issue", issue_ns},       {"dependency", dependency_ns}, {"shared/MUFU", shared_ns},
          {"memory", memory_ns},     {"barrier", barrier_ns},       {"branch/fetch", branch_fetch_ns}};
}

std::string kind_of(const std::vector<LatencyPart>& parts, const KernelWork& work, const DeviceRates& rates) {
  const auto largest =
      std::max_element(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.ns < b.ns; });
  if (largest->name == "dependency") return dependency_kind(work, rates);
  if (largest->name == "issue") return "single-warp issue";
  return largest->name;
}

// The stall counts come from replay passes that start with a flushed L2 (the collector's cache
// control, like ncu's), so a kernel whose data stays in L2 between launches shows waits there
// that its timed run did not have. One warp's serial work cannot have taken longer than a launch
// did on the reference: where it would, the parts are scaled down to that (the `reference-time`
// term: it reads the reference's measured time, which a profile timed nowhere does not have).
void cap_by_reference_time(const KernelRecord& kernel, const DeviceRates& rates, const WarpWaits& waits,
                           LatencyTerm& t, std::vector<Note>& notes) {
  if (!kernel.measured_ms || kernel.invocations <= 0 || t.instructions_per_warp <= 0 || t.ns_per_instruction <= 0)
    return;
  const double reference_ghz = waits.reference_clock_mhz > 0 ? waits.reference_clock_mhz * 1e-3 : rates.sm_clock_mhz * 1e-3;
  const double target_ghz = rates.sm_clock_mhz * 1e-3;
  const double launch_ns = *kernel.measured_ms / kernel.invocations * 1e6;
  // The same cycles at the target's clock.
  const double most_ns = launch_ns / t.instructions_per_warp * reference_ghz / target_ghz;
  if (t.ns_per_instruction <= most_ns) return;
  const double scale = most_ns / t.ns_per_instruction;
  for (auto& part : t.parts) part.ns *= scale;
  t.uncapped_ns_per_instruction = t.ns_per_instruction;
  t.ns_per_instruction = most_ns;
  notes.push_back("latency capped by the time a launch took on the reference (stall counts from a replay with a "
                  "flushed L2)");
}

}  // namespace

LatencyTerm latency_term_of(const KernelRecord& kernel, const KernelWork& work, const WarpWaits& waits,
                            const DeviceProfile& device, const DeviceRates& rates, bool loaded_latency,
                            bool block_refill, bool reference_time) {
  LatencyTerm t;
  t.note = missing_input(kernel, work, waits, device, rates);
  if (!t.note.empty()) return t;

  // Waves of resident blocks on the busiest SM: it gets ceil(blocks / SMs) blocks and holds
  // blocks_per_sm of them at once.
  const double sms = device.sm_count;
  double waves = 0, refilled_waves = 0, launches = 0, tail_waves = 0, all_blocks = 0, tail_blocks = 0;
  const LaunchShape* most = nullptr;
  for (const auto& shape : kernel.launch_shapes) {
    const int blocks_per_sm = occupancy_of(shape, device.occupancy).blocks_per_sm;
    if (blocks_per_sm <= 0) {
      t.note = "a launch shape does not fit on an SM: latency not modelled";
      return t;
    }
    const auto n = static_cast<double>(std::max<int64_t>(shape.invocations, 1));
    const double shape_waves = std::ceil(std::ceil(shape.blocks() / sms) / blocks_per_sm);
    waves += n * shape_waves;
    // The blocks left over after the launch's full waves (each SM holding blocks_per_sm) run as
    // a partial wave of their own at the end.
    const double slots = sms * blocks_per_sm;
    const double left_over = shape.blocks() - std::floor(shape.blocks() / slots) * slots;
    if (shape.blocks() > slots && left_over > 0) {
      tail_waves += n;
      tail_blocks += n * left_over;
    }
    all_blocks += n * shape.blocks();
    const double busy = steady_busy_slot_share(shape, device);
    refilled_waves += n * (busy > 0 ? shape_waves / busy : shape_waves);
    launches += n;
    if (!most || shape.invocations > most->invocations) most = &shape;
  }

  const double blocks_on_busiest = std::min(std::ceil(most->blocks() / sms),
                                            double(occupancy_of(*most, device.occupancy).blocks_per_sm));
  const double resident_warps_per_sm = blocks_on_busiest * most->warps_per_block();

  std::vector<Note> notes;
  LoadedLatency loaded;
  if (loaded_latency) {
    // A launch that fits on the target at once: its warps' serial chains are the kernel's time.
    LaunchLoad launch;
    launch.one_wave = std::all_of(kernel.launch_shapes.begin(), kernel.launch_shapes.end(), [&](const LaunchShape& s) {
      return s.blocks() <= sms * occupancy_of(s, device.occupancy).blocks_per_sm;
    });
    launch.busy_sms = std::min(sms, most->blocks());
    loaded = loaded_load_latency(waits, rates, sms, resident_warps_per_sm, launch);
    if (loaded.ns <= 0) notes.push_back("no L2 bandwidth or hit counters: loaded load latency not modelled");
    t.loaded_load_ns = loaded.ns;
  }
  t.parts = parts_per_instruction(work, waits, rates, loaded, notes);
  for (const auto& part : t.parts) t.ns_per_instruction += part.ns;
  t.instructions_per_warp = work.warp_instructions / waits.warps_launched;
  if (reference_time) cap_by_reference_time(kernel, rates, waits, t, notes);
  t.kind = kind_of(t.parts, work, rates);
  // Warps that wait mostly for memory finish in the order it serves them, so over several waves
  // the slots of a block's early warps stay empty until its last one exits (block_refill.hpp):
  // the waves take longer by the inverse of the busy share. Warps that wait for their own
  // arithmetic finish together.
  if (block_refill && t.kind == "memory" && refilled_waves > waves) {
    notes.push_back(fmt::format("block refill: the waves take {:.3f}x as long (slots waiting for their block's "
                                "last warp)", refilled_waves / waves));
    waves = refilled_waves;
  }
  t.waves = waves / launches;
  t.ms = waves * t.instructions_per_warp * t.ns_per_instruction * 1e-6;
  t.tail_ms = std::min(t.ms, tail_waves * t.instructions_per_warp * t.ns_per_instruction * 1e-6);
  t.tail_block_share = all_blocks > 0 ? tail_blocks / all_blocks : 0;

  t.resident_warps_per_scheduler = std::ceil(resident_warps_per_sm / kSchedulersPerSm);
  t.warps_to_hide_latency = t.ns_per_instruction / t.parts.front().ns;
  t.modelled = true;
  if (notes.size() == 1) {
    t.note = std::move(notes.front());  // a literal stays one: no text made
  } else if (notes.size() > 1) {
    std::string joined;
    for (size_t i = 0; i < notes.size(); ++i) {
      if (i > 0) joined += "; ";
      joined += notes[i].text();
    }
    t.note = std::move(joined);
  }
  return t;
}

}  // namespace roofcast
