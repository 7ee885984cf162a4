#pragma once

#include <string>
#include <string_view>

namespace roofcast {

// Whether `text` is well-formed UTF-8 (no stray continuation bytes, no overlong forms, no
// surrogates, nothing beyond U+10FFFF).
bool is_valid_utf8(std::string_view text);

// `text` safe to print in a message and to write into JSON: valid UTF-8 is kept, control
// characters and bytes that are not UTF-8 are written as \xNN. For paths and names from outside.
std::string printable_text(std::string_view text);

}  // namespace roofcast
