#pragma once

#include <string>
#include <vector>

#include "roofcast/model/access_diagnostics.hpp"

namespace roofcast {

// The "Diagnostics" section of `roofcast explain`: one line per diagnostic, with the time the
// model predicts if it were fixed.
std::string diagnostics_text(const std::vector<Diagnostic>& diagnostics);

}  // namespace roofcast
