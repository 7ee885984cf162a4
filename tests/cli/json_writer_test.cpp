// The streaming JSON writer of `predict --format json`: the same bytes as nlohmann's dump(2).
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofcast/formats/json_text.hpp"
#include "roofcast/output/json_writer.hpp"
#include "test_doubles.hpp"

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

TEST_CASE("JsonWriter indents as nlohmann does at every depth") {
  // Lines up to depth 7, up to 32 and deeper are indented three different ways.
  std::ostringstream out;
  nlohmann::json expected = nlohmann::json::array({1.5, "x"});
  {
    roofcast::JsonWriter json(out);
    for (int depth = 0; depth < 40; ++depth) {
      json.begin_object();
      json.key("a");
      json.begin_array();
      json.value(depth);
    }
    json.value(1.5);
    json.value("x");
    for (int depth = 0; depth < 40; ++depth) {
      json.end_array();
      json.end_object();
    }
  }
  expected.insert(expected.begin(), 39);
  expected = nlohmann::json::object({{"a", expected}});
  for (int depth = 38; depth >= 0; --depth)
    expected = nlohmann::json::object({{"a", nlohmann::json::array({depth, expected})}});
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

TEST_CASE("JsonWriter orders keys as std::string does: every byte, unsigned, a prefix first") {
  std::ostringstream out;
  roofcast::JsonWriter json(out);
  json.begin_object();
  for (const char* key : {"", "a", "ab", "abc", "abcdefgh", "abcdefgh1", "abcdefgh2", "abcdefghij", "abcdefgi",
                          "abcdefgi\xff", "abd", "b", "z", "\xc3\xa9"}) {
    INFO(key);
    CHECK_NOTHROW(json.member(key, 1));
  }
  CHECK_THROWS_AS(json.key("\xc3\xa9"), std::logic_error);  // the same key again
  CHECK_THROWS_AS(json.key("\xc3"), std::logic_error);
  CHECK_THROWS_AS(json.key("zz"), std::logic_error);
  // Keys compared 8 bytes at a time: the first differing byte decides, wherever it is.
  for (const auto& [first, second] : {std::pair{"abcdefgh2", "abcdefgh1"}, std::pair{"abcdefgi", "abcdefgh"},
                                      std::pair{"abcdefghabcdefgz", "abcdefghabcdefga"},
                                      std::pair{"abcdefghabcdefgh", "abcdefghabcdefg"}}) {
    INFO(first << " then " << second);
    std::ostringstream text;
    roofcast::JsonWriter object(text);
    object.begin_object();
    object.member(first, 1);
    CHECK_THROWS_AS(object.key(second), std::logic_error);
  }
}

TEST_CASE("JsonWriter writes keys known at compile time as it writes the same keys as text") {
  using namespace roofcast::json_literals;
  std::ostringstream out;
  {
    roofcast::JsonWriter json(out);
    json.begin_object();
    json.member("", 0);
    json.member("E_util"_key, 1.5);
    json.key("a");
    json.begin_object();
    json.member("compute_costs_ms"_key, 1);
    json.member("compute_ms", 2);
    json.member("compute_wave_factor"_key, 3);
    json.end_object();
    json.member("abcdefghijklmnopqrstuvwxyz0123456789ABCD"_key, std::optional<double>());  // kMaxSize bytes
    json.end_object();
  }
  const nlohmann::json expected = {
      {"", 0},
      {"E_util", 1.5},
      {"a", {{"compute_costs_ms", 1}, {"compute_ms", 2}, {"compute_wave_factor", 3}}},
      {"abcdefghijklmnopqrstuvwxyz0123456789ABCD", nullptr},
  };
  CHECK(out.str() == expected.dump(2));
}

TEST_CASE("JsonWriter checks the order of keys known at compile time as of keys given as text") {
  using namespace roofcast::json_literals;
  // The first 8 bytes decide where they differ, the whole keys where they do not.
  for (const auto& [first, second] : {std::pair{"abcdefgh2"_key, "abcdefgh1"_key}, std::pair{"b"_key, "a"_key},
                                      std::pair{"ab"_key, "a"_key}, std::pair{"abcdefgh"_key, "abcdefgh"_key},
                                      std::pair{"abcdefghabcdefgz"_key, "abcdefghabcdefga"_key}}) {
    INFO(first.name() << " then " << second.name());
    std::ostringstream text;
    roofcast::JsonWriter literals(text), mixed(text), mixed_other_way(text);
    for (auto* json : {&literals, &mixed, &mixed_other_way}) json->begin_object();
    literals.member(first, 1);
    CHECK_THROWS_AS(literals.key(second), std::logic_error);
    mixed.member(first, 1);
    CHECK_THROWS_AS(mixed.key(second.name()), std::logic_error);
    mixed_other_way.member(first.name(), 1);
    CHECK_THROWS_AS(mixed_other_way.key(second), std::logic_error);
  }
  std::ostringstream out;
  roofcast::JsonWriter json(out);
  CHECK_THROWS_AS(json.key("a"_key), std::logic_error);  // outside an object
  json.begin_object();
  json.member("a\xff", 1);
  CHECK_NOTHROW(json.member("b"_key, 1));
  CHECK_NOTHROW(json.member("compute_costs_ms"_key, 1));
  CHECK_NOTHROW(json.member("compute_ms"_key, 1));
  json.key("d"_key);
  CHECK_THROWS_AS(json.key("e"_key), std::logic_error);  // a key after a key
}

TEST_CASE("JsonWriter replays recorded members as it wrote them, where it is where they were recorded") {
  using namespace roofcast::json_literals;
  const auto write_numbers = [](roofcast::JsonWriter& json) {
    json.key("numbers"_key);
    json.begin_object();
    json.member("alu", 0.1);
    json.member("fma", 2.0);
    json.end_object();
    json.member("tensor_ops"_key, 3);
  };
  std::ostringstream out;
  roofcast::JsonReplay replay;
  {
    roofcast::JsonWriter json(out);
    json.begin_array();
    for (int i = 0; i < 3; ++i) {
      json.begin_object();
      json.member("a"_key, i);
      if (i == 0) {
        json.record(replay, [&] { write_numbers(json); });
      } else {
        CHECK(json.replay(replay));
      }
      CHECK_THROWS_AS(json.key("numbers"_key), std::logic_error);  // the replayed keys are the last ones
      json.member("z"_key, i);
      json.end_object();
    }
    json.begin_object();
    json.member("b"_key, 1);  // another key before: not replayed
    CHECK_FALSE(json.replay(replay));
    json.key("c"_key);
    json.begin_object();
    json.member("a"_key, 1);  // another depth: not replayed
    CHECK_FALSE(json.replay(replay));
    json.end_object();
    json.end_object();
    json.end_array();
  }
  nlohmann::json expected = nlohmann::json::array();
  for (int i = 0; i < 3; ++i)
    expected.push_back({{"a", i}, {"numbers", {{"alu", 0.1}, {"fma", 2.0}}}, {"tensor_ops", 3}, {"z", i}});
  expected.push_back({{"b", 1}, {"c", {{"a", 1}}}});
  CHECK(out.str() == expected.dump(2));
  CHECK_FALSE(replay.empty());
}

TEST_CASE("JsonWriter keeps no recording of members whose text went out meanwhile") {
  using namespace roofcast::json_literals;
  std::ostringstream out;
  roofcast::JsonWriter json(out);
  json.begin_object();
  json.member("a"_key, 1);
  roofcast::JsonReplay replay;
  json.record(replay, [&] {
    json.key("b"_key);
    json.begin_array();
    for (int i = 0; i < 2000; ++i) json.value(std::string(40, 'x'));
    json.end_array();  // flushed here
  });
  CHECK(replay.empty());
  CHECK_FALSE(json.replay(replay));
  json.key("c"_key);
  json.begin_object();
  CHECK_THROWS_AS(json.record(replay, [] {}), std::logic_error);  // before any member
}

TEST_CASE("JsonWriter escapes every byte value at every position of a string or key as nlohmann does") {
  // Text is checked 16 bytes at a time: each byte value at the ends and middle of texts shorter
  // than one block, of one block, and of blocks and a tail.
  for (const size_t length : {1u, 2u, 3u, 4u, 5u, 7u, 8u, 9u, 15u, 16u, 17u, 31u, 32u, 33u}) {
    for (const size_t position : {size_t{0}, length / 2, length - 1}) {
      for (int byte = 0; byte < 256; ++byte) {
        std::string text(length, 'a');
        text[position] = static_cast<char>(byte);
        std::ostringstream out;
        {
          roofcast::JsonWriter json(out);
          json.begin_object();
          json.member(text, text);
          json.end_object();
        }
        const nlohmann::json expected = {{text, text}};
        INFO("byte " << byte << " at " << position << " of " << length);
        CHECK(out.str() + "\n" == roofcast::json_text(expected));
      }
    }
  }
}

TEST_CASE("JsonWriter checks the order of keys written before its text went out") {
  // Keys are checked against the last key as written in the text, kept aside when the text is
  // flushed (past 64 KB) or taken: here the text after the flush overwrites where "m" was.
  std::ostringstream out;
  roofcast::JsonWriter json(out);
  json.begin_object();
  json.key("m");
  json.begin_object();
  json.key("a");
  json.begin_array();
  for (int i = 0; i < 2000; ++i) json.value(std::string(40, 'x'));
  json.end_array();  // flushed here
  json.member("b", "after the flush");
  json.end_object();
  CHECK_THROWS_AS(json.key("a"), std::logic_error);
  CHECK_NOTHROW(json.key("n"));

  roofcast::JsonWriter values(size_t{2});
  values.begin_object();
  values.key("k");
  values.begin_array();
  const roofcast::JsonText text = values.take_text();
  values.end_array();
  CHECK_THROWS_AS(values.key("a"), std::logic_error);
  CHECK_NOTHROW(values.key("l"));
}

namespace {

std::string nlohmann_number(double number) { return nlohmann::json(number).dump(); }

std::string roofcast_number(double number) {
  std::array<char, roofcast::kMaxJsonNumberChars> text;
  return std::string(text.data(), roofcast::write_json_number(number, text.data()));
}

}  // namespace

// From 10^15 to 10^16 nlohmann writes an exponent where fmt writes every digit (formats.md,
// prediction version 3).
bool fixed_where_nlohmann_writes_an_exponent(double number) {
  return std::abs(number) >= 1e15 && std::abs(number) < 1e16;
}

TEST_CASE("write_json_number is fmt's shortest form, a whole number marked with .0 as nlohmann marks it") {
  // Each side of nlohmann's switches between notations: fixed up to 15 integer digits, "0.000d"
  // down to 1e-4, else "d.ddde+NN" with at least two exponent digits.
  for (double number :
       {0.0, -0.0, 1.0, -1.0, 10.0, 100.0, 0.5, -2.5, 0.1, 0.001, 1e-4, 1.5e-4, 1e-5, 1.5e-5, 9.999e-5, 1e16,
        123456789012345.0, 1.5e16, 1e21, 1e100, 1e300, 1.5e300, -1.5e-300, 5e-324, 2.2250738585072014e-308,
        1.7976931348623157e308, 19.651132330694832, 0.06351976462115999, 269583843.8872873, 20503.833333333332,
        3.0e-7, 42.0, 12345678.0, 99999999.0, 12345678.901234567, 0.9999999999999999}) {
    INFO(number);
    CHECK(roofcast_number(number) == nlohmann_number(number));
  }
  // 10^15 to 10^16: fmt's fixed notation, where nlohmann writes "1.5e+15".
  CHECK(roofcast_number(1e15) == "1000000000000000.0");
  CHECK(roofcast_number(-1.5e15) == "-1500000000000000.0");
  CHECK(roofcast_number(9007199254740992.0) == "9007199254740992.0");
  CHECK(roofcast_number(1234567890123456.8) == "1234567890123456.8");
  CHECK(nlohmann_number(1.5e15) == "1.5e+15");
}

TEST_CASE("write_json_number is fmt's {} with .0 after a whole number, whole numbers near 2^53 and -0.0 included") {
  // Whole numbers below 2^53 are written as integers (no shortest-digits search): the same bytes.
  std::vector<double> numbers = roofcast::test::doubles_of_every_magnitude(15, 100000, 100000, 2000);
  for (const double scale : {1.0, -1.0})
    for (int e = 0; e <= 70; ++e)
      for (const double offset : {-2.0, -1.0, 0.0, 1.0, 2.0, 0.5})
        numbers.push_back(scale * (std::ldexp(1.0, e) + offset));
  for (const double whole : {-0.0, 9007199254740991.0, 9007199254740993.0, 1e15 - 1, 1e16 - 2, 1e16, 1e22, 3.5e18})
    numbers.push_back(whole);
  for (const double number : numbers) {
    std::string expected = fmt::format("{}", number);
    if (expected.find_first_of(".e") == std::string::npos) expected += ".0";
    INFO(expected);
    CHECK(roofcast_number(number) == expected);
  }
}

TEST_CASE("write_json_number writes the shortest digits where nlohmann's grisu2 writes longer ones") {
  // A compute cost of a scaled profile's prediction: the same double, one digit shorter.
  CHECK(nlohmann_number(0.025261508488854532) == "0.025261508488854532");
  CHECK(roofcast_number(0.025261508488854532) == "0.02526150848885453");
  CHECK(std::strtod("0.02526150848885453", nullptr) == 0.025261508488854532);
}

TEST_CASE("write_json_number agrees with nlohmann over doubles of every magnitude, or is shorter and exact") {
  // nlohmann's grisu2 digits are not always the shortest (Dragonbox's are): where they differ,
  // ours must read back as the same double and be no longer (but from 10^15 to 10^16).
  std::vector<double> numbers = roofcast::test::doubles_of_every_magnitude(14, 200000, 200000, 2000);
  for (int e = 0; e < 64; ++e) numbers.push_back(std::ldexp(1.0, e) + 1);

  size_t differ = 0;
  for (const double number : numbers) {
    const std::string ours = roofcast_number(number), theirs = nlohmann_number(number);
    if (ours == theirs) continue;
    if (!fixed_where_nlohmann_writes_an_exponent(number)) ++differ;
    INFO(ours << " against nlohmann's " << theirs);
    CHECK(std::strtod(ours.c_str(), nullptr) == number);
    if (!fixed_where_nlohmann_writes_an_exponent(number)) CHECK(ours.size() <= theirs.size());
    CHECK(nlohmann::json::parse(ours).get<double>() == number);
  }
  INFO(differ << " of " << numbers.size() << " differ");
  CHECK(differ * 100 < numbers.size());  // rare: grisu2 is shortest for almost every double
}
