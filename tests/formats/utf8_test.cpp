#include <catch2/catch.hpp>

#include "roofcast/formats/utf8.hpp"

using roofcast::is_valid_utf8;
using roofcast::printable_text;

TEST_CASE("UTF-8 is told from bytes that are not") {
  CHECK(is_valid_utf8("sor_red"));
  CHECK(is_valid_utf8("gr\xC3\xBC\xC3\x9F \xE2\x82\xAC \xF0\x9F\x9A\x80"));  // two-, three- and four-byte forms
  CHECK_FALSE(is_valid_utf8("\xFF"));
  CHECK_FALSE(is_valid_utf8("a\x80"));            // a stray continuation byte
  CHECK_FALSE(is_valid_utf8("\xC3"));             // cut short
  CHECK_FALSE(is_valid_utf8("\xC0\xAF"));         // overlong "/"
  CHECK_FALSE(is_valid_utf8("\xED\xA0\x80"));     // a surrogate
  CHECK_FALSE(is_valid_utf8("\xF4\x90\x80\x80"));  // beyond U+10FFFF
}

TEST_CASE("printable text keeps UTF-8 and escapes control characters and other bytes") {
  CHECK(printable_text("data/caf\xC3\xA9.csv") == "data/caf\xC3\xA9.csv");
  CHECK(printable_text("bad\xFF\xFE.csv") == "bad\\xFF\\xFE.csv");
  CHECK(printable_text("two\nlines\x1B[31m") == "two\\x0Alines\\x1B[31m");
}
