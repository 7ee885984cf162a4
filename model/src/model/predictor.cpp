#include "roofcast/model/predictor.hpp"

#include <algorithm>
#include <stdexcept>
#include <string_view>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofcast/model/device_rates.hpp"
#include "roofcast/model/kernel_parameters.hpp"
#include "roofcast/model/kernel_work.hpp"
#include "roofcast/model/prediction_checks.hpp"

namespace roofcast {

namespace {

ModelPrediction from_thesis(const ThesisPrediction& p) {
  return {p.predicted_ms, p.bound, to_string(p.bound), p};
}

ModelPrediction from_pipes(std::shared_ptr<const PipesPrediction> p) {
  ModelPrediction result{p->predicted_ms, p->bound, p->limiter, {}};
  result.details = std::move(p);
  return result;
}
ModelPrediction from_pipes(PipesPrediction&& p) { return from_pipes(std::make_shared<const PipesPrediction>(std::move(p))); }

class ThesisPredictor : public Predictor {
 public:
  const std::string& name() const override { return name_; }
  ModelPrediction predict(const KernelRecord& kernel, const DeviceProfile& device) const override {
    return predict(kernel, kernel_parameters_of(kernel), device);
  }
  void predict_range(const std::vector<KernelRecord>& kernels, size_t first, size_t last,
                     const std::vector<DeviceProfile>& devices, const PreparedDevices*,
                     const std::function<void(size_t, size_t, ModelPrediction&&)>& visit) const override {
    for (size_t k = first; k < last; ++k) {
      const KernelParameters parameters = kernel_parameters_of(kernels[k]);
      for (size_t d = 0; d < devices.size(); ++d) visit(k, d, predict(kernels[k], parameters, devices[d]));
    }
  }
  double calibrated_ms(const KernelRecord& kernel, const DeviceProfile& target, const DeviceProfile& reference,
                       double measured_on_reference_ms) const override {
    const KernelParameters parameters = kernel_parameters_of(kernel);
    const double on_reference = predict(kernel, parameters, reference).predicted_ms;
    const double corrected =
        utilization_factor(measured_on_reference_ms, on_reference) * predict(kernel, parameters, target).predicted_ms;
    check_predicted_value(corrected, "corrected_ms", kernel.name, target.name);
    return corrected;
  }
  double calibrated_ms(const KernelRecord& kernel, const DeviceProfile& target, const ModelPrediction& on_target,
                       const ModelPrediction& on_reference, double measured_on_reference_ms) const override {
    const double corrected = utilization_factor(measured_on_reference_ms, on_reference.predicted_ms) * on_target.predicted_ms;
    check_predicted_value(corrected, "corrected_ms", kernel.name, target.name);
    return corrected;
  }

 private:
  static ModelPrediction predict(const KernelRecord& kernel, const KernelParameters& parameters,
                                 const DeviceProfile& device) {
    const ThesisPrediction p = predict_thesis(parameters, device.throughput);
    check_prediction(p, kernel.name, device.name);
    return from_thesis(p);
  }
  std::string name_ = "thesis";
};

// The pipes model's rates of each device.
struct PipesDevices : Predictor::PreparedDevices {
  std::vector<DeviceRates> rates;
};

class PipesPredictor : public Predictor {
 public:
  PipesPredictor(std::string name, const PipesTerms& terms) : name_(std::move(name)), terms_(terms) {}
  const std::string& name() const override { return name_; }
  ModelPrediction predict(const KernelRecord& kernel, const DeviceProfile& device) const override {
    return from_pipes(predict_pipes(kernel, device, terms_));
  }
  std::shared_ptr<const PreparedDevices> prepare(const std::vector<DeviceProfile>& devices) const override {
    auto prepared = std::make_shared<PipesDevices>();
    prepared->rates.reserve(devices.size());
    for (const auto& device : devices) prepared->rates.push_back(device_rates_of(device));
    return prepared;
  }
  void predict_range(const std::vector<KernelRecord>& kernels, size_t first, size_t last,
                     const std::vector<DeviceProfile>& devices, const PreparedDevices* prepared,
                     const std::function<void(size_t, size_t, ModelPrediction&&)>& visit) const override {
    std::shared_ptr<const PreparedDevices> made_here;
    if (prepared == nullptr) {
      made_here = prepare(devices);
      prepared = made_here.get();
    }
    const std::vector<DeviceRates>& rates = static_cast<const PipesDevices&>(*prepared).rates;
    if (rates.size() != devices.size()) throw std::logic_error("predict_range: devices other than those prepared");
    // The last prediction, whose storage the next one reuses where the visitor kept no share of it.
    std::shared_ptr<PipesPrediction> last_made;
    for (size_t k = first; k < last; ++k) {
      const auto work = std::make_shared<const KernelWork>(kernel_work_of(kernels[k]));
      for (size_t d = 0; d < devices.size(); ++d) {
        if (!last_made || last_made.use_count() > 1) last_made = std::make_shared<PipesPrediction>();
        predict_pipes(*last_made, kernels[k], work, devices[d], rates[d], terms_);
        visit(k, d, from_pipes(last_made));
      }
    }
  }
  double calibrated_ms(const KernelRecord& kernel, const DeviceProfile& target, const DeviceProfile& reference,
                       double measured_on_reference_ms) const override {
    return calibrated_pipes_ms(kernel, target, reference, measured_on_reference_ms, terms_);
  }
  double calibrated_ms(const KernelRecord& kernel, const DeviceProfile& target, const ModelPrediction& on_target,
                       const ModelPrediction& on_reference, double measured_on_reference_ms) const override {
    if (!on_target.pipes() || !on_reference.pipes())
      throw std::logic_error("calibrated_ms: pipes predictions without their details");
    return calibrated_pipes_ms(*on_target.pipes(), *on_reference.pipes(), measured_on_reference_ms, kernel.name,
                               target.name);
  }

 private:
  std::string name_;
  PipesTerms terms_;
};

// The name of the pipes model without some terms: "pipes without " and the terms' names.
constexpr std::string_view kPipesWithout = "pipes without ";
constexpr std::string_view kTermSeparator = ", ";

const PipesTermName& pipes_term_named(const std::string& name) {
  for (const auto& term : pipes_term_names())
    if (name == term.name) return term;
  std::vector<std::string> known;
  for (const auto& term : pipes_term_names()) known.emplace_back(term.name);
  throw std::invalid_argument(
      fmt::format("unknown term \"{}\" of the pipes model (known: {})", name, fmt::join(known, ", ")));
}

// `terms` with the terms that a name "pipes without a, b" lists switched off ("pipes": none).
PipesTerms without_named(const std::string& name, PipesTerms terms) {
  if (name == "pipes") return terms;
  if (!name.starts_with(kPipesWithout))
    throw std::invalid_argument("unknown model \"" + name + "\" (known: pipes, thesis, \"pipes without TERM, ...\")");
  for (size_t at = kPipesWithout.size(); at <= name.size();) {
    const size_t end = std::min(name.find(kTermSeparator, at), name.size());
    terms.*pipes_term_named(name.substr(at, end - at)).term = false;
    at = end + kTermSeparator.size();
  }
  return terms;
}

}  // namespace

const std::vector<std::string>& model_names() {
  static const std::vector<std::string> names = {"pipes", "thesis"};
  return names;
}

std::shared_ptr<const Predictor::PreparedDevices> Predictor::prepare(const std::vector<DeviceProfile>&) const {
  return nullptr;
}

void Predictor::predict_range(const std::vector<KernelRecord>& kernels, size_t first, size_t last,
                              const std::vector<DeviceProfile>& devices, const PreparedDevices*,
                              const std::function<void(size_t, size_t, ModelPrediction&&)>& visit) const {
  for (size_t k = first; k < last; ++k)
    for (size_t d = 0; d < devices.size(); ++d) visit(k, d, predict(kernels[k], devices[d]));
}

std::string pipes_model_without(const std::vector<std::string>& terms_off) {
  for (const auto& name : terms_off) pipes_term_named(name);
  std::vector<std::string> off;
  for (const auto& term : pipes_term_names())
    if (std::find(terms_off.begin(), terms_off.end(), term.name) != terms_off.end()) off.emplace_back(term.name);
  return off.empty() ? "pipes" : std::string(kPipesWithout) + fmt::format("{}", fmt::join(off, kTermSeparator));
}

PipesTerms pipes_terms_of_model(const std::string& name) { return without_named(name, {}); }

std::shared_ptr<const Predictor> make_predictor(const std::string& name, const PipesTerms& terms) {
  if (name == "thesis") return std::make_shared<ThesisPredictor>();
  return make_pipes_predictor(name, without_named(name, terms));
}

std::shared_ptr<const Predictor> make_pipes_predictor(const std::string& name, const PipesTerms& terms) {
  return std::make_shared<PipesPredictor>(name, terms);
}

}  // namespace roofcast
