#include "output/pipes_output.hpp"

#include <fmt/format.h>

#include "output/table.hpp"
#include "output/validation_output.hpp"
#include "roofcast/formats/printable_text.hpp"

namespace roofcast {

namespace {

using nlohmann::json;

std::string ms(double value) { return fmt::format("{:#.4g}", value); }
std::string optional_ms(const std::optional<double>& value) { return value ? ms(*value) : "-"; }
std::string error_percent(const std::optional<double>& predicted, const std::optional<double>& measured) {
  if (!predicted || !measured || *measured <= 0) return "-";
  return fmt::format("{:+.1f}", 100 * (*predicted - *measured) / *measured);
}
json optional_number(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }

json costs_json(const std::vector<PipesCost>& costs) {
  json out = json::object();
  for (const auto& c : costs) out[c.name] = c.ms;
  return out;
}

json latency_json(const LatencyTerm& t) {
  if (!t.modelled) return {{"modelled", false}, {"note", t.note}};
  json parts = json::object();
  for (const auto& part : t.parts) parts[part.name] = part.ns;
  return {{"modelled", true},
          {"kind", t.kind},
          {"instructions_per_warp", t.instructions_per_warp},
          {"ns_per_instruction", parts},
          {"waves_per_launch", t.waves},
          {"resident_warps_per_scheduler", t.resident_warps_per_scheduler},
          {"warps_to_hide_latency", t.warps_to_hide_latency},
          {"ms", t.ms}};
}

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

}  // namespace

std::string pipes_table_text(const std::vector<PipesKernelPrediction>& predictions) {
  Table table;
  table.columns = {{"kernel", false}, {"device", false},  {"limiter", false}, {"compute ms"}, {"memory ms"},
                   {"launch ms"},     {"predicted ms"},   {"calibrated ms"},  {"measured ms"}, {"error %"}};
  for (const auto& p : predictions) {
    const auto& r = p.prediction;
    table.add_row({shortened_kernel_name(p.kernel, 64), p.device, r.limiter, ms(r.compute_ms), ms(r.memory_ms),
                   ms(r.launch_ms), ms(r.predicted_ms), optional_ms(p.corrected_ms), optional_ms(p.measured_ms),
                   error_percent(r.predicted_ms, p.measured_ms)});
  }
  return render_text(table);
}

std::string pipes_csv(const std::vector<PipesKernelPrediction>& predictions) {
  Table table;
  for (const char* h : {"kernel", "device", "limiter", "bound", "compute_ms", "memory_ms", "latency_ms", "compute_wave_factor",
                        "launch_ms", "predicted_ms", "calibrated_ms", "measured_ms"})
    table.columns.push_back({h});
  auto number = [](double v) { return fmt::format("{}", v); };
  for (const auto& p : predictions) {
    const auto& r = p.prediction;
    table.add_row({p.kernel, p.device, r.limiter, to_string(r.bound), number(r.compute_ms), number(r.memory_ms),
                   number(r.latency.ms), number(r.compute_wave_factor), number(r.launch_ms),
                   number(r.predicted_ms), p.corrected_ms ? number(*p.corrected_ms) : "",
                   p.measured_ms ? number(*p.measured_ms) : ""});
  }
  return render_csv(table);
}

json pipes_json(const std::vector<PipesKernelPrediction>& predictions, const std::string& profile_source) {
  json out = json::array();
  for (const auto& p : predictions) {
    const auto& r = p.prediction;
    out.push_back({{"kernel", p.kernel},
                   {"device", p.device},
                   {"predicted_ms", r.predicted_ms},
                   {"calibrated_ms", optional_number(p.corrected_ms)},
                   {"measured_ms", optional_number(p.measured_ms)},
                   {"limiter", r.limiter},
                   {"bound", to_string(r.bound)},
                   {"compute_costs_ms", costs_json(r.compute)},
                   {"memory_costs_ms", costs_json(r.memory)},
                   {"compute_ms", r.compute_ms},
                   {"memory_ms", r.memory_ms},
                   {"latency_ms", r.latency.ms},
                   {"latency", latency_json(r.latency)},
                   {"blocks_per_launch", r.blocks},
                   {"blocks_per_sm", r.blocks_per_sm},
                   {"occupancy_limiter", r.occupancy_limiter},
                   {"compute_wave_factor", r.compute_wave_factor},
                   {"launch_ms", r.launch_ms},
                   {"pipe_instructions", r.work.pipe_instructions},
                   {"tensor_ops", r.work.tensor_ops},
                   {"measured_pipes", r.work.measured_pipes},
                   {"notes", r.notes}});
  }
  return {{"format", "roofcast-prediction"}, {"version", 1},           {"model", "pipes"},
          {"profile", profile_source},        {"predictions", out}};
}

std::string pipes_explanation_text(const PipesPrediction& r, const DeviceProfile& device) {
  const KernelWork& w = r.work;
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
  out += latency_explanation_text(r.latency);
  out += fmt::format(
      "\nWaves: {:.0f} blocks per launch on {} SMs ({} per SM fit, limited by {}); compute x {:.3f}\n",
      r.blocks, device.sm_count, r.blocks_per_sm, r.occupancy_limiter.empty() ? "unknown" : r.occupancy_limiter,
      r.compute_wave_factor);
  out += fmt::format("Compute {:.6f} ms, memory {:.6f} ms: {} bound\n", r.compute_ms, r.memory_ms, to_string(r.bound));
  out += fmt::format("Launch {:.6f} ms\nPredicted {:.6f} ms (= launch + max(compute, memory, latency)); limiter: {}\n",
                     r.launch_ms,
                     r.predicted_ms, r.limiter);
  for (const auto& n : r.notes) out += fmt::format("  note: {}\n", n);
  return out;
}

}  // namespace roofcast
