// Fuzz target: the kernel-profile JSON reader (formats.md), then the profile predicted on every
// bundled device with both models, then the profile written and read back. The reader's fast
// path must give what the checked reader gives: the same profile or the same message.
#include "fuzz_checks.hpp"
#include "roofcast/formats/profile_json.hpp"

namespace {

// The profile written back, or the InputError's message.
template <typename Read>
std::string outcome(Read read, std::string_view text) {
  try {
    return roofcast::to_json(read(text, roofcast::fuzz::kSource)).dump();
  } catch (const roofcast::InputError& error) {
    return std::string("error: ") + error.what();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace roofcast;
  return fuzz::run_reader(data, size, [](std::string_view text) {
    const std::string fast = outcome(parse_kernel_profile, text);
    const std::string checked = outcome(parse_kernel_profile_checked, text);
    if (fast != checked) fuzz::finding("the fast path and the checked reader disagree", fast + " | " + checked);
    const KernelProfile profile = parse_kernel_profile(text, fuzz::kSource);
    fuzz::check_profile(profile);
    fuzz::predict_and_check(profile, fuzz::bundled_devices_for_fuzzing());
    fuzz::check_reads_back("the profile as written does not read back",
                           [&] { parse_kernel_profile(to_json(profile).dump(), fuzz::kSource); });
  });
}
