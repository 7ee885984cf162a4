#include "roofcast/model/prediction_checks.hpp"

#include <cmath>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "roofcast/formats/input_error.hpp"

namespace roofcast {

void throw_bad_predicted_value(double value, std::string_view field, const std::string& kernel,
                               const std::string& device) {
  throw InputError(fmt::format("kernel \"{}\" on device \"{}\": {} is {}, not a finite number >= 0; the profile or "
                               "device holds values beyond what the model computes with (docs/formats.md, numbers "
                               "every reader accepts)",
                               kernel, device, field, value));
}

void check_prediction(const ThesisPrediction& p, const std::string& kernel, const std::string& device) {
  const std::pair<std::string_view, double> values[] = {
      {"T_op", p.T_op},     {"W_op", p.W_op},       {"W_ldst", p.W_ldst}, {"W_other", p.W_other},
      {"C_op", p.C_op},     {"C_ldst", p.C_ldst},   {"C_other", p.C_other}, {"E_instr", p.E_instr},
      {"T_op_adjusted", p.T_op_adjusted},           {"O_dev", p.O_dev},   {"T_predicted", p.T_predicted},
      {"predicted_ms", p.predicted_ms}};
  for (const auto& [field, value] : values) check_predicted_value(value, field, kernel, device);
  if (std::isnan(p.O_krn) || p.O_krn < 0) check_predicted_value(p.O_krn, "O_krn", kernel, device);
}

void check_prediction(const PipesPrediction& p, const std::string& kernel, const std::string& device) {
  for (const auto* costs : {&p.compute, &p.memory})
    for (const auto& cost : *costs)
      if (!std::isfinite(cost.ms) || cost.ms < 0)  // the field's name formatted only for the error
        check_predicted_value(cost.ms, fmt::format("{} cost (ms)", cost.name), kernel, device);
  const std::pair<std::string_view, double> values[] = {{"compute_ms", p.compute_ms},
                                                   {"memory_ms", p.memory_ms},
                                                   {"blocks_per_launch", p.blocks},
                                                   {"compute_wave_factor", p.compute_wave_factor},
                                                   {"latency_ms", p.latency.ms},
                                                   {"launch_ms", p.launch_ms},
                                                   {"dispatch_ms", p.dispatch_ms},
                                                   {"predicted_ms", p.predicted_ms}};
  for (const auto& [field, value] : values) check_predicted_value(value, field, kernel, device);
}

}  // namespace roofcast
