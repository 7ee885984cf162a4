#include "roofcast/formats/printable_text.hpp"

#include <fmt/format.h>

namespace roofcast {

namespace {

bool continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// The length of the valid UTF-8 sequence that starts `text`, or 0 when it is not one
// (overlong forms, surrogates and code points beyond U+10FFFF are not valid).
size_t utf8_sequence_length(std::string_view text) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  size_t length = 0;
  unsigned char second_low = 0x80, second_high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) length = 2;
  else if (lead >= 0xE0 && lead <= 0xEF) length = 3;
  else if (lead >= 0xF0 && lead <= 0xF4) length = 4;
  else return 0;
  if (lead == 0xE0) second_low = 0xA0;   // overlong
  if (lead == 0xED) second_high = 0x9F;  // UTF-16 surrogates
  if (lead == 0xF0) second_low = 0x90;   // overlong
  if (lead == 0xF4) second_high = 0x8F;  // beyond U+10FFFF
  if (text.size() < length || byte(1) < second_low || byte(1) > second_high) return 0;
  for (size_t i = 2; i < length; ++i)
    if (!continuation(byte(i))) return 0;
  return length;
}

}  // namespace

std::string printable(std::string_view text) {
  std::string result;
  result.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x20 && byte < 0x7F) {
      result += text[i++];
      continue;
    }
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
