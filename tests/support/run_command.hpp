#pragma once

#include <string>
#include <vector>

namespace roofcast::testing {

struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};

// Runs the built `roofcast` binary with `arguments` (no shell involved) and captures its output.
CommandResult run_roofcast(const std::vector<std::string>& arguments);

// A file in a fresh temporary folder holding `text`; returns its path.
std::string temporary_file(const std::string& name, const std::string& text);

}  // namespace roofcast::testing
