#include "roofcast/model/pipes_prediction.hpp"
#include "roofcast/model/prediction_checks.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

#include "roofcast/model/atomic_costs.hpp"
#include "roofcast/model/block_refill.hpp"
#include "roofcast/model/device_rates.hpp"
#include "roofcast/model/memory_parallelism.hpp"
#include "roofcast/model/occupancy.hpp"

namespace roofcast {

namespace {

constexpr double kWarpSize = 32;

// Giga-things at giga-things per second, in milliseconds.
double ms_of(double amount, double giga_per_second) { return amount / (giga_per_second * 1e9) * 1e3; }

double cost_named(const std::vector<PipesCost>& costs, std::string_view name) {
  for (const auto& c : costs)
    if (c.name == name) return c.ms;
  return 0;
}

// The DRAM bandwidth bound and the latency (parallelism) bound meet in a knee, not a corner:
// near the bandwidth limit latency grows with load. A soft maximum, sqrt(a^2 + b^2), is that
// knee (docs/pipes-model.md compares it with max and sum).
double soft_max(double a, double b) { return std::hypot(a, b); }

const PipesCost* largest(const std::vector<PipesCost>& costs) {
  const PipesCost* best = nullptr;
  for (const auto& c : costs)
    if (!best || c.ms > best->ms) best = &c;
  return best;
}

void add_global_atomics_cost(const KernelRecord& kernel, const KernelWork& work, const DeviceRates& rates,
                             const PipesTerms& terms, PipesPrediction& p) {
  const bool read_reference = terms.one_word_type && terms.reference_time;
  const GlobalAtomicsCost cost = global_atomics_cost(
      work, rates, read_reference ? one_word_reference_of(kernel, work) : OneWordReference{}, terms.one_word_lanes);
  if (cost.name.empty()) return;
  if (cost.one_word_from_reference && cost.one_word_ns_per_request != cost.one_word_integer_ns) {
    p.reference_time.one_word_ns = cost.one_word_ns_per_request;
    p.reference_time.one_word_integer_ns = cost.one_word_integer_ns;
  }
  p.notes.insert(p.notes.end(), cost.notes.begin(), cost.notes.end());
  p.compute.push_back({cost.name, cost.ms});
}

void add_compute_costs(const KernelRecord& kernel, const KernelWork& work, const DeviceRates& rates,
                       const PipesTerms& terms, PipesPrediction& p) {
  if (terms.pipes) {
    for (const auto& [pipe, instructions] : work.pipe_instructions) {
      if (instructions <= 0) continue;
      const auto rate = rates.pipe_gwips.find(pipe);
      if (rate == rates.pipe_gwips.end()) {
        p.notes.push_back("no rate for the " + pipe + " pipe on this device: not costed");
        continue;
      }
      p.compute.push_back({pipe + " pipe", ms_of(instructions, rate->second)});
    }
  }
  if ((terms.issue || !terms.pipes) && rates.issue_gwips > 0)
    p.compute.push_back({"issue", ms_of(work.warp_instructions, rates.issue_gwips)});
  if (terms.tensor) {
    for (const auto& [type, ops] : work.tensor_ops) {
      if (ops <= 0) continue;
      // wgmma kernels at the wgmma peak where the device has one, else at the mma.sync peak.
      const auto& peaks = work.tensor_via_wgmma && rates.tensor_wgmma_gops.contains(type) ? rates.tensor_wgmma_gops
                                                                                           : rates.tensor_gops;
      const auto peak = peaks.find(type);
      if (peak == peaks.end()) {
        p.notes.push_back("no " + type + " tensor peak on this device: those tensor operations not costed");
        continue;
      }
      p.compute.push_back({"tensor " + type, ms_of(ops, peak->second)});
    }
  }
  if (terms.shared && work.shared_wavefronts > 0 && rates.shared_wavefronts_gps > 0)
    p.compute.push_back({"shared", ms_of(work.shared_wavefronts, rates.shared_wavefronts_gps)});
  if (terms.atomics) {
    if (work.global_atomic_instructions > 0 && rates.global_atomics_gops > 0) add_global_atomics_cost(kernel, work, rates, terms, p);
    if (work.shared_atomic_instructions > 0 && rates.shared_atomics_gops > 0)
      p.compute.push_back({"shared atomics", ms_of(work.shared_atomic_instructions * kWarpSize, rates.shared_atomics_gops)});
  }
}

// The SMs reach L2 through a crossbar with a path each way: loads come back on one, stores go
// out on the other, so each direction moves up to the L2 load bandwidth (`l2_gbps`, measured
// with loads) at once. On an MPS 25 % partition of an H200 the elementwise add moves 3.7 TB/s
// of DRAM traffic through L2 where loads alone reach 2.5 TB/s: only both paths together carry it.
double l2_cost_bytes(const KernelWork& work, const PipesTerms& terms) {
  if (terms.l2_direction && work.l2_to_sm_bytes + work.l2_from_sm_bytes > 0)
    return std::max(work.l2_to_sm_bytes, work.l2_from_sm_bytes);
  return work.l2_bytes;
}

void add_memory_costs(const KernelWork& work, const DeviceRates& rates, const PipesTerms& terms, PipesPrediction& p) {
  // Data that stays in L2 between launches moves through L2 only: the L2 cost has its bytes.
  if (work.dram_read_bytes + work.dram_write_bytes > 0 && !p.l2_residency.resident) {
    // The profile's replay ends at the kernel's end, with the lines it stored last still dirty
    // in L2: its DRAM writes undercount them. Where the data does not stay in L2, the launches
    // that follow evict them, so in steady state every line a launch stores is written back.
    double dram_write = work.dram_write_bytes;
    if (terms.dram_writeback && work.dram_direction_known && work.l2_store_bytes > dram_write) {
      dram_write = work.l2_store_bytes;
      p.notes.push_back(fmt::format("DRAM writes taken as the {:.1f} MB stored (the profile's {:.1f} MB miss lines "
                                    "left dirty in L2 at the kernel's end)",
                                    work.l2_store_bytes * 1e-6, work.dram_write_bytes * 1e-6));
    }
    const double dram_bytes = work.dram_read_bytes + dram_write;
    const double gbps = terms.dram_direction && work.dram_direction_known
                            ? dram_gbps_for_read_share(rates, work.dram_read_bytes / dram_bytes)
                            : rates.dram_mean_gbps;
    p.memory.push_back({"DRAM", ms_of(dram_bytes, gbps)});
  }
  if (terms.l2 && work.l2_bytes > 0 && rates.l2_gbps > 0)
    p.memory.push_back({"L2", ms_of(l2_cost_bytes(work, terms), rates.l2_gbps)});
  if (terms.l1 && work.l1_bytes > 0 && rates.l1_gbps > 0) p.memory.push_back({"L1", ms_of(work.l1_bytes, rates.l1_gbps)});
}

// The share of the kernel's global memory traffic its threads' loads and stores move: what goes
// through L1 over what the SMs ask of L2. Bulk copies (TMA, cp.async.bulk) go between L2 and
// shared memory past L1, so a kernel that moves most of its data that way has far more L2 than
// L1 traffic; thread loads and stores alone have at least as much L1 traffic (L1 hits included).
double thread_moved_share(const KernelWork& work, PipesPrediction& p) {
  double share = 1;
  if (work.bulk_copy_bytes > 0 && work.l2_bytes > 0)
    share = std::max(0.0, 1 - work.bulk_copy_bytes / work.l2_bytes);  // measured by the TMA's own counters
  else if (work.l1_bytes > 0 && work.l2_bytes > work.l1_bytes)
    share = work.l1_bytes / work.l2_bytes;
  if (share < 1)
    p.notes.push_back(fmt::format("{:.0f} % of the L2 traffic moved by bulk/TMA copies: memory parallelism for the "
                                  "rest only",
                                  100 * (1 - share)));
  return share;
}

// Little's law: an SM with W warps, each with b bytes of loads and stores in flight per round
// trip (warp_memory_round), draws W x b / latency. A launch with at least as many blocks as SMs keeps the kernel's achieved
// occupancy on every SM (its slots waiting for a block's last warp re-cut to its own blocks per
// SM: the block-refill term); a smaller one has one block on each of `blocks` SMs. Weighted over
// the launch shapes by their share of the blocks.
void add_parallelism_cost(const KernelRecord& kernel, const KernelWork& work, const DeviceProfile& device,
                          const DeviceRates& rates, const PipesTerms& terms, bool latency_modelled, PipesPrediction& p) {
  const double sms = device.sm_count;
  const double b = work.bytes_per_global_instruction;
  if (work.dram_read_bytes + work.dram_write_bytes <= 0 || b <= 0 || rates.dram_latency_ns <= 0 || sms <= 0) return;
  // Outside 1 to 16 bytes per thread the kernel moves its data some other way than by loads
  // and stores of its threads (cp.async, bulk/TMA copies): their parallelism is not in these counters.
  if (b < kWarpSize || b > 16 * kWarpSize) {
    p.notes.push_back("global memory not moved by thread loads and stores (bulk copies?): memory parallelism not modelled");
    return;
  }
  const double dram_bytes = (work.dram_read_bytes + work.dram_write_bytes) * thread_moved_share(work, p);
  const double full_warps = work.achieved_occupancy * rates.warps_per_sm;
  bool noted_round = false;
  // Noted once, for the first launch shape (the register bound may differ between shapes).
  const auto round_of = [&](int registers_per_thread) {
    const WarpMemoryRound round = warp_memory_round(work, rates.dram_latency_ns, terms.warp_mlp, registers_per_thread);
    if (round.per_warp && !noted_round) {
      p.notes.push_back(fmt::format("memory parallelism: {:.0f} bytes of loads and stores in flight per warp per {:.0f} "
                                    "ns round trip, {:.1f} round trip(s) per warp (its loads issued before it waits, "
                                    "at most one per register)",
                                    round.bytes, round.latency_ns, round.rounds));
      noted_round = true;
    }
    return round;
  };
  // The achieved occupancy holds the empty slots of the profiled launch's k blocks per SM;
  // a launch shape with another k has its own (block_refill.hpp).
  const double profiled_share = terms.block_refill && warps_leave_independently(work.waits)
                                    ? profiled_busy_slot_share(kernel, device)
                                    : 0;
  bool noted_refill = false;
  const auto refilled = [&](const LaunchShape& shape) {
    const double share = profiled_share > 0 ? steady_busy_slot_share(shape, device) : 0;
    if (share <= 0 || share == profiled_share) return 1.0;
    if (!noted_refill)
      p.notes.push_back(fmt::format("block refill: {:.1f} % of the resident warp slots busy at this launch's blocks "
                                    "per SM, {:.1f} % at the profiled launch's: resident warps x {:.3f}",
                                    100 * share, 100 * profiled_share, share / profiled_share));
    noted_refill = true;
    return share / profiled_share;
  };
  // Nanoseconds per byte (latency / bytes in flight over the active SMs), weighted by blocks.
  double ns_per_byte = 0, total_blocks = 0, costed_blocks = 0;
  if (kernel.launch_shapes.empty()) {
    if (full_warps <= 0) return;
    const WarpMemoryRound round = round_of(0);
    ns_per_byte = round.latency_ns / (sms * full_warps * round.bytes);
    total_blocks = costed_blocks = 1;
  }
  for (const auto& shape : kernel.launch_shapes) {
    const double blocks = shape.blocks();
    const double weight = blocks * static_cast<double>(std::max<int64_t>(shape.invocations, 1));
    total_blocks += weight;
    // A launch whose blocks are all resident at once (one wave or less) is the latency term's:
    // each warp runs its own serial work, its waits for its loads included, and the stall
    // reasons measure how many loads it overlaps, not one per warp as this term assumes.
    // Counting it here as well would count those waits twice. With more waves, warps queue
    // behind each other for the SM's slots and this term's steady state applies.
    if (latency_modelled && blocks < sms) continue;
    if (latency_modelled && terms.one_wave_latency) {
      const int resident = occupancy_of(shape, device.occupancy).blocks_per_sm;
      if (resident > 0 && blocks <= sms * resident) continue;
    }
    const double warps = blocks >= sms ? full_warps * refilled(shape) : std::ceil(shape.threads_per_block() / kWarpSize);
    if (warps <= 0) return;
    const WarpMemoryRound round = round_of(shape.registers_per_thread);
    ns_per_byte += weight * round.latency_ns / (std::min(blocks, sms) * warps * round.bytes);
    costed_blocks += weight;
  }
  if (costed_blocks <= 0) return;
  // The costed launches' share of the bytes (launches move bytes in proportion to their blocks).
  p.memory.push_back({"DRAM parallelism", dram_bytes * ns_per_byte / total_blocks * 1e-6});
}

// Blocks are spread over the SMs: the busiest SM runs ceil(blocks / SMs) of them, so compute
// takes that over the mean share. Weighted by each launch shape's share of the kernel's blocks.
// (Memory with few blocks is the parallelism cost's part.)
void add_wave_factors(const KernelRecord& kernel, const DeviceProfile& device, PipesPrediction& p) {
  if (kernel.launch_shapes.empty() || device.sm_count <= 0) {
    p.notes.push_back("no launch shape or SM count: waves not modelled");
    return;
  }
  const double sms = device.sm_count;
  double total_blocks = 0, compute = 0;
  int64_t invocations = 0;
  int most = -1;
  for (const auto& shape : kernel.launch_shapes) {
    const int64_t n = std::max<int64_t>(shape.invocations, 1);
    const double blocks = shape.blocks();
    const double weight = blocks * static_cast<double>(n);
    total_blocks += weight;
    invocations += n;
    compute += weight * std::ceil(blocks / sms) / (blocks / sms);
    if (most < 0 || n > kernel.launch_shapes[static_cast<size_t>(most)].invocations)
      most = static_cast<int>(&shape - kernel.launch_shapes.data());
  }
  p.blocks = total_blocks / static_cast<double>(std::max<int64_t>(invocations, 1));
  p.compute_wave_factor = compute / total_blocks;
  const Occupancy occupancy = occupancy_of(kernel.launch_shapes[static_cast<size_t>(most)], device.occupancy);
  p.blocks_per_sm = occupancy.blocks_per_sm;
  p.occupancy_limiter = occupancy.limiter;
}

// Every launch starts all its blocks before its last one can end: blocks / the device's block
// dispatch rate, summed over the launch shapes and their launches.
void add_dispatch_cost(const KernelRecord& kernel, const DeviceRates& rates, PipesPrediction& p) {
  if (rates.block_dispatch_gblocks <= 0) {
    p.notes.push_back("no block_dispatch_gblocks on this device: block dispatch not modelled");
    return;
  }
  double blocks = 0;
  for (const auto& shape : kernel.launch_shapes)
    blocks += shape.blocks() * static_cast<double>(std::max<int64_t>(shape.invocations, 1));
  p.dispatch_ms = ms_of(blocks, rates.block_dispatch_gblocks);
}

}  // namespace

const std::vector<PipesTermName>& pipes_term_names() {
  static const std::vector<PipesTermName> names = {
      {"pipes", &PipesTerms::pipes},   {"issue", &PipesTerms::issue},
      {"tensor", &PipesTerms::tensor}, {"shared", &PipesTerms::shared},
      {"atomics", &PipesTerms::atomics}, {"one-word-type", &PipesTerms::one_word_type},
      {"one-word-lanes", &PipesTerms::one_word_lanes},
      {"dram-direction", &PipesTerms::dram_direction},
      {"dram-writeback", &PipesTerms::dram_writeback},
      {"l2", &PipesTerms::l2},         {"l2-direction", &PipesTerms::l2_direction},
      {"l2-residency", &PipesTerms::l2_residency}, {"l1", &PipesTerms::l1},
      {"parallelism", &PipesTerms::parallelism}, {"warp-mlp", &PipesTerms::warp_mlp},
      {"dram-latency-line", &PipesTerms::dram_latency_line},
      {"block-refill", &PipesTerms::block_refill},
      {"waves", &PipesTerms::waves},   {"tail-wave", &PipesTerms::tail_wave},
      {"latency", &PipesTerms::latency},
      {"one-wave-latency", &PipesTerms::one_wave_latency},
      {"loaded-latency", &PipesTerms::loaded_latency},
      {"launch", &PipesTerms::launch},
      {"block-dispatch", &PipesTerms::block_dispatch},
      {"reference-time", &PipesTerms::reference_time},
  };
  return names;
}

PipesPrediction predict_pipes(const KernelRecord& kernel, const DeviceProfile& device, const PipesTerms& terms) {
  return predict_pipes(kernel, std::make_shared<const KernelWork>(kernel_work_of(kernel)), device,
                       device_rates_of(device), terms);
}

PipesPrediction predict_pipes(const KernelRecord& kernel, std::shared_ptr<const KernelWork> shared_work,
                              const DeviceProfile& device, const DeviceRates& rates, const PipesTerms& terms) {
  PipesPrediction p;
  predict_pipes(p, kernel, std::move(shared_work), device, rates, terms);
  return p;
}

void predict_pipes(PipesPrediction& p, const KernelRecord& kernel, std::shared_ptr<const KernelWork> shared_work,
                   const DeviceProfile& device, const DeviceRates& rates, const PipesTerms& terms) {
  {
    // Every field as a new prediction has it, but for the storage of its vectors and limiter.
    std::vector<PipesCost> compute = std::move(p.compute), memory = std::move(p.memory);
    std::vector<Note> notes = std::move(p.notes);
    std::string limiter = std::move(p.limiter);
    compute.clear();
    memory.clear();
    notes.clear();
    limiter.clear();
    p = PipesPrediction{};
    p.compute = std::move(compute);
    p.memory = std::move(memory);
    p.notes = std::move(notes);
    p.limiter = std::move(limiter);
  }
  p.work = std::move(shared_work);
  p.sm_count = device.sm_count;
  const KernelWork& work = *p.work;
  // Each vector allocated at about its final size, where it was not already.
  p.notes.reserve(4);
  // The device's notes are shared where device_rates_of made the rates, copied once where a caller did.
  if (rates.shared_notes)
    p.device_notes = rates.shared_notes;
  else if (!rates.notes.empty())
    p.device_notes = std::make_shared<const std::vector<std::string>>(rates.notes);
  p.compute.reserve(work.pipe_instructions.size() + work.tensor_ops.size() + 4);
  p.memory.reserve(4);

  if (terms.l2_residency) {
    p.l2_residency = l2_residency_of(kernel, work, device);  // its note first among this prediction's
  }
  add_compute_costs(kernel, work, rates, terms, p);
  add_memory_costs(work, rates, terms, p);
  if (terms.latency) {
    const bool refill = terms.block_refill && warps_leave_independently(work.waits);
    // Where the data stays in L2, what missed L2 in the profile's replay (which starts with a
    // flushed L2) hits there in the timed run: its memory waits are L2 hits at most.
    if (p.l2_residency.resident) {
      WarpWaits timed = work.waits;
      timed.l2_hit_share = 1;
      timed.l2_read_hit_share = 1;
      p.latency =
          latency_term_of(kernel, work, timed, device, rates, terms.loaded_latency, refill, terms.reference_time);
    } else {
      p.latency =
          latency_term_of(kernel, work, work.waits, device, rates, terms.loaded_latency, refill, terms.reference_time);
    }
    p.reference_time.uncapped_latency_ns = p.latency.uncapped_ns_per_instruction;
    p.latency_note_at = p.notes.size();  // its note here among this prediction's
  }
  // Loads that hit in L2 are not DRAM's to keep in flight.
  if (terms.parallelism && !p.l2_residency.resident)
    add_parallelism_cost(kernel, work, device, rates, terms, p.latency.modelled, p);
  if (terms.waves) add_wave_factors(kernel, device, p);

  const PipesCost* compute = largest(p.compute);
  const PipesCost* memory = largest(p.memory);
  p.compute_ms = compute ? compute->ms * p.compute_wave_factor : 0;
  p.memory_ms = memory ? memory->ms : 0;
  std::string memory_limiter = memory ? memory->name : "";
  // The DRAM bound and the parallelism bound meet in a knee, not a corner: the latency the
  // parallelism bound waits grows with the DRAM's load (dram_time_under_load), or without the
  // bench values for that, the soft maximum.
  const double dram = cost_named(p.memory, "DRAM"), parallelism = cost_named(p.memory, "DRAM parallelism");
  if (dram > 0 && parallelism > 0) {
    const DramLatencyLine line = terms.dram_latency_line ? dram_latency_line(rates) : DramLatencyLine{};
    if (terms.dram_latency_line && !line.known)
      p.notes.push_back("no latency_dram_ns or dram_probe_gbps on this device: DRAM and its parallelism meet in "
                        "sqrt(a^2 + b^2)");
    const double dram_time = line.known ? dram_time_under_load(dram, parallelism, line) : soft_max(dram, parallelism);
    if (line.known)
      p.notes.push_back(fmt::format("DRAM latency under load: {:.0f} ns unloaded, {:.0f} ns at {:.0f} % of the "
                                    "bandwidth (the bench's probe): {:.0f} ns at this kernel's {:.0f} %",
                                    line.unloaded_ns, line.probe_ns, 100 * line.probe_load,
                                    line.unloaded_ns * (1 + line.slope * dram / dram_time), 100 * dram / dram_time));
    if (dram_time > p.memory_ms) {
      p.memory_ms = dram_time;
      memory_limiter = (line.known ? dram_time > dram : parallelism > dram) ? "DRAM parallelism" : "DRAM";
    }
  }
  p.bound = p.memory_ms > p.compute_ms ? Bound::memory : Bound::compute;
  double throughput_ms = std::max(p.compute_ms, p.memory_ms);
  p.limiter = p.bound == Bound::memory ? memory_limiter : compute ? compute->name : "";
  if (p.bound == Bound::compute && p.compute_wave_factor > 1.5) p.limiter += " (idle SMs)";
  // A warp that waits for its own latencies issues nothing meanwhile: with too few warps to
  // overlap them, its latency and the SM's compute add up, and meet in a knee (soft_max) as
  // DRAM and parallelism do (Hong & Kim: CWP < MWP). Memory latency is already the
  // parallelism cost's on the memory side, so the latency term joins the compute side only.
  const double compute_with_latency = soft_max(p.compute_ms, p.latency.ms);
  if (compute_with_latency > throughput_ms) {
    throughput_ms = compute_with_latency;
    if (p.latency.ms > p.compute_ms)
      p.limiter = "latency (" + p.latency.kind + ")";
    else if (compute)
      p.limiter = compute->name + " + latency";
  }
  // A launch's partial last wave starts only as its full waves end, and then runs at one warp's
  // serial pace whatever the bandwidth: the full waves (their share of compute and memory, and
  // their latency) and the tail (its share, and one wave's latency) add up.
  if (terms.tail_wave && p.latency.tail_ms > 0) {
    const double tail_share = p.latency.tail_block_share;
    const double full_ms = std::max(soft_max(p.compute_ms * (1 - tail_share), p.latency.ms - p.latency.tail_ms),
                                    p.memory_ms * (1 - tail_share));
    const double tail_ms = std::max(soft_max(p.compute_ms * tail_share, p.latency.tail_ms), p.memory_ms * tail_share);
    if (full_ms + tail_ms > throughput_ms) {
      throughput_ms = full_ms + tail_ms;
      p.limiter += " + tail wave";
      p.notes.push_back(fmt::format("tail wave: the launches' partial last waves ({:.1f} % of the blocks) take {:.4f} ms "
                                    "after their full waves",
                                    100 * tail_share, tail_ms));
    }
  }

  if (terms.block_dispatch) add_dispatch_cost(kernel, rates, p);
  if (p.dispatch_ms > throughput_ms) {
    throughput_ms = p.dispatch_ms;
    p.limiter = "block dispatch";
  }

  if (terms.launch) {
    // A launch that reads memory waits at least one DRAM round trip before its last store.
    // (Where the latency term is modelled, that wait is in it.)
    const double round_trip_ns = p.l2_residency.resident && rates.latency_l2_hit_ns > 0 ? rates.latency_l2_hit_ns
                                                                                          : rates.dram_latency_ns;
    const double round_trip_us = work.dram_read_bytes > 0 && !p.latency.modelled ? round_trip_ns * 1e-3 : 0;
    if (rates.kernel_floor_us > 0)
      p.launch_ms = (rates.kernel_floor_us + round_trip_us) * 1e-3 * kernel.invocations;
    else
      p.notes.push_back("no kernel_floor_us on this device: launch time not modelled");
  }
  p.predicted_ms = p.launch_ms + throughput_ms;
  if (p.launch_ms > throughput_ms) p.limiter = "launch";
  check_prediction(p, kernel.name, device.name);
}

double calibrated_pipes_ms(const KernelRecord& kernel, const DeviceProfile& target, const DeviceProfile& reference,
                           double measured_on_reference_ms, const PipesTerms& terms) {
  return calibrated_pipes_ms(predict_pipes(kernel, target, terms), predict_pipes(kernel, reference, terms),
                             measured_on_reference_ms, kernel.name, target.name);
}

double calibrated_pipes_ms(const PipesPrediction& on_target, const PipesPrediction& on_reference,
                           double measured_on_reference_ms, const std::string& kernel, const std::string& target) {
  if (!calibration_applies(on_target, on_reference)) return on_target.predicted_ms;
  const double reference_work_ms = measured_on_reference_ms - on_reference.launch_ms;
  const double reference_model_ms = on_reference.predicted_ms - on_reference.launch_ms;
  if (!(reference_work_ms > 0) || !(reference_model_ms > 0)) return on_target.predicted_ms;
  const double efficiency = reference_work_ms / reference_model_ms;
  const double calibrated_ms = on_target.launch_ms + (on_target.predicted_ms - on_target.launch_ms) * efficiency;
  check_predicted_value(calibrated_ms, "calibrated_ms", kernel, target);
  return calibrated_ms;
}

bool calibration_applies(const PipesPrediction& on_target, const PipesPrediction& on_reference) {
  return on_target.limiter == on_reference.limiter && on_target.sm_count == on_reference.sm_count;
}

}  // namespace roofcast
