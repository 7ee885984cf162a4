#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/pipes_prediction.hpp"
#include "roofcast/model/thesis_prediction.hpp"

namespace roofcast {

// The model every command uses unless given --model.
inline constexpr const char* kDefaultModel = "pipes";
// The models make_predictor knows, the default first.
const std::vector<std::string>& model_names();

// One model's prediction of a kernel's time on a device: what every model gives (time, bound,
// limiter), and the model's own intermediate values in `details`.
struct ModelPrediction {
  double predicted_ms = 0;
  Bound bound = Bound::compute;
  // What sets the time: "compute" or "memory" for the thesis model; the pipes model's limiter
  // ("fma pipe", "DRAM", "latency (memory)", "launch"...).
  std::string limiter;
  // The pipes model's values are large (every cost, the kernel's work): held apart, so that a
  // million held predictions stay small; a holder may drop them (null) where they are not shown.
  std::variant<ThesisPrediction, std::shared_ptr<const PipesPrediction>> details;

  const ThesisPrediction* thesis() const { return std::get_if<ThesisPrediction>(&details); }
  const PipesPrediction* pipes() const {
    const auto* held = std::get_if<std::shared_ptr<const PipesPrediction>>(&details);
    return held ? held->get() : nullptr;
  }
};

// A prediction model: the thesis model, the multi-pipeline model, or a variant of one with a
// term switched off (`validate --ablation`). Every command predicts through this interface.
class Predictor {
 public:
  virtual ~Predictor() = default;
  // "thesis", "pipes", "pipes without waves"...
  virtual const std::string& name() const = 0;
  virtual ModelPrediction predict(const KernelRecord& kernel, const DeviceProfile& device) const = 0;
  // What a model computes from the devices alone (the pipes model's rates): made once by
  // prepare() for the many ranges of one set of devices and shared by their threads.
  class PreparedDevices {
   public:
    virtual ~PreparedDevices() = default;
  };
  virtual std::shared_ptr<const PreparedDevices> prepare(const std::vector<DeviceProfile>& devices) const;
  // Kernels [first, last) (`kernel` counts from 0 in `kernels`) on every device, kernel-major,
  // each prediction to `visit` as it is made (a million of them are never held at once); one
  // range per thread (predict on 100,000 kernels). A model computes what depends only on a
  // kernel or only on a device once here, and the storage of details no one kept (the visitor
  // let go of its share) is reused for the next prediction. `prepared`: prepare(devices), or
  // null to make it here.
  virtual void predict_range(const std::vector<KernelRecord>& kernels, size_t first, size_t last,
                             const std::vector<DeviceProfile>& devices, const PreparedDevices* prepared,
                             const std::function<void(size_t kernel, size_t device, ModelPrediction&&)>& visit) const;
  // The model's calibration from the kernel's measured time on the reference device: the
  // thesis model scales by E_util = measured / predicted there (eq. 5.13); the pipes model
  // scales its limiting side only (calibrated_pipes_ms).
  virtual double calibrated_ms(const KernelRecord& kernel, const DeviceProfile& target,
                               const DeviceProfile& reference, double measured_on_reference_ms) const = 0;
  // The same from this model's predictions of the kernel on the target and on the reference,
  // already made (predict_profile makes each once, not again for every calibration).
  virtual double calibrated_ms(const KernelRecord& kernel, const DeviceProfile& target,
                               const ModelPrediction& on_target, const ModelPrediction& on_reference,
                               double measured_on_reference_ms) const = 0;
};

// "thesis", "pipes" (the pipes model with `terms`), or "pipes without a, b" (the same with the
// terms named as in pipes_term_names() switched off as well); throws std::invalid_argument
// naming the model or the term and the known ones otherwise.
std::shared_ptr<const Predictor> make_predictor(const std::string& name, const PipesTerms& terms = {});
// The name of the pipes model with `terms_off` switched off, as make_predictor takes it and every
// output names the model: "pipes", or "pipes without a, b" (in the order of pipes_term_names(),
// each once). Throws std::invalid_argument naming an unknown term.
std::string pipes_model_without(const std::vector<std::string>& terms_off);
// The terms of "pipes" or "pipes without a, b"; throws std::invalid_argument for another model or
// an unknown term.
PipesTerms pipes_terms_of_model(const std::string& name);
// The pipes model with these terms, under `name` (an ablation variant).
std::shared_ptr<const Predictor> make_pipes_predictor(const std::string& name, const PipesTerms& terms);

}  // namespace roofcast
