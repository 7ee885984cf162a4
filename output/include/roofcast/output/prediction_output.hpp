#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "roofcast/model/prediction_stream.hpp"
#include "roofcast/model/profile_prediction.hpp"

namespace roofcast {

// The outputs of `roofcast predict` (formats.md), printed one prediction at a time: a profile
// of 100,000 kernels on 10 devices makes a million, which are never all held at once (the
// table keeps only its formatted cells, to align them). Every model's predictions print through
// the same printers; the model's own values go to its columns and to the JSON's "details".
//
// A printer is also a PredictionSink: stream_predictions (model/prediction_stream.hpp) formats
// its rows on every core, one range of kernels each, and writes them in the kernels' order;
// the output is the same as add()'s, one prediction at a time.
class PredictionPrinter : public PredictionSink {
 public:
  virtual void add(const KernelPrediction& prediction) = 0;
  virtual void finish(const std::vector<DeviceTotal>& totals) = 0;
};
// `format`: "table", "csv", "json" or "markdown"; `model`: the predictor's name ("thesis",
// "pipes"); `corrected`: the table's calibration columns.
std::unique_ptr<PredictionPrinter> prediction_printer(const std::string& format, std::ostream& out,
                                                      const std::string& profile_source, const std::string& model,
                                                      bool corrected);

}  // namespace roofcast
