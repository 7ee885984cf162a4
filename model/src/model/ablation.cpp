#include "roofcast/model/ablation.hpp"

namespace roofcast {

std::vector<ModelVariant> ablation_variants() {
  std::vector<ModelVariant> variants = {{"thesis", thesis_predictor()}, {"pipes", pipes_predictor()}};
  for (const auto& term : pipes_term_names()) {
    PipesTerms terms;
    terms.*term.term = false;
    variants.push_back({std::string("pipes without ") + term.name, pipes_predictor(terms)});
  }
  return variants;
}

}  // namespace roofcast
