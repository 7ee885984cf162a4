#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "roofcast/model/derived_device.hpp"
#include "roofcast/model/gpu_specs.hpp"

namespace roofcast {

// The spec table (`"format": "roofcast-gpu-specs"`, data/specs/gpus.json). Every number is held
// to the range of its unit (a clock in GHz or a bandwidth in TB/s is refused, naming the field),
// every number names a source the table lists, ids and architectures are known and unique.
// Throws InputError naming `source` and the field.
GpuSpecTable parse_gpu_spec_table(std::string_view json_text, const std::string& source);

// A device profile measured by `roofcast bench`, with what a derivation needs beside the model's
// fields: the driver's device name, the maximum SM clock and the MPS share (`device`, `clocks`).
MeasuredReference parse_measured_reference(std::string_view json_text, const std::string& source, std::string id);

// The device-profile document of a derived device: the format's fields and `provenance.derived`
// (the GPU, the reference, how each key was scaled, the notes), with `command` as provenance.
nlohmann::json derived_device_json(const DerivedDevice& derived, const std::string& command);

}  // namespace roofcast
