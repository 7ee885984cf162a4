#include <catch2/catch.hpp>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/measured_json.hpp"

using roofcast::MeasuredTimes;
using roofcast::parse_measured_times;

TEST_CASE("measured-time files round-trip") {
  MeasuredTimes times;
  times.device = "NVIDIA H100 80GB HBM3";
  times.kernels.push_back({"axpy(float*, float const*, float)", 3, 1.5, 0.4, 0.5, 0.6});
  const auto back = parse_measured_times(roofcast::to_json(times).dump(), "m.json");
  CHECK(back.device == times.device);
  REQUIRE(back.kernels.size() == 1);
  CHECK(back.kernels[0].name == times.kernels[0].name);
  CHECK(back.kernels[0].invocations == 3);
  CHECK(back.kernels[0].measured_ms == 1.5);
  CHECK(back.kernels[0].median_ms == 0.5);
}

TEST_CASE("measured-time files: bad input names the file and field") {
  CHECK_THROWS_WITH(parse_measured_times("{", "m.json"), Catch::Contains("m.json") && Catch::Contains("JSON"));
  CHECK_THROWS_WITH(parse_measured_times(R"({"format":"roofcast-profile","version":1})", "m.json"),
                    Catch::Contains("format"));
  CHECK_THROWS_WITH(parse_measured_times(R"({"format":"roofcast-measured","version":2,"device":"x","kernels":[]})", "m.json"),
                    Catch::Contains("newer"));
  CHECK_THROWS_WITH(
      parse_measured_times(R"({"format":"roofcast-measured","version":1,"device":"x","kernels":[{"name":"k","invocations":1,"measured_ms":0,"min_ms":0,"median_ms":0,"max_ms":0}]})",
                           "m.json"),
      Catch::Contains("kernels[0] \"k\".measured_ms"));
  CHECK_THROWS_WITH(
      parse_measured_times(R"({"format":"roofcast-measured","version":1,"device":"x","kernels":[{"name":"k","invocations":1,"measured_ms":1,"min_ms":2,"median_ms":1,"max_ms":3}]})",
                           "m.json"),
      Catch::Contains("min_ms <= median_ms"));
}

TEST_CASE("measured-time files: hostile numbers and duplicates") {
  auto with_kernels = [](const std::string& kernels, const std::string& version = "1") {
    return R"({"format":"roofcast-measured","version":)" + version + R"(,"device":"x","kernels":[)" + kernels + "]}";
  };
  const std::string k = R"({"name":"k","invocations":3000000000,"measured_ms":1,"min_ms":0.1,"median_ms":0.2,"max_ms":0.3})";
  CHECK(parse_measured_times(with_kernels(k), "m.json").kernels[0].invocations == 3000000000LL);
  // 2^32 + 1 wrapped to version 1 before.
  CHECK_THROWS_WITH(parse_measured_times(with_kernels(k, "4294967297"), "m.json"),
                    Catch::StartsWith("m.json: version: version 4.29497e+09 is newer"));
  CHECK_THROWS_WITH(parse_measured_times(with_kernels(k, "1e400"), "m.json"),
                    "m.json: not valid JSON: a number beyond the double range");
  CHECK_THROWS_WITH(parse_measured_times(with_kernels(k + "," + k), "m.json"),
                    Catch::StartsWith("m.json: kernels[1].name: \"k\" is listed again (first at kernels[0])"));
  const std::string tiny = R"({"name":"k","invocations":1,"measured_ms":1e-310,"min_ms":0,"median_ms":0,"max_ms":0})";
  CHECK_THROWS_WITH(parse_measured_times(with_kernels(tiny), "m.json"),
                    Catch::StartsWith("m.json: kernels[0] \"k\".measured_ms: must be between 1e-12 and 1e+20"));
}
