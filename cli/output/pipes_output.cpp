#include "output/pipes_output.hpp"

#include <map>

#include <fmt/format.h>

#include "output/json_writer.hpp"
#include "output/prediction_output.hpp"
#include "output/table.hpp"
#include "output/validation_output.hpp"
#include "roofcast/formats/printable_text.hpp"

namespace roofcast {

namespace {

std::string ms(double value) { return fmt::format("{:#.4g}", value); }
std::string optional_ms(const std::optional<double>& value) { return value ? ms(*value) : "-"; }
std::string error_percent(const std::optional<double>& predicted, const std::optional<double>& measured) {
  if (!predicted || !measured || *measured <= 0) return "-";
  return fmt::format("{:+.1f}", 100 * (*predicted - *measured) / *measured);
}

class PipesTablePrinter : public PipesPrinter {
 public:
  explicit PipesTablePrinter(std::ostream& out) : out_(out) {
    table_.columns = {{"kernel", false}, {"device", false},  {"limiter", false}, {"compute ms"}, {"memory ms"},
                      {"launch ms"},     {"predicted ms"},   {"calibrated ms"},  {"measured ms"}, {"error %"}};
  }
  void add(const PipesKernelPrediction& p) override {
    const auto& r = p.prediction;
    table_.add_row({shortened_kernel_name(p.kernel, 64), p.device, r.limiter, ms(r.compute_ms), ms(r.memory_ms),
                    ms(r.launch_ms), ms(r.predicted_ms), optional_ms(p.corrected_ms), optional_ms(p.measured_ms),
                    error_percent(r.predicted_ms, p.measured_ms)});
  }
  void finish() override { write_text(table_, out_); }

 private:
  std::ostream& out_;
  Table table_;
};

class PipesCsvPrinter : public PipesPrinter {
 public:
  explicit PipesCsvPrinter(std::ostream& out) : csv_(out) {
    csv_.write_row({"kernel", "device", "limiter", "bound", "compute_ms", "memory_ms", "latency_ms",
                    "compute_wave_factor", "launch_ms", "predicted_ms", "calibrated_ms", "measured_ms"});
  }
  void add(const PipesKernelPrediction& p) override {
    const auto& r = p.prediction;
    auto number = [](double v) { return fmt::format("{}", v); };
    csv_.write_row({p.kernel, p.device, r.limiter, to_string(r.bound), number(r.compute_ms), number(r.memory_ms),
                    number(r.latency.ms), number(r.compute_wave_factor), number(r.launch_ms), number(r.predicted_ms),
                    p.corrected_ms ? number(*p.corrected_ms) : "", p.measured_ms ? number(*p.measured_ms) : ""});
  }
  void finish() override { csv_.flush(); }

 private:
  CsvWriter csv_;
};

// The document nlohmann::json would write for {"format", "model", "predictions", "profile",
// "version"}, keys in its (sorted) order.
class PipesJsonPrinter : public PipesPrinter {
 public:
  PipesJsonPrinter(std::ostream& out, std::string profile_source)
      : out_(out), json_(out), profile_source_(std::move(profile_source)) {
    begin_prediction_document(json_, "pipes");
  }
  void add(const PipesKernelPrediction& p) override {
    const auto& r = p.prediction;
    json_.begin_object();
    json_.member("blocks_per_launch", r.blocks);
    json_.member("blocks_per_sm", r.blocks_per_sm);
    json_.member("bound", to_string(r.bound));
    json_.member("calibrated_ms", p.corrected_ms);
    write_costs("compute_costs_ms", r.compute);
    json_.member("compute_ms", r.compute_ms);
    json_.member("compute_wave_factor", r.compute_wave_factor);
    json_.member("device", p.device);
    json_.member("kernel", p.kernel);
    write_latency(r.latency);
    json_.member("latency_ms", r.latency.ms);
    json_.member("launch_ms", r.launch_ms);
    json_.member("limiter", r.limiter);
    json_.member("measured_ms", p.measured_ms);
    json_.member("measured_pipes", r.work.measured_pipes);
    write_costs("memory_costs_ms", r.memory);
    json_.member("memory_ms", r.memory_ms);
    json_.key("notes");
    json_.begin_array();
    for (const auto& note : r.notes) json_.value(note);
    json_.end_array();
    json_.member("occupancy_limiter", r.occupancy_limiter);
    write_numbers("pipe_instructions", r.work.pipe_instructions);
    json_.member("predicted_ms", r.predicted_ms);
    write_numbers("tensor_ops", r.work.tensor_ops);
    json_.end_object();
  }
  void finish() override {
    json_.end_array();
    json_.member("profile", profile_source_);
    json_.member("version", 1);
    json_.end_object();
    out_ << "\n";
  }

 private:
  void write_numbers(std::string_view key, const std::map<std::string, double>& numbers) {
    json_.key(key);
    json_.begin_object();
    for (const auto& [name, value] : numbers) json_.member(name, value);
    json_.end_object();
  }
  // The latency term: what it is made of where it is modelled, else why it is not.
  void write_latency(const LatencyTerm& t) {
    json_.key("latency");
    json_.begin_object();
    if (!t.modelled) {
      json_.member("modelled", false);
      json_.member("note", t.note);
    } else {
      json_.member("instructions_per_warp", t.instructions_per_warp);
      json_.member("kind", t.kind);
      json_.member("modelled", true);
      json_.member("ms", t.ms);
      std::map<std::string, double> parts;
      for (const auto& part : t.parts) parts[part.name] = part.ns;
      write_numbers("ns_per_instruction", parts);
      json_.member("resident_warps_per_scheduler", t.resident_warps_per_scheduler);
      json_.member("warps_to_hide_latency", t.warps_to_hide_latency);
      json_.member("waves_per_launch", t.waves);
    }
    json_.end_object();
  }
  // Costs by name (a later cost of the same name replaces an earlier one, as in a JSON object).
  void write_costs(std::string_view key, const std::vector<PipesCost>& costs) {
    std::map<std::string, double> by_name;
    for (const auto& c : costs) by_name[c.name] = c.ms;
    write_numbers(key, by_name);
  }

  std::ostream& out_;
  JsonWriter json_;
  std::string profile_source_;
};

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

std::unique_ptr<PipesPrinter> pipes_printer(const std::string& format, std::ostream& out,
                                            const std::string& profile_source) {
  if (format == "json") return std::make_unique<PipesJsonPrinter>(out, profile_source);
  if (format == "csv") return std::make_unique<PipesCsvPrinter>(out);
  return std::make_unique<PipesTablePrinter>(out);
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
