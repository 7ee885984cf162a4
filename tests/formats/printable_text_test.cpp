// printable(): what every output shows of a name.
#include <catch2/catch.hpp>

#include <string>

#include "roofcast/formats/json_text.hpp"
#include "roofcast/formats/printable_text.hpp"

using roofcast::printable;
using namespace std::string_literals;

TEST_CASE("printable keeps ordinary names and UTF-8 text as they are") {
  for (const std::string name : {"sor_red", "void gemm<float, 128>(float*, int)", "GTX-1060 6GB", "a\\b 'c' \"d\"",
                                 "Grüße µs → 日本 🚀", ""})
    CHECK(printable(name) == name);
}

TEST_CASE("printable shows control characters, DEL, C1 controls and bad UTF-8 as hex escapes") {
  CHECK(printable("a\nb\r\tc") == "a\\x0ab\\x0d\\x09c");
  CHECK(printable("\x1b[2J\x1b]0;title\x07") == "\\x1b[2J\\x1b]0;title\\x07");
  CHECK(printable("nul\0byte"s) == "nul\\x00byte");
  CHECK(printable("del\x7f") == "del\\x7f");
  CHECK(printable("csi\xc2\x9b" "31m") == "csi\\xc2\\x9b31m");  // U+009B, CSI for 8-bit terminals
  CHECK(printable("\xc2\xa0") == "\xc2\xa0");                     // U+00A0 is text
  CHECK(printable("bad\xff\xfe") == "bad\\xff\\xfe");
  CHECK(printable("cut\xe6\x97") == "cut\\xe6\\x97");              // a sequence cut short
  CHECK(printable("\xc0\xaf") == "\\xc0\\xaf");                    // overlong "/"
  CHECK(printable("\xed\xa0\x80") == "\\xed\\xa0\\x80");           // a UTF-16 surrogate
  CHECK(printable("\xf4\x90\x80\x80") == "\\xf4\\x90\\x80\\x80");  // beyond U+10FFFF
}

TEST_CASE("json_text writes strings that are not UTF-8 instead of failing") {
  const nlohmann::json document = {{"profile", "p\xff.json"}, {"name", "k\x1b"}};
  CHECK(roofcast::json_text(document) == "{\n  \"name\": \"k\\u001b\",\n  \"profile\": \"p\xef\xbf\xbd.json\"\n}\n");
}
