#include "roofcast/formats/printable_text.hpp"

#include <fmt/format.h>

#include "roofcast/formats/utf8.hpp"

namespace roofcast {

std::string printable(std::string_view text) {
  std::string result;
  result.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    // A run of printable ASCII (most names are one) is copied whole.
    const size_t run = i;
    while (i < text.size() && static_cast<unsigned char>(text[i]) >= 0x20 && static_cast<unsigned char>(text[i]) < 0x7F)
      ++i;
    result.append(text.substr(run, i - run));
    if (i == text.size()) break;
    const auto byte = static_cast<unsigned char>(text[i]);
    const size_t length = byte < 0x80 ? 0 : utf8_sequence_length(text.substr(i));
    const bool c1_control = length == 2 && byte == 0xC2 && static_cast<unsigned char>(text[i + 1]) < 0xA0;
    if (length == 0 || c1_control) {
      // One escaped byte; a C1 control's second byte follows as the next escaped byte.
      result += fmt::format("\\x{:02x}", byte);
      ++i;
    } else {
      result.append(text.substr(i, length));
      i += length;
    }
  }
  return result;
}

}  // namespace roofcast
