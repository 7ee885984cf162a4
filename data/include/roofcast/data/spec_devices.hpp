#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "roofcast/model/derived_device.hpp"
#include "roofcast/model/gpu_specs.hpp"

namespace roofcast {

// What derived device profiles are made from (docs/derived-devices.md): the spec table of the
// data folders (specs/gpus.json, the first folder that has one) and every measured device
// profile of the data folders whose GPU the table lists. derive_device's results point into it.
struct SpecInputs {
  GpuSpecTable table;
  std::vector<MeasuredReference> references;
};
// Throws InputError when no data folder has specs/gpus.json, or it is not a valid table.
SpecInputs load_spec_inputs();

// "spec:ID" or "spec:ID-mpsNN" (an MPS partition of NN %), case ignored; nullopt when `name`
// does not start with "spec:". Spec names never collide with measured ids. Errors name `option`.
std::optional<DerivationRequest> spec_device_request(std::string_view name, std::string_view option = "--device");

// The name `--device` takes for a derived device: "spec:a100-sxm-80gb", "spec:h100-sxm-mps50".
std::string spec_device_name(const std::string& spec_id, double mps_percentage);

// The derived device profile `--device spec:...` names.
DeviceProfile derived_device_profile(const DerivationRequest& request);

// The derived device `--device NAME` names when NAME is no measured or bundled device:
// "spec:ID[-mpsNN]" (InputError when the table has no such GPU), or a bare "ID[-mpsNN]" of the
// spec table ("a100-sxm-80gb", "h200-sxm-mps25"); nullopt when NAME is neither.
std::optional<DeviceProfile> find_spec_device(std::string_view name);

// The derived profile of every GPU of the table that no measured profile is of, for comparing
// measured and derived devices in one ranking (`rank --all-gpus`).
std::vector<DeviceProfile> unmeasured_spec_devices();

}  // namespace roofcast
