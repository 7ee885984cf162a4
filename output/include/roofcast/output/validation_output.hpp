#pragma once

#include <string>
#include <vector>

#include "roofcast/model/validation.hpp"

namespace roofcast {

// What a validation report was made from, for the markdown report's header and notes.
struct ValidationContext {
  std::string command;                // the command line that produced it
  std::string generated_utc;          // e.g. "2026-11-22 01:05 UTC"
  std::vector<std::string> skipped;   // "kernel on device" pairs with no measured time
  std::vector<std::string> notes;     // rescaled invocation counts, ignored kernels...
};

// `roofcast validate`'s outputs besides the JSON (validation_json.hpp): a table for the
// terminal and a markdown report. Errors and APEs are printed in percent.
std::string validation_table_text(const ValidationReport& report);
std::string validation_markdown(const ValidationReport& report, const ValidationContext& context);

}  // namespace roofcast
