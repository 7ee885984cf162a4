// Fuzz target: the validation JSON reader of `roofcast plot accuracy`, then the accuracy chart
// drawn from what it read (its script and data, without running gnuplot).
#include "fuzz_checks.hpp"
#include "roofcast/plots/accuracy_chart.hpp"
#include "roofcast/formats/validation_json.hpp"
#include "roofcast/plots/validation_entries.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace roofcast;
  return fuzz::run_reader(data, size, [](std::string_view text) {
    const std::vector<AccuracyEntry> entries = parse_validation_file(text, fuzz::kSource).entries;
    for (const auto& entry : entries) {
      const std::string where = entry.kernel + " on " + entry.device;
      fuzz::check_finite_non_negative(entry.predicted_ms, "predicted_ms of " + where);
      fuzz::check_finite_non_negative(entry.measured_ms, "measured_ms of " + where);
      if (entry.corrected_ms) fuzz::check_finite_non_negative(*entry.corrected_ms, "corrected_ms of " + where);
      fuzz::check_finite_non_negative(entry.absolute_percentage_error(), "the APE of " + where);
    }
    if (!entries.empty()) accuracy_chart(entries, "fuzz", *chart_target_for("accuracy.svg"));
  });
}
