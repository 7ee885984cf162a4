#include "roofcast/model/ablation.hpp"

namespace roofcast {

std::vector<ModelVariant> ablation_variants() {
  std::vector<ModelVariant> variants = {{"thesis", make_predictor("thesis")}, {"pipes", make_predictor("pipes")}};
  for (const auto& term : pipes_term_names()) {
    PipesTerms terms;
    terms.*term.term = false;
    const std::string name = std::string("pipes without ") + term.name;
    variants.push_back({name, make_pipes_predictor(name, terms)});
  }
  return variants;
}

}  // namespace roofcast
