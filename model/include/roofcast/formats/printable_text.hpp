#pragma once

// Names come from files people share (profiles, device profiles, validation files): they are
// data, and may hold anything. Every output that shows a name to people or to another
// program (terminal, CSV, markdown, HTML, gnuplot) first passes it through printable().

#include <string>
#include <string_view>

namespace roofcast {

// `text` with every byte that could act rather than show written as the four characters
// "\xNN" (NN: the byte in lowercase hex): C0 controls (newline, tab, ESC, NUL...), DEL, C1
// controls (U+0080..U+009F, which some terminals take as CSI/OSC) and bytes that are not
// valid UTF-8. Other characters, backslashes included, are kept, so ordinary names are
// unchanged: printable(name) == name exactly when the name is clean.
std::string printable(std::string_view text);

}  // namespace roofcast
