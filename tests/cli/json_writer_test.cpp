// The streaming JSON writer of `predict --format json`: the same bytes as nlohmann's dump(2).
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>

#include <nlohmann/json.hpp>

#include "roofcast/output/json_writer.hpp"
#include "roofcast/formats/json_text.hpp"

TEST_CASE("JsonWriter writes what nlohmann::json::dump(2) writes for the same document") {
  std::ostringstream out;
  {
    roofcast::JsonWriter json(out);
    json.begin_object();
    json.key("a list");
    json.begin_array();
    json.value(1.0);
    json.value(0.1);
    json.value(1e-5);
    json.value(1e300);
    json.value(-2.5);
    json.value(INFINITY);  // JSON has no infinity: null
    json.null();
    json.value(true);
    json.value(std::optional<double>());
    json.begin_object();
    json.end_object();
    json.begin_array();
    json.end_array();
    json.end_array();
    json.member("count", 3);
    json.member("escaped", std::string("tab\there \"quoted\" back\\slash \x01 caf\xc3\xa9"));
    json.key("nested");
    json.begin_object();
    json.member("n", static_cast<size_t>(7));
    json.member("plain", "text");
    json.end_object();
    json.end_object();
  }
  const nlohmann::json expected = {
      {"a list", {1.0, 0.1, 1e-5, 1e300, -2.5, nullptr, nullptr, true, nullptr, nlohmann::json::object(),
                  nlohmann::json::array()}},
      {"count", 3},
      {"escaped", "tab\there \"quoted\" back\\slash \x01 caf\xc3\xa9"},
      {"nested", {{"n", 7}, {"plain", "text"}}},
  };
  CHECK(out.str() == expected.dump(2));
}

TEST_CASE("JsonWriter writes bytes that are not UTF-8 as json_text() does: U+FFFD, not an error") {
  const std::string bad = "profile-\xff\xfe.json", bad_key = "k\xc3";
  std::ostringstream out;
  {
    roofcast::JsonWriter json(out);
    json.begin_object();
    json.member(bad_key, 1);
    json.member("profile", bad);
    json.end_object();
  }
  const nlohmann::json expected = {{bad_key, 1}, {"profile", bad}};
  CHECK(out.str() + "\n" == roofcast::json_text(expected));
  CHECK_THAT(out.str(), Catch::Contains("profile-\xef\xbf\xbd\xef\xbf\xbd.json"));
}

TEST_CASE("JsonWriter refuses keys out of nlohmann's order and values without keys") {
  std::ostringstream out;
  roofcast::JsonWriter json(out);
  json.begin_object();
  json.member("b", 1);
  CHECK_THROWS_AS(json.key("a"), std::logic_error);
  CHECK_THROWS_AS(json.value(2.0), std::logic_error);
}

TEST_CASE("JsonWriter escapes every byte value at every position of a long string as nlohmann does") {
  // Strings of 8 bytes and more are checked 8 bytes at a time: each byte value at each of the
  // positions of two words and a tail.
  for (int byte = 0; byte < 256; ++byte) {
    for (size_t position : {0u, 3u, 7u, 8u, 12u, 17u}) {
      std::string text(18, 'a');
      text[position] = static_cast<char>(byte);
      std::ostringstream out;
      {
        roofcast::JsonWriter json(out);
        json.begin_object();
        json.member("text", text);
        json.end_object();
      }
      const nlohmann::json expected = {{"text", text}};
      INFO("byte " << byte << " at " << position);
      CHECK(out.str() + "\n" == roofcast::json_text(expected));
    }
  }
}
