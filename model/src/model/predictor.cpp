#include "roofcast/model/predictor.hpp"

#include <stdexcept>

#include "roofcast/model/device_rates.hpp"
#include "roofcast/model/kernel_parameters.hpp"
#include "roofcast/model/kernel_work.hpp"
#include "roofcast/model/prediction_checks.hpp"

namespace roofcast {

namespace {

ModelPrediction from_thesis(const ThesisPrediction& p) {
  return {p.predicted_ms, p.bound, to_string(p.bound), p};
}

ModelPrediction from_pipes(PipesPrediction&& p) {
  ModelPrediction result{p.predicted_ms, p.bound, p.limiter, {}};
  result.details = std::make_shared<const PipesPrediction>(std::move(p));
  return result;
}

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
    for (size_t k = first; k < last; ++k) {
      const auto work = std::make_shared<const KernelWork>(kernel_work_of(kernels[k]));
      for (size_t d = 0; d < devices.size(); ++d)
        visit(k, d, from_pipes(predict_pipes(kernels[k], work, devices[d], rates[d], terms_)));
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

std::shared_ptr<const Predictor> make_predictor(const std::string& name, const PipesTerms& terms) {
  if (name == "thesis") return std::make_shared<ThesisPredictor>();
  if (name == "pipes") return make_pipes_predictor("pipes", terms);
  throw std::invalid_argument("unknown model \"" + name + "\" (known: pipes, thesis)");
}

std::shared_ptr<const Predictor> make_pipes_predictor(const std::string& name, const PipesTerms& terms) {
  return std::make_shared<PipesPredictor>(name, terms);
}

}  // namespace roofcast
