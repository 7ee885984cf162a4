// The terminal and markdown outputs of `roofcast validate`.
#include <catch2/catch.hpp>

#include "roofcast/output/validation_output.hpp"

using namespace roofcast;

TEST_CASE("the markdown report has both summaries, every prediction, and the misses with hints") {
  ValidatedPrediction hit, miss;
  hit.kernel = "hit";
  hit.device = "R";
  hit.predicted_ms = 9;
  hit.measured_ms = 10;
  miss = hit;
  miss.kernel = "miss";
  miss.device = "T";
  miss.predicted_ms = 1;
  miss.corrected_ms = 9.5;
  const auto report = summarize_validation("thesis", "R", {hit, miss});
  const std::string md = validation_markdown(report, {"roofcast validate ...", "2026-11-22 01:00 UTC", {"x on T"}, {}});
  CHECK_THAT(md, Catch::Contains("## Accuracy\n") && Catch::Contains("## Accuracy with the utilization correction") &&
                     Catch::Contains("| all devices | 2 | 50.0 | 50.0 | 50.0 | 50.0 | 50.0 | 0 | 2 |") &&
                     Catch::Contains("- `miss` on T: -90.0 %") && Catch::Contains("  - compute bound, yet slower") &&
                     Catch::Contains("- not measured, left out: x on T"));
  CHECK_THAT(md, !Catch::Contains("- `hit`"));
  const std::string text = validation_table_text(report);
  CHECK_THAT(text, Catch::Contains("Accuracy without correction") && Catch::Contains("all devices"));
}
