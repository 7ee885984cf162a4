#include "output/prediction_output.hpp"

#include <cmath>

#include <fmt/format.h>

#include "output/table.hpp"

namespace roofcast {

namespace {

using nlohmann::json;

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
json optional_number(const std::optional<double>& value) { return value ? json(*value) : json(nullptr); }
// JSON has no infinity: a kernel with no DRAM traffic has O_krn null.
json finite_or_null(double value) { return std::isfinite(value) ? json(value) : json(nullptr); }
std::string csv_number(double value) { return std::isfinite(value) ? fmt::format("{}", value) : "inf"; }
std::string csv_optional(const std::optional<double>& value) { return value ? csv_number(*value) : ""; }

}  // namespace

std::string prediction_table_text(const ProfilePrediction& prediction, bool corrected) {
  Table table;
  table.columns = {{"kernel", false}, {"device", false}, {"type", false}, {"bound", false},
                   {"E_mix %"},       {"E_instr %"},     {"T'_op G/s"},   {"O_krn"},
                   {"O_dev"},         {"predicted ms"}};
  if (corrected) table.columns.insert(table.columns.end(), {{"E_util"}, {"corrected ms"}});
  table.columns.insert(table.columns.end(), {{"measured ms"}, {"error %"}});
  if (corrected) table.columns.push_back({"corrected error %"});
  for (const auto& p : prediction.kernels) {
    std::vector<std::string> row = {p.kernel, p.device, std::string(to_string(p.parameters.type)),
                                    to_string(p.thesis.bound), percent(p.parameters.E_mix),
                                    percent(p.thesis.E_instr), fixed(p.thesis.T_op_adjusted, 2),
                                    fixed(p.thesis.O_krn, 2), fixed(p.thesis.O_dev, 2), fixed(p.thesis.predicted_ms, 3)};
    if (corrected) {
      row.push_back(optional_fixed(p.E_util, 3));
      row.push_back(optional_fixed(p.corrected_ms, 3));
    }
    row.push_back(optional_fixed(p.measured_ms, 3));
    row.push_back(signed_percent(p.error));
    if (corrected) row.push_back(signed_percent(p.corrected_error));
    table.add_row(std::move(row));
  }
  std::string out = render_text(table);

  Table totals;
  totals.columns = {{"device", false}, {"kernels"}, {"memory bound"}, {"compute bound"}, {"predicted ms"}};
  if (corrected) totals.columns.push_back({"corrected ms"});
  totals.columns.push_back({"measured ms"});
  for (const auto& t : prediction.totals) {
    std::vector<std::string> row = {t.device, fmt::format("{}", t.memory_bound_kernels + t.compute_bound_kernels),
                                    fmt::format("{}", t.memory_bound_kernels),
                                    fmt::format("{}", t.compute_bound_kernels), fixed(t.predicted_ms, 3)};
    if (corrected) row.push_back(optional_fixed(t.corrected_ms, 3));
    row.push_back(optional_fixed(t.measured_ms, 3));
    totals.add_row(std::move(row));
  }
  return out + "\nTotals per device\n" + render_text(totals);
}

std::string prediction_csv(const ProfilePrediction& prediction) {
  Table table;
  for (const char* header :
       {"kernel", "device", "K_type", "bound", "predicted_ms", "measured_ms", "error", "E_util", "corrected_ms",
        "corrected_error", "W_comp", "W_traf", "E_mix", "D_ops", "D_ldst", "D_other", "T_op", "W_op", "W_ldst",
        "W_other", "C_op", "C_ldst", "C_other", "E_instr", "T_op_adjusted", "O_krn", "O_dev", "T_predicted"})
    table.columns.push_back({header});
  for (const auto& p : prediction.kernels) {
    const auto& k = p.parameters;
    const auto& t = p.thesis;
    table.add_row({p.kernel, p.device, std::string(to_string(k.type)), to_string(t.bound), csv_number(t.predicted_ms),
                   csv_optional(p.measured_ms), csv_optional(p.error), csv_optional(p.E_util),
                   csv_optional(p.corrected_ms), csv_optional(p.corrected_error), csv_number(k.W_comp),
                   csv_number(k.W_traf), csv_number(k.E_mix), csv_number(k.D_ops), csv_number(k.D_ldst),
                   csv_number(k.D_other()), csv_number(t.T_op), csv_number(t.W_op), csv_number(t.W_ldst),
                   csv_number(t.W_other), csv_number(t.C_op), csv_number(t.C_ldst), csv_number(t.C_other),
                   csv_number(t.E_instr), csv_number(t.T_op_adjusted), csv_number(t.O_krn), csv_number(t.O_dev),
                   csv_number(t.T_predicted)});
  }
  return render_csv(table);
}

json prediction_json(const ProfilePrediction& prediction, const std::string& profile_source) {
  json predictions = json::array();
  for (const auto& p : prediction.kernels) {
    const auto& k = p.parameters;
    const auto& t = p.thesis;
    predictions.push_back({
        {"kernel", p.kernel},
        {"device", p.device},
        {"predicted_ms", t.predicted_ms},
        {"bound", to_string(t.bound)},
        {"E_mix", k.E_mix},
        {"E_instr", t.E_instr},
        {"T_op_adjusted", t.T_op_adjusted},
        {"O_krn", finite_or_null(t.O_krn)},
        {"O_dev", t.O_dev},
        {"K_type", to_string(k.type)},
        {"W_comp", k.W_comp},
        {"W_traf", k.W_traf},
        {"D_ops", k.D_ops},
        {"D_ldst", k.D_ldst},
        {"D_other", k.D_other()},
        {"T_op", t.T_op},
        {"W_op", t.W_op},
        {"W_ldst", t.W_ldst},
        {"W_other", t.W_other},
        {"C_op", t.C_op},
        {"C_ldst", t.C_ldst},
        {"C_other", t.C_other},
        {"T_predicted", t.T_predicted},
        {"measured_ms", optional_number(p.measured_ms)},
        {"error", optional_number(p.error)},
        {"E_util", optional_number(p.E_util)},
        {"corrected_ms", optional_number(p.corrected_ms)},
        {"corrected_error", optional_number(p.corrected_error)},
    });
  }
  json totals = json::array();
  for (const auto& t : prediction.totals) {
    totals.push_back({{"device", t.device},
                      {"predicted_ms", t.predicted_ms},
                      {"measured_ms", optional_number(t.measured_ms)},
                      {"corrected_ms", optional_number(t.corrected_ms)},
                      {"memory_bound_kernels", t.memory_bound_kernels},
                      {"compute_bound_kernels", t.compute_bound_kernels}});
  }
  return {{"format", "roofcast-prediction"}, {"version", 1},          {"model", "thesis"},
          {"profile", profile_source},        {"predictions", predictions}, {"totals", totals}};
}

}  // namespace roofcast
