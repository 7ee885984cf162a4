#include <catch2/catch.hpp>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

using roofcast::testing::run_roofcast;

TEST_CASE("rank orders the bundled devices by predicted time") {
  const auto result = run_roofcast({"rank", "--profile", "thesis-redblack", "--format", "json"});
  REQUIRE(result.exit_code == 0);
  const auto devices = nlohmann::json::parse(result.out)["devices"];
  REQUIRE(devices.size() == 6);
  CHECK(devices[0]["device"] == "GTX-480");
  CHECK(devices[5]["device"] == "GTX-960");
  for (size_t i = 1; i < devices.size(); ++i)
    CHECK(devices[i]["kernels_ms"].get<double>() >= devices[i - 1]["kernels_ms"].get<double>());
}

TEST_CASE("split divides blocks by predicted speed and reports the ideal time") {
  // sor_red: GTX-480 20.414 ms, GTX-660 34.803 ms alone (thesis Table 5.6).
  const auto result = run_roofcast({"split", "--profile", "thesis-redblack", "--kernel", "sor_red", "--device",
                                    "GTX-480", "--device", "GTX-660", "--blocks", "1000", "--format", "json"});
  REQUIRE(result.exit_code == 0);
  const auto split = nlohmann::json::parse(result.out);
  const double a = 20.41395, b = 34.80275;
  CHECK(split["ideal_ms"].get<double>() == Approx(1 / (1 / a + 1 / b)).epsilon(1e-5));
  CHECK(split["devices"][0]["blocks"] == 630);  // 1000 x (1/a) / (1/a + 1/b) = 630.3
  CHECK(split["devices"][1]["blocks"] == 370);
  // The split ends when the slower part does: GTX-660's 370 blocks take 34.803 x 0.370 ms.
  CHECK(split["rounded_ms"].get<double>() == Approx(std::max(a * 0.630, b * 0.370)).epsilon(1e-5));
}

TEST_CASE("split needs a known kernel and two devices") {
  CHECK(run_roofcast({"split", "--profile", "thesis-redblack", "--kernel", "nope", "--blocks", "10"}).exit_code == 1);
  const auto one = run_roofcast({"split", "--profile", "thesis-redblack", "--kernel", "sor_red", "--device", "GTX-480",
                                 "--blocks", "10"});
  CHECK(one.exit_code == 1);
  CHECK_THAT(one.err, Catch::Contains("at least two devices"));
}
