#pragma once

#include <optional>
#include <string_view>

#include "roofcast/model/kernel_profile.hpp"

namespace roofcast {

// One kernel of a profile's `kernels` array (the text of that one JSON value) read straight into
// its record from simdjson's parse: no nlohmann tree, no field paths. This is the profile reader's
// fast path for well-formed kernels only: it returns nullopt for anything the checked reader
// (parse_kernel in profile_json.cpp) would refuse, and also for inputs it does not bother to
// handle (a key given twice, two spellings of one counter); the caller then reads the file with
// the checked reader, which names the problem. What it accepts, it reads exactly as that reader.
std::optional<KernelRecord> read_well_formed_kernel(std::string_view kernel_json);

}  // namespace roofcast
