#pragma once

#include <filesystem>
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

// The same, killed by SIGALRM (exit code 128 + 14) when it runs longer than `seconds`: for
// tests of inputs that once made a command loop forever.
CommandResult run_roofcast_within(unsigned seconds, const std::vector<std::string>& arguments);

// A file in a fresh temporary folder holding `text`; returns its path.
std::string temporary_file(const std::string& name, const std::string& text);

// A fresh, empty temporary folder.
std::filesystem::path temporary_folder();

// The whole file, bytes as they are ("" when it cannot be read).
std::string file_text(const std::filesystem::path& path);

}  // namespace roofcast::testing
