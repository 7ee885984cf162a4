#include "roofcast/output/prediction_output.hpp"

#include <cmath>
#include <map>

#include <fmt/format.h>

#include "roofcast/output/json_writer.hpp"
#include "roofcast/output/markdown.hpp"
#include "roofcast/output/table.hpp"
#include "roofcast/output/validation_output.hpp"

namespace roofcast {

namespace {

std::string fixed(double value, int digits) {
  if (std::isinf(value)) return "inf";
  return fmt::format("{:.{}f}", value, digits);
}
std::string percent(double fraction) { return fixed(100 * fraction, 2); }
std::string optional_fixed(const std::optional<double>& value, int digits) {
  return value ? fixed(*value, digits) : "-";
}
std::string signed_percent(const std::optional<double>& fraction) {
  return fraction ? fmt::format("{:+.2f}", 100 * *fraction) : "-";
}
std::string csv_number(double value) { return std::isfinite(value) ? fmt::format("{}", value) : "inf"; }
std::string csv_optional(const std::optional<double>& value) { return value ? csv_number(*value) : ""; }
std::string ms(double value) { return fmt::format("{:#.4g}", value); }
std::string optional_ms(const std::optional<double>& value) { return value ? ms(*value) : "-"; }
std::string error_percent(const std::optional<double>& error) {
  return error ? fmt::format("{:+.1f}", 100 * *error) : "-";
}

// The columns and cells each model shows in the table; the rest is common to every model.
std::vector<Table::Column> kernel_columns(const std::string& model, bool corrected) {
  if (model == "thesis") {
    std::vector<Table::Column> columns = {{"kernel", false}, {"device", false}, {"type", false}, {"bound", false},
                                          {"E_mix %"},       {"E_instr %"},     {"T'_op G/s"},   {"O_krn"},
                                          {"O_dev"},         {"predicted ms"}};
    if (corrected) columns.insert(columns.end(), {{"E_util"}, {"corrected ms"}});
    columns.insert(columns.end(), {{"measured ms"}, {"error %"}});
    if (corrected) columns.push_back({"corrected error %"});
    return columns;
  }
  return {{"kernel", false}, {"device", false},  {"limiter", false}, {"compute ms"}, {"memory ms"},
          {"launch ms"},     {"predicted ms"},   {"calibrated ms"},  {"measured ms"}, {"error %"}};
}

std::vector<std::string> kernel_row(const KernelPrediction& p, bool corrected) {
  if (const ThesisPrediction* t = p.prediction.thesis()) {
    std::vector<std::string> row = {p.kernel, p.device, std::string(to_string(p.parameters.type)),
                                    to_string(t->bound), percent(p.parameters.E_mix),
                                    percent(t->E_instr), fixed(t->T_op_adjusted, 2),
                                    fixed(t->O_krn, 2), fixed(t->O_dev, 2), fixed(t->predicted_ms, 3)};
    if (corrected) {
      row.push_back(optional_fixed(p.E_util, 3));
      row.push_back(optional_fixed(p.corrected_ms, 3));
    }
    row.push_back(optional_fixed(p.measured_ms, 3));
    row.push_back(signed_percent(p.error));
    if (corrected) row.push_back(signed_percent(p.corrected_error));
    return row;
  }
  const PipesPrediction& r = *p.prediction.pipes();
  return {shortened_kernel_name(p.kernel, 64), p.device, r.limiter, ms(r.compute_ms), ms(r.memory_ms),
          ms(r.launch_ms), ms(r.predicted_ms), optional_ms(p.corrected_ms), optional_ms(p.measured_ms),
          error_percent(p.error)};
}

Table totals_table(const std::vector<DeviceTotal>& device_totals, bool corrected) {
  Table totals;
  totals.columns = {{"device", false}, {"kernels"}, {"memory bound"}, {"compute bound"}, {"predicted ms"}};
  if (corrected) totals.columns.push_back({"corrected ms"});
  totals.columns.push_back({"measured ms"});
  for (const auto& t : device_totals) {
    std::vector<std::string> row = {t.device, fmt::format("{}", t.memory_bound_kernels + t.compute_bound_kernels),
                                    fmt::format("{}", t.memory_bound_kernels),
                                    fmt::format("{}", t.compute_bound_kernels), fixed(t.predicted_ms, 3)};
    if (corrected) row.push_back(optional_fixed(t.corrected_ms, 3));
    row.push_back(optional_fixed(t.measured_ms, 3));
    totals.add_row(row);
  }
  return totals;
}

// The aligned table, or with `markdown` a markdown table (the same cells).
class PredictionTablePrinter : public PredictionPrinter {
 public:
  PredictionTablePrinter(std::ostream& out, const std::string& model, bool corrected, bool markdown)
      : out_(out), corrected_(corrected), markdown_(markdown) {
    table_.columns = kernel_columns(model, corrected);
  }
  void add(const KernelPrediction& p) override { table_.add_row(kernel_row(p, corrected_)); }
  void finish(const std::vector<DeviceTotal>& device_totals) override {
    const Table totals = totals_table(device_totals, corrected_);
    if (markdown_) {
      out_ << render_markdown(table_) << "\n**Totals per device**\n\n" << render_markdown(totals);
      return;
    }
    write_text(table_, out_);
    out_ << "\nTotals per device\n";
    write_text(totals, out_);
  }

 private:
  std::ostream& out_;
  bool corrected_;
  bool markdown_;
  Table table_;
};

class PredictionCsvPrinter : public PredictionPrinter {
 public:
  PredictionCsvPrinter(std::ostream& out, const std::string& model) : csv_(out) {
    if (model == "thesis")
      csv_.write_row({"kernel", "device", "K_type", "bound", "predicted_ms", "measured_ms", "error", "E_util",
                      "corrected_ms", "corrected_error", "W_comp", "W_traf", "E_mix", "D_ops", "D_ldst", "D_other",
                      "T_op", "W_op", "W_ldst", "W_other", "C_op", "C_ldst", "C_other", "E_instr", "T_op_adjusted",
                      "O_krn", "O_dev", "T_predicted"});
    else
      csv_.write_row({"kernel", "device", "limiter", "bound", "compute_ms", "memory_ms", "latency_ms",
                      "compute_wave_factor", "launch_ms", "predicted_ms", "calibrated_ms", "measured_ms"});
  }
  void add(const KernelPrediction& p) override {
    if (const ThesisPrediction* t = p.prediction.thesis()) {
      const auto& k = p.parameters;
      csv_.write_row({p.kernel, p.device, std::string(to_string(k.type)), to_string(t->bound),
                      csv_number(t->predicted_ms), csv_optional(p.measured_ms), csv_optional(p.error),
                      csv_optional(p.E_util), csv_optional(p.corrected_ms), csv_optional(p.corrected_error),
                      csv_number(k.W_comp), csv_number(k.W_traf), csv_number(k.E_mix), csv_number(k.D_ops),
                      csv_number(k.D_ldst), csv_number(k.D_other()), csv_number(t->T_op), csv_number(t->W_op),
                      csv_number(t->W_ldst), csv_number(t->W_other), csv_number(t->C_op), csv_number(t->C_ldst),
                      csv_number(t->C_other), csv_number(t->E_instr), csv_number(t->T_op_adjusted),
                      csv_number(t->O_krn), csv_number(t->O_dev), csv_number(t->T_predicted)});
      return;
    }
    const PipesPrediction& r = *p.prediction.pipes();
    auto number = [](double v) { return fmt::format("{}", v); };
    csv_.write_row({p.kernel, p.device, r.limiter, to_string(r.bound), number(r.compute_ms), number(r.memory_ms),
                    number(r.latency.ms), number(r.compute_wave_factor), number(r.launch_ms), number(r.predicted_ms),
                    p.corrected_ms ? number(*p.corrected_ms) : "", p.measured_ms ? number(*p.measured_ms) : ""});
  }
  void finish(const std::vector<DeviceTotal>&) override { csv_.flush(); }

 private:
  CsvWriter csv_;
};

// The document nlohmann::json would write for {"format", "model", "predictions", "profile",
// "totals", "version"}, keys in its (sorted) order (formats.md, prediction version 2).
class PredictionJsonPrinter : public PredictionPrinter {
 public:
  PredictionJsonPrinter(std::ostream& out, std::string profile_source, const std::string& model)
      : out_(out), json_(out), profile_source_(std::move(profile_source)) {
    json_.begin_object();
    json_.member("format", "roofcast-prediction");
    json_.member("model", model);
    json_.key("predictions");
    json_.begin_array();
  }
  void add(const KernelPrediction& p) override {
    json_.begin_object();
    json_.member("E_util", p.E_util);
    json_.member("bound", to_string(p.prediction.bound));
    json_.member("corrected_error", p.corrected_error);
    json_.member("corrected_ms", p.corrected_ms);
    json_.key("details");
    if (const ThesisPrediction* t = p.prediction.thesis()) write_thesis(p.parameters, *t);
    if (const PipesPrediction* r = p.prediction.pipes()) write_pipes(*r);
    json_.member("device", p.device);
    json_.member("error", p.error);
    json_.member("kernel", p.kernel);
    json_.member("limiter", p.prediction.limiter);
    json_.member("measured_ms", p.measured_ms);
    json_.member("predicted_ms", p.predicted_ms());
    json_.end_object();
  }
  void finish(const std::vector<DeviceTotal>& totals) override {
    json_.end_array();
    json_.member("profile", profile_source_);
    json_.key("totals");
    json_.begin_array();
    for (const auto& t : totals) {
      json_.begin_object();
      json_.member("compute_bound_kernels", t.compute_bound_kernels);
      json_.member("corrected_ms", t.corrected_ms);
      json_.member("device", t.device);
      json_.member("measured_ms", t.measured_ms);
      json_.member("memory_bound_kernels", t.memory_bound_kernels);
      json_.member("predicted_ms", t.predicted_ms);
      json_.end_object();
    }
    json_.end_array();
    json_.member("version", 2);
    json_.end_object();
    out_ << "\n";
  }

 private:
  void write_thesis(const KernelParameters& k, const ThesisPrediction& t) {
    json_.begin_object();
    json_.member("C_ldst", t.C_ldst);
    json_.member("C_op", t.C_op);
    json_.member("C_other", t.C_other);
    json_.member("D_ldst", k.D_ldst);
    json_.member("D_ops", k.D_ops);
    json_.member("D_other", k.D_other());
    json_.member("E_instr", t.E_instr);
    json_.member("E_mix", k.E_mix);
    json_.member("K_type", to_string(k.type));
    json_.member("O_dev", t.O_dev);
    json_.member("O_krn", t.O_krn);  // JSON has no infinity: a kernel with no DRAM traffic has O_krn null
    json_.member("T_op", t.T_op);
    json_.member("T_op_adjusted", t.T_op_adjusted);
    json_.member("T_predicted", t.T_predicted);
    json_.member("W_comp", k.W_comp);
    json_.member("W_ldst", t.W_ldst);
    json_.member("W_op", t.W_op);
    json_.member("W_other", t.W_other);
    json_.member("W_traf", k.W_traf);
    json_.end_object();
  }
  void write_pipes(const PipesPrediction& r) {
    json_.begin_object();
    json_.member("blocks_per_launch", r.blocks);
    json_.member("blocks_per_sm", r.blocks_per_sm);
    write_costs("compute_costs_ms", r.compute);
    json_.member("compute_ms", r.compute_ms);
    json_.member("compute_wave_factor", r.compute_wave_factor);
    write_latency(r.latency);
    json_.member("latency_ms", r.latency.ms);
    json_.member("launch_ms", r.launch_ms);
    json_.member("measured_pipes", r.work.measured_pipes);
    write_costs("memory_costs_ms", r.memory);
    json_.member("memory_ms", r.memory_ms);
    json_.key("notes");
    json_.begin_array();
    for (const auto& note : r.notes) json_.value(note);
    json_.end_array();
    json_.member("occupancy_limiter", r.occupancy_limiter);
    write_numbers("pipe_instructions", r.work.pipe_instructions);
    write_numbers("tensor_ops", r.work.tensor_ops);
    json_.end_object();
  }
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

}  // namespace

std::unique_ptr<PredictionPrinter> prediction_printer(const std::string& format, std::ostream& out,
                                                      const std::string& profile_source, const std::string& model,
                                                      bool corrected) {
  if (format == "json") return std::make_unique<PredictionJsonPrinter>(out, profile_source, model);
  if (format == "csv") return std::make_unique<PredictionCsvPrinter>(out, model);
  return std::make_unique<PredictionTablePrinter>(out, model, corrected, format == "markdown");
}

}  // namespace roofcast
