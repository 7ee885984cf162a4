// Fuzz target: the kernel-profile JSON reader (formats.md), then the profile predicted on every
// bundled device with both models, then the profile written and read back.
#include "fuzz_checks.hpp"
#include "roofcast/formats/profile_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace roofcast;
  return fuzz::run_reader(data, size, [](std::string_view text) {
    const KernelProfile profile = parse_kernel_profile(text, fuzz::kSource);
    fuzz::check_profile(profile);
    fuzz::predict_and_check(profile, fuzz::bundled_devices_for_fuzzing());
    fuzz::check_reads_back("the profile as written does not read back",
                           [&] { parse_kernel_profile(to_json(profile).dump(), fuzz::kSource); });
  });
}
