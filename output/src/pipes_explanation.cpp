#include "roofcast/output/pipes_explanation.hpp"

#include <fmt/format.h>

#include "roofcast/formats/printable_text.hpp"

namespace roofcast {

namespace {

std::string latency_explanation_text(const LatencyTerm& t) {
  if (!t.modelled) return "";
  std::string out = fmt::format(
      "\nLatency (one warp's serial work): {:.0f} instructions per warp x {:.3f} ns each x {:.2f} waves per launch\n",
      t.instructions_per_warp, t.ns_per_instruction, t.waves);
  for (const auto& part : t.parts) out += fmt::format("  {:<14} {:>10.3f} ns per instruction\n", part.name, part.ns);
  out += fmt::format("  {:.0f} warps resident on the busiest scheduler; {:.1f} needed to hide the latency\n",
                     t.resident_warps_per_scheduler, t.warps_to_hide_latency);
  return out;
}

// What the reference-time term took from the reference GPU's measured time, where it changed a cost.
std::string reference_time_text(const PipesPrediction& r) {
  const ReferenceTimeUse& use = r.reference_time;
  if (!use.acted()) return "";
  std::string out = "\nReference time (the kernel's measured time on the reference GPU bounds these; "
                    "--ablate reference-time leaves it out)\n";
  if (use.uncapped_latency_ns > 0)
    out += fmt::format("  latency capped at {:.3f} ns per instruction ({:.3f} from the stall counts): one warp's "
                       "serial work within a launch's measured time\n",
                       r.latency.ns_per_instruction, use.uncapped_latency_ns);
  if (use.one_word_ns > 0)
    out += fmt::format("  one word's atomics at {:.3g} ns per request (the integer bench's {:.3g} ns): the slowest "
                       "same-word rate within the measured time per request\n",
                       use.one_word_ns, use.one_word_integer_ns);
  return out;
}

}  // namespace

std::string pipes_explanation_text(const PipesPrediction& r, const DeviceProfile& device) {
  const KernelWork& w = r.kernel_work();
  std::string out = fmt::format("Multi-pipeline model (docs/pipes-model.md) on {}\n\nKernel work ({})\n", printable(device.name),
                                w.measured_pipes ? "measured pipe counters" : "derived");
  for (const auto& [pipe, n] : w.pipe_instructions) out += fmt::format("  {:<10} pipe  {:>16.0f} warp instructions\n", pipe, n);
  out += fmt::format("  issued          {:>16.0f} warp instructions\n", w.warp_instructions);
  for (const auto& [type, ops] : w.tensor_ops) out += fmt::format("  tensor {:<8} {:>16.0f} operations\n", type, ops);
  if (w.shared_wavefronts > 0) out += fmt::format("  shared          {:>16.0f} wavefronts\n", w.shared_wavefronts);
  if (w.global_atomic_instructions + w.shared_atomic_instructions > 0)
    out += fmt::format("  atomics         {:>16.0f} global, {:.0f} shared warp instructions\n",
                       w.global_atomic_instructions, w.shared_atomic_instructions);
  out += fmt::format("  DRAM            {:>16.0f} bytes read, {:.0f} written\n", w.dram_read_bytes, w.dram_write_bytes);
  if (w.l2_bytes > 0) out += fmt::format("  L2              {:>16.0f} bytes requested by the SMs\n", w.l2_bytes);
  if (w.l1_bytes > 0) out += fmt::format("  L1              {:>16.0f} bytes\n", w.l1_bytes);

  out += "\nCosts: the time each part of the GPU needs for this work alone\n";
  for (const auto& c : r.compute) out += fmt::format("  compute  {:<18} {:>12.6f} ms\n", c.name, c.ms);
  for (const auto& c : r.memory) out += fmt::format("  memory   {:<18} {:>12.6f} ms\n", c.name, c.ms);
  if (r.latency.modelled)
    out += fmt::format("  latency  {:<18} {:>12.6f} ms\n", r.latency.kind, r.latency.ms);
  if (r.dispatch_ms > 0)
    out += fmt::format("  dispatch {:<18} {:>12.6f} ms  (every launch's blocks at the block dispatch rate)\n",
                       "block dispatch", r.dispatch_ms);
  out += latency_explanation_text(r.latency);
  out += reference_time_text(r);
  out += fmt::format(
      "\nWaves: {:.0f} blocks per launch on {} SMs ({} per SM fit, limited by {}); compute x {:.3f}\n",
      r.blocks, device.sm_count, r.blocks_per_sm, r.occupancy_limiter.empty() ? "unknown" : r.occupancy_limiter,
      r.compute_wave_factor);
  out += fmt::format("Compute {:.6f} ms, memory {:.6f} ms: {} bound\n", r.compute_ms, r.memory_ms, to_string(r.bound));
  out += fmt::format("Launch {:.6f} ms\nPredicted {:.6f} ms (= launch + max(compute, memory, latency, block dispatch)); "
                     "limiter: {}\n",
                     r.launch_ms,
                     r.predicted_ms, r.limiter);
  r.for_each_note([&](std::string_view n) { out += fmt::format("  note: {}\n", n); });
  return out;
}

}  // namespace roofcast
