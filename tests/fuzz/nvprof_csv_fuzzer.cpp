// Fuzz target: `roofcast import nvprof` (the nvprof --csv --metrics reader), then the profile it
// makes read back as `roofcast import` reads it, and predicted on every bundled device.
#include "fuzz_checks.hpp"
#include "roofcast/profiler/importers.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return roofcast::fuzz::run_reader(data, size, [](std::string_view text) {
    roofcast::fuzz::check_imported_profile(
        roofcast::profiler::import_nvprof_csv(text, roofcast::fuzz::kSource, "fuzz device"));
  });
}
