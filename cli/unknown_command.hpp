#pragma once

#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace roofcast {

// The exit statuses of every roofcast command, as --help and the man pages give them.
inline constexpr const char* kExitStatusHelp =
    "Exit status: 0 on success; 1 for bad input (a file, field, device, kernel or value at fault, named in one "
    "line on stderr); 2 for a usage error (an unknown command or option, a missing or malformed argument); 3 for "
    "an internal error. roofcast profile exits with the application's status.";

// Where the command line has a word in place of a subcommand that names none ("roofcast
// predcit", "roofcast plot roofilne"): the message saying so, with the closest subcommand.
std::optional<std::string> unknown_command(CLI::App& app, int argc, char** argv);

}  // namespace roofcast
