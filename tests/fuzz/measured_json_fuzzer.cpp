// Fuzz target: the measured-times JSON reader (`roofcast profile --timing-only`, formats.md),
// every time it holds checked, then the file written and read back.
#include "fuzz_checks.hpp"
#include "roofcast/formats/measured_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace roofcast;
  return fuzz::run_reader(data, size, [](std::string_view text) {
    const MeasuredTimes times = parse_measured_times(text, fuzz::kSource);
    for (const auto& kernel : times.kernels) {
      if (kernel.invocations < 1) fuzz::finding("invocations below 1", kernel.name);
      for (const double ms : {kernel.measured_ms, kernel.min_ms, kernel.median_ms, kernel.max_ms})
        fuzz::check_finite_non_negative(ms, "a measured time of " + kernel.name);
    }
    fuzz::check_reads_back("the measured times as written do not read back",
                           [&] { parse_measured_times(to_json(times).dump(), fuzz::kSource); });
  });
}
