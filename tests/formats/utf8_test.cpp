#include <catch2/catch.hpp>

#include "roofcast/formats/utf8.hpp"

using roofcast::is_valid_utf8;
using roofcast::utf8_sequence_length;

TEST_CASE("UTF-8 is told from bytes that are not") {
  CHECK(is_valid_utf8("sor_red"));
  CHECK(is_valid_utf8("gr\xC3\xBC\xC3\x9F \xE2\x82\xAC \xF0\x9F\x9A\x80"));  // two-, three- and four-byte forms
  CHECK(is_valid_utf8("k\x1b]0;owned\x07"));       // control characters are text, if odd text
  CHECK_FALSE(is_valid_utf8("\xFF"));
  CHECK_FALSE(is_valid_utf8("a\x80"));            // a stray continuation byte
  CHECK_FALSE(is_valid_utf8("\xC3"));             // cut short
  CHECK_FALSE(is_valid_utf8("\xC0\xAF"));         // overlong "/"
  CHECK_FALSE(is_valid_utf8("\xE0\x80\xAF"));     // overlong "/" in three bytes
  CHECK_FALSE(is_valid_utf8("\xED\xA0\x80"));     // a surrogate
  CHECK_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));  // beyond U+10FFFF
}

TEST_CASE("a UTF-8 sequence's length is read from its first bytes") {
  CHECK(utf8_sequence_length("a") == 1);
  CHECK(utf8_sequence_length("\xC3\xA9x") == 2);
  CHECK(utf8_sequence_length("\xE2\x82\xAC") == 3);
  CHECK(utf8_sequence_length("\xF0\x9F\x9A\x80") == 4);
  CHECK(utf8_sequence_length("\xE2\x82") == 0);
  CHECK(utf8_sequence_length("") == 0);
}
