#include "roofcast/model/ablation.hpp"

namespace roofcast {

std::vector<ModelVariant> ablation_variants() {
  std::vector<ModelVariant> variants = {{"thesis", make_predictor("thesis")}, {"pipes", make_predictor("pipes")}};
  for (const auto& term : pipes_term_names()) {
    const std::string name = pipes_model_without({term.name});
    variants.push_back({name, make_predictor(name)});
  }
  return variants;
}

}  // namespace roofcast
