#include "roofcast/formats/utf8.hpp"

namespace roofcast {

namespace {

bool continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

}  // namespace

size_t utf8_sequence_length(std::string_view text) {
  if (text.empty()) return 0;
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) return 1;
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

bool is_valid_utf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t length = utf8_sequence_length(text.substr(i));
    if (length == 0) return false;
    i += length;
  }
  return true;
}

}  // namespace roofcast
