#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace roofcast {

// A JSON document as text (two-space indent, ending in a newline), as every command writes it.
// Strings that are not valid UTF-8 (a name from a file, a path given on the command line)
// are written with U+FFFD in place of each bad byte rather than failing the command.
std::string json_text(const nlohmann::json& document);

}  // namespace roofcast
