#pragma once

#include <cstddef>
#include <string_view>

namespace roofcast {

// The length of the well-formed UTF-8 sequence that starts `text` (1 to 4), or 0 when it is
// not one: a stray continuation byte, a sequence cut short, an overlong form, a UTF-16
// surrogate or a code point beyond U+10FFFF.
size_t utf8_sequence_length(std::string_view text);

// Whether `text` is well-formed UTF-8 throughout. Readers of text files (CSV) refuse lines
// that are not; printable() (printable_text.hpp) shows such bytes as \xNN.
bool is_valid_utf8(std::string_view text);

}  // namespace roofcast
