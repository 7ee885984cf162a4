#pragma once
// What every fuzz target checks (docs/fuzzing.md): a reader either parses its input or throws an
// InputError that names the file; anything else (another exception, a crash, a sanitizer report,
// a hang) is a finding. What parses is then predicted where that makes sense, and every number of
// the result must be finite and >= 0. A failed check prints one line and aborts, which libFuzzer
// reports as a crash and saves as crash-<hash>.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/pipes_prediction.hpp"

namespace roofcast::fuzz {

// The file name every target gives its reader; an InputError must name it.
inline constexpr const char* kSource = "fuzz-input";

[[noreturn]] void finding(std::string_view what, std::string_view detail);

// Runs `read(text)` on the fuzzer's input; an InputError naming kSource is the expected answer
// to bad input.
template <typename Read>
int run_reader(const uint8_t* data, size_t size, Read read) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    read(text);
  } catch (const InputError& error) {
    if (std::string_view(error.what()).find(kSource) == std::string_view::npos)
      finding("an InputError that does not name the file", error.what());
  } catch (const std::exception& error) {
    finding("an exception other than InputError", error.what());
  } catch (...) {
    finding("an exception other than InputError", "not a std::exception");
  }
  return 0;
}

// Aborts unless `value` is finite and >= 0; `what` names the number.
void check_finite_non_negative(double value, std::string_view what);

// Every number a parsed device profile or kernel profile holds is finite and >= 0 (and a
// kernel's invocations >= 1).
void check_device(const DeviceProfile& device);
void check_profile(const KernelProfile& profile);

// A file roofcast wrote from what it read must read back: an InputError here is a finding.
template <typename Read>
void check_reads_back(std::string_view what, Read read) {
  try {
    read();
  } catch (const InputError& error) {
    finding(what, error.what());
  }
}

// Every number of a pipes-model prediction is finite and >= 0; `where` names the kernel and device.
void check_pipes(const PipesPrediction& prediction, const std::string& where);

// Predicts every kernel of `profile` on every device in `devices` with the thesis model (with
// the utilization correction when the profile's reference device is among them) and with the
// pipes model, and checks every number of both.
void predict_and_check(const KernelProfile& profile, const std::vector<DeviceProfile>& devices);

// A profile an importer or the collector made (`roofcast import`, `roofcast profile`): read back
// as the command reads it, checked
// (check_profile) and predicted on every bundled device (predict_and_check).
void check_imported_profile(const nlohmann::json& imported);

// The bundled device profiles and kernel profiles, parsed once.
const std::vector<DeviceProfile>& bundled_devices_for_fuzzing();
const std::vector<KernelProfile>& bundled_profiles_for_fuzzing();

}  // namespace roofcast::fuzz
