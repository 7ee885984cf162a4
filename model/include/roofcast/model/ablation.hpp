#pragma once

#include <memory>
#include <string>
#include <vector>

#include "roofcast/model/predictor.hpp"
#include "roofcast/model/validation.hpp"

namespace roofcast {

// A model, or the multi-pipeline model with one term switched off, under the name an
// ablation report gives it.
struct ModelVariant {
  std::string name;  // "thesis", "pipes", "pipes without waves"...
  std::shared_ptr<const Predictor> predictor;
};

// The thesis model, the full multi-pipeline model, then that model without each of its
// terms in turn (thesis figure 5.10's idea for E_mix and E_instr).
std::vector<ModelVariant> ablation_variants();

// One variant's accuracy, per device and overall, on the same measurements.
struct AblationRow {
  std::string variant;
  std::vector<AccuracyGroup> devices;
  AccuracyGroup overall;
  std::vector<double> errors;  // every prediction's signed error, to pool with other runs
};

}  // namespace roofcast
