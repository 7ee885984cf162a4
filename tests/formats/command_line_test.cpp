#include <catch2/catch.hpp>

#include "roofcast/formats/command_line.hpp"

using namespace roofcast;

TEST_CASE("shell_quoted leaves plain words and single-quotes the rest") {
  CHECK(shell_quoted("--device") == "--device");
  CHECK(shell_quoted("data/h100-sxm.json") == "data/h100-sxm.json");
  CHECK(shell_quoted("GTX-1060 6GB") == "'GTX-1060 6GB'");
  CHECK(shell_quoted("it's") == "'it'\\''s'");
  CHECK(shell_quoted("$HOME") == "'$HOME'");
  CHECK(shell_quoted("") == "''");
  CHECK(shell_command({"roofcast", "predict", "--device", "GTX-1060 6GB"}) == "roofcast predict --device 'GTX-1060 6GB'");
}

TEST_CASE("utc_time_text writes ISO 8601 for files and a readable form for people") {
  const auto when = std::chrono::system_clock::from_time_t(1795000000);  // 2026-11-18 11:06:40 UTC
  CHECK(utc_time_text(when) == "2026-11-18T11:06:40Z");
  CHECK(utc_time_text(when, TimeStyle::readable) == "2026-11-18 11:06 UTC");
}
