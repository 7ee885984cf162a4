#pragma once

#include <map>
#include <string>
#include <vector>

namespace roofcast::profiler {

// How an application run ended.
struct AppExit {
  int exit_code = 0;      // the code to pass on: the app's own, or 128 + signal like a shell
  bool signaled = false;
  int signal = 0;
  double wall_seconds = 0;
};

// Runs `command` (argv[0] looked up on PATH) with `environment` added to ours, and waits for
// it. Its stdin, stdout and stderr are ours, untouched. Ctrl-C reaches the application, not
// us. Throws InputError when the program cannot be started.
AppExit run_application(const std::vector<std::string>& command, const std::map<std::string, std::string>& environment);

// How the run ended, for messages: "exited with status 3", "was ended by signal 15 (Terminated)".
std::string how_it_ended(const AppExit& exit);

// The folder holding the running executable (where companion binaries live).
std::string executable_folder();

}  // namespace roofcast::profiler
