#include "output/prediction_output.hpp"

#include <cmath>

#include <fmt/format.h>

#include "output/json_writer.hpp"
#include "output/table.hpp"

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

std::vector<Table::Column> kernel_columns(bool corrected) {
  std::vector<Table::Column> columns = {{"kernel", false}, {"device", false}, {"type", false}, {"bound", false},
                                        {"E_mix %"},       {"E_instr %"},     {"T'_op G/s"},   {"O_krn"},
                                        {"O_dev"},         {"predicted ms"}};
  if (corrected) columns.insert(columns.end(), {{"E_util"}, {"corrected ms"}});
  columns.insert(columns.end(), {{"measured ms"}, {"error %"}});
  if (corrected) columns.push_back({"corrected error %"});
  return columns;
}

class PredictionTablePrinter : public PredictionPrinter {
 public:
  PredictionTablePrinter(std::ostream& out, bool corrected) : out_(out), corrected_(corrected) {
    table_.columns = kernel_columns(corrected);
  }
  void add(const KernelPrediction& p) override {
    std::vector<std::string> row = {p.kernel, p.device, std::string(to_string(p.parameters.type)),
                                    to_string(p.thesis.bound), percent(p.parameters.E_mix),
                                    percent(p.thesis.E_instr), fixed(p.thesis.T_op_adjusted, 2),
                                    fixed(p.thesis.O_krn, 2), fixed(p.thesis.O_dev, 2), fixed(p.thesis.predicted_ms, 3)};
    if (corrected_) {
      row.push_back(optional_fixed(p.E_util, 3));
      row.push_back(optional_fixed(p.corrected_ms, 3));
    }
    row.push_back(optional_fixed(p.measured_ms, 3));
    row.push_back(signed_percent(p.error));
    if (corrected_) row.push_back(signed_percent(p.corrected_error));
    table_.add_row(row);
  }
  void finish(const std::vector<DeviceTotal>& device_totals) override {
    write_text(table_, out_);
    Table totals;
    totals.columns = {{"device", false}, {"kernels"}, {"memory bound"}, {"compute bound"}, {"predicted ms"}};
    if (corrected_) totals.columns.push_back({"corrected ms"});
    totals.columns.push_back({"measured ms"});
    for (const auto& t : device_totals) {
      std::vector<std::string> row = {t.device, fmt::format("{}", t.memory_bound_kernels + t.compute_bound_kernels),
                                      fmt::format("{}", t.memory_bound_kernels),
                                      fmt::format("{}", t.compute_bound_kernels), fixed(t.predicted_ms, 3)};
      if (corrected_) row.push_back(optional_fixed(t.corrected_ms, 3));
      row.push_back(optional_fixed(t.measured_ms, 3));
      totals.add_row(row);
    }
    out_ << "\nTotals per device\n";
    write_text(totals, out_);
  }

 private:
  std::ostream& out_;
  bool corrected_;
  Table table_;
};

class PredictionCsvPrinter : public PredictionPrinter {
 public:
  explicit PredictionCsvPrinter(std::ostream& out) : csv_(out) {
    csv_.write_row({"kernel", "device", "K_type", "bound", "predicted_ms", "measured_ms", "error", "E_util",
                    "corrected_ms", "corrected_error", "W_comp", "W_traf", "E_mix", "D_ops", "D_ldst", "D_other", "T_op",
                    "W_op", "W_ldst", "W_other", "C_op", "C_ldst", "C_other", "E_instr", "T_op_adjusted", "O_krn",
                    "O_dev", "T_predicted"});
  }
  void add(const KernelPrediction& p) override {
    const auto& k = p.parameters;
    const auto& t = p.thesis;
    csv_.write_row({p.kernel, p.device, std::string(to_string(k.type)), to_string(t.bound), csv_number(t.predicted_ms),
                    csv_optional(p.measured_ms), csv_optional(p.error), csv_optional(p.E_util),
                    csv_optional(p.corrected_ms), csv_optional(p.corrected_error), csv_number(k.W_comp),
                    csv_number(k.W_traf), csv_number(k.E_mix), csv_number(k.D_ops), csv_number(k.D_ldst),
                    csv_number(k.D_other()), csv_number(t.T_op), csv_number(t.W_op), csv_number(t.W_ldst),
                    csv_number(t.W_other), csv_number(t.C_op), csv_number(t.C_ldst), csv_number(t.C_other),
                    csv_number(t.E_instr), csv_number(t.T_op_adjusted), csv_number(t.O_krn), csv_number(t.O_dev),
                    csv_number(t.T_predicted)});
  }
  void finish(const std::vector<DeviceTotal>&) override { csv_.flush(); }

 private:
  CsvWriter csv_;
};

// The document nlohmann::json would write for {"format", "model", "predictions", "profile",
// "totals", "version"}, keys in its (sorted) order.
class PredictionJsonPrinter : public PredictionPrinter {
 public:
  PredictionJsonPrinter(std::ostream& out, std::string profile_source)
      : out_(out), json_(out), profile_source_(std::move(profile_source)) {
    begin_prediction_document(json_, "thesis");
  }
  void add(const KernelPrediction& p) override {
    const auto& k = p.parameters;
    const auto& t = p.thesis;
    json_.begin_object();
    json_.member("C_ldst", t.C_ldst);
    json_.member("C_op", t.C_op);
    json_.member("C_other", t.C_other);
    json_.member("D_ldst", k.D_ldst);
    json_.member("D_ops", k.D_ops);
    json_.member("D_other", k.D_other());
    json_.member("E_instr", t.E_instr);
    json_.member("E_mix", k.E_mix);
    json_.member("E_util", p.E_util);
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
    json_.member("bound", to_string(t.bound));
    json_.member("corrected_error", p.corrected_error);
    json_.member("corrected_ms", p.corrected_ms);
    json_.member("device", p.device);
    json_.member("error", p.error);
    json_.member("kernel", p.kernel);
    json_.member("measured_ms", p.measured_ms);
    json_.member("predicted_ms", t.predicted_ms);
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
    json_.member("version", 1);
    json_.end_object();
    out_ << "\n";
  }

 private:
  std::ostream& out_;
  JsonWriter json_;
  std::string profile_source_;
};

}  // namespace

void begin_prediction_document(JsonWriter& json, std::string_view model) {
  json.begin_object();
  json.member("format", "roofcast-prediction");
  json.member("model", model);
  json.key("predictions");
  json.begin_array();
}

std::unique_ptr<PredictionPrinter> prediction_printer(const std::string& format, std::ostream& out,
                                                      const std::string& profile_source, bool corrected) {
  if (format == "json") return std::make_unique<PredictionJsonPrinter>(out, profile_source);
  if (format == "csv") return std::make_unique<PredictionCsvPrinter>(out);
  return std::make_unique<PredictionTablePrinter>(out, corrected);
}

}  // namespace roofcast
