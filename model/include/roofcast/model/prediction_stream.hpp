#pragma once

#include <memory>
#include <vector>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/predictor.hpp"
#include "roofcast/model/profile_prediction.hpp"

namespace roofcast {

// The rows of one range of consecutive predictions (a printer's formatted text, say), filled on
// whichever thread predicted them.
class PredictionRows {
 public:
  virtual ~PredictionRows() = default;
  virtual void add(const KernelPrediction& prediction) = 0;
};

// Where stream_predictions sends its predictions: the rows of each range are made apart, then
// written in the kernels' order.
class PredictionSink {
 public:
  virtual ~PredictionSink() = default;
  // Empty rows. Called on one thread at a time, possibly while write() runs on another.
  virtual std::unique_ptr<PredictionRows> rows() const = 0;
  // Takes the rows of the next range, in the kernels' order, one call at a time, and leaves them
  // empty: they are filled again with a later range.
  virtual void write(PredictionRows& rows) = 0;
};

// predict_profile on every core, its predictions streamed to `sink` (kernels in, rows out in
// their order): ranges of kernels are predicted and their rows filled in parallel, then written
// and added to the totals in the kernels' order (tbb::parallel_pipeline), so that the output and
// the totals are those of one thread, to the last bit. Only a few ranges per core are held at a
// time: a million predictions (100,000 kernels x 10 devices) are never held at once. The first
// error in the kernels' order is thrown, as one thread would have, after the rows before it were
// written. Every command that prints predictions as they are made goes through here.
std::vector<DeviceTotal> stream_predictions(const Predictor& predictor, const KernelProfile& profile,
                                            const std::vector<DeviceProfile>& devices, const DeviceProfile* reference,
                                            PredictionSink& sink);

}  // namespace roofcast
