// Fuzz target: the device-profile JSON reader (formats.md), then every bundled kernel profile
// predicted on the device with both models, then the device written and read back.
#include "fuzz_checks.hpp"
#include "roofcast/formats/profile_json.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace roofcast;
  return fuzz::run_reader(data, size, [](std::string_view text) {
    const DeviceProfile device = parse_device_profile(text, fuzz::kSource);
    fuzz::check_device(device);
    for (const auto& profile : fuzz::bundled_profiles_for_fuzzing()) fuzz::predict_and_check(profile, {device});
    fuzz::check_reads_back("the device as written does not read back",
                           [&] { parse_device_profile(to_json(device).dump(), fuzz::kSource); });
  });
}
