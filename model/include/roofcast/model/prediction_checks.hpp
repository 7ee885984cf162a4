#pragma once

#include <cmath>
#include <string>
#include <string_view>

#include "roofcast/model/pipes_prediction.hpp"
#include "roofcast/model/thesis_prediction.hpp"

namespace roofcast {

// Every time, rate and cost a prediction reports must be a finite number >= 0 (the one
// exception: a thesis O_krn of +infinity, a kernel with no DRAM traffic, written as null).
// Inputs within the readers' ranges (input_limits.hpp) cannot break this; a profile or device
// built another way can. These throw an InputError naming the kernel, the device and the value,
// so a command fails rather than print NaN, inf or a negative time.
void check_prediction(const ThesisPrediction& p, const std::string& kernel, const std::string& device);
void check_prediction(const PipesPrediction& p, const std::string& kernel, const std::string& device);
// Throws the InputError above for `value`, which is not a finite number >= 0.
[[noreturn, gnu::cold]] void throw_bad_predicted_value(double value, std::string_view field, const std::string& kernel,
                                                      const std::string& device);
// Inline: every prediction checks a dozen values, and almost none fails.
inline void check_predicted_value(double value, std::string_view field, const std::string& kernel,
                                  const std::string& device) {
  if (!std::isfinite(value) || value < 0) throw_bad_predicted_value(value, field, kernel, device);
}

}  // namespace roofcast
