#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "output/json_writer.hpp"
#include "roofcast/model/profile_prediction.hpp"

namespace roofcast {

// The three outputs of `roofcast predict` (formats.md), printed one prediction at a time: a
// profile of 100,000 kernels on 10 devices makes a million, which are never all held at once
// (the table keeps only its formatted cells, to align them).
class PredictionPrinter {
 public:
  virtual ~PredictionPrinter() = default;
  virtual void add(const KernelPrediction& prediction) = 0;
  virtual void finish(const std::vector<DeviceTotal>& totals) = 0;
};
// `format`: "table", "csv" or "json"; `corrected`: the table's utilization-correction columns.
std::unique_ptr<PredictionPrinter> prediction_printer(const std::string& format, std::ostream& out,
                                                      const std::string& profile_source, bool corrected);

// Opens the prediction document (formats.md) that `predict --format json` writes for `model`,
// up to its "predictions" array; the printers then write the predictions and close it.
void begin_prediction_document(JsonWriter& json, std::string_view model);

}  // namespace roofcast
