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
