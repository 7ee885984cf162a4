#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/profile_json.hpp"

using nlohmann::json;

namespace {

json valid_profile() {
  return json::parse(R"({
    "format": "roofcast-profile", "version": 1, "reference_device": "GTX-480",
    "kernels": [{
      "name": "sor_red", "invocations": 4, "measured_ms": 21.456,
      "counters": {
        "flop_count_sp_fma": 0, "flop_count_dp_fma": 134217728, "inst_compute_ld_st": 1212317696,
        "inst_executed": 224402928, "inst_fp_32": 0, "inst_fp_64": 872431616, "inst_integer": 2947565568,
        "dram_read_transactions": 70642416, "dram_write_transactions": 33570816 } }]
  })");
}

json valid_device() {
  return json::parse(R"({ "format": "roofcast-device", "version": 1, "name": "GTX-660",
    "throughput": { "fp32_gflops": 1940.80, "fp64_gflops": 89.70, "int32_mad_giops": 359.04,
                    "int32_add_giops": 621.36, "shared_ldst_gops": 169.58, "dram_gbps": 117.56,
                    "l2_gbps": 400 } })");
}

// The one-line message of the InputError that parsing `text` throws.
template <typename Parse>
std::string error_of(Parse parse, const std::string& text) {
  try {
    parse(text, "bad.json");
  } catch (const roofcast::InputError& error) {
    return error.what();
  }
  FAIL("no InputError for: " << text);
  return "";
}

std::string profile_error(const json& document) {
  return error_of(roofcast::parse_kernel_profile, document.dump());
}
std::string device_error(const json& document) { return error_of(roofcast::parse_device_profile, document.dump()); }

}  // namespace

TEST_CASE("a valid kernel profile parses, counters under either name") {
  const auto profile = roofcast::parse_kernel_profile(valid_profile().dump(), "p.json");
  REQUIRE(profile.kernels.size() == 1);
  CHECK(profile.reference_device == "GTX-480");
  CHECK(profile.kernels[0].invocations == 4);
  CHECK(profile.kernels[0].measured_ms == 21.456);

  json cupti = valid_profile();
  auto& counters = cupti["kernels"][0]["counters"];
  counters["smsp__inst_executed.sum"] = counters["inst_executed"];
  counters.erase("inst_executed");
  counters["dram__sectors_read.sum"] = counters["dram_read_transactions"];
  counters.erase("dram_read_transactions");
  counters["lts__t_bytes.sum"] = 12345;
  const auto from_cupti = roofcast::parse_kernel_profile(cupti.dump(), "p.json");
  const auto& parsed = std::get<roofcast::KernelCounters>(from_cupti.kernels[0].description);
  CHECK(parsed.thesis.inst_executed == 224402928);
  CHECK(parsed.thesis.dram_read_transactions == 70642416);
  CHECK(parsed.extra.at("lts__t_bytes.sum") == 12345);
}

TEST_CASE("a kernel profile round-trips through JSON") {
  const auto profile = roofcast::parse_kernel_profile(valid_profile().dump(), "p.json");
  const auto again = roofcast::parse_kernel_profile(roofcast::to_json(profile).dump(), "again.json");
  CHECK(roofcast::to_json(again) == roofcast::to_json(profile));
}

TEST_CASE("a valid device profile parses and keeps extra peaks") {
  const auto device = roofcast::parse_device_profile(valid_device().dump(), "d.json");
  CHECK(device.name == "GTX-660");
  CHECK(device.throughput.dram_gbps == 117.56);
  CHECK(device.extra_throughput.at("l2_gbps") == 400);
  CHECK(roofcast::parse_device_profile(roofcast::to_json(device).dump(), "d.json").extra_throughput.size() == 1);
}

TEST_CASE("bad kernel profiles give one-line errors naming the file and field") {
  json p = valid_profile();
  auto& counters = p["kernels"][0]["counters"];
  SECTION("missing counter") {
    counters.erase("inst_fp_64");
    CHECK(profile_error(p) ==
          "bad.json: kernels[0] \"sor_red\".counters.inst_fp_64: missing (also accepted as "
          "smsp__sass_thread_inst_executed_op_fp64_pred_on.sum)");
  }
  SECTION("misspelled counter") {
    counters["inst_executd"] = counters["inst_executed"];
    counters.erase("inst_executed");
    CHECK_THAT(profile_error(p), Catch::StartsWith("bad.json: kernels[0] \"sor_red\".counters.inst_executed: missing"));
  }
  SECTION("wrong type") {
    counters["inst_integer"] = "2947565568";
    CHECK(profile_error(p) == "bad.json: kernels[0] \"sor_red\".counters.inst_integer: expected a number, found string");
  }
  SECTION("negative count") {
    counters["dram_write_transactions"] = -5;
    CHECK(profile_error(p) == "bad.json: kernels[0] \"sor_red\".counters.dram_write_transactions: must be >= 0, found -5");
  }
  SECTION("NaN count written as a string") {
    counters["inst_fp_64"] = "NaN";
    CHECK_THAT(profile_error(p), Catch::Contains("inst_fp_64: expected a number"));
  }
  SECTION("zero instructions") {
    counters["inst_executed"] = 0;
    CHECK_THAT(profile_error(p), Catch::StartsWith("bad.json: kernels[0] \"sor_red\".counters: inst_executed: is 0"));
  }
  SECTION("kernel without a name") {
    p["kernels"][0].erase("name");
    CHECK(profile_error(p) == "bad.json: kernels[0].name: missing");
  }
  SECTION("both counters and parameters") {
    p["kernels"][0]["parameters"] = json::object();
    CHECK_THAT(profile_error(p), Catch::Contains("exactly one of \"counters\" or \"parameters\""));
  }
  SECTION("wrong format") {
    p["format"] = "roofcast-device";
    CHECK(profile_error(p) == "bad.json: format: expected \"roofcast-profile\", found \"roofcast-device\"");
  }
  SECTION("newer version") {
    p["version"] = 2;
    CHECK_THAT(profile_error(p), Catch::StartsWith("bad.json: version: version 2 is newer"));
  }
  SECTION("no kernels") {
    p["kernels"] = json::array();
    CHECK(profile_error(p) == "bad.json: kernels: is empty, expected at least one kernel");
  }
  SECTION("parameters in percent") {
    p["kernels"][0].erase("counters");
    p["kernels"][0]["parameters"] = {{"K_type", "fp32"}, {"W_comp", 10}, {"W_traf", 10},
                                     {"E_mix", 64.29},   {"D_ops", 0.2}, {"D_ldst", 0.2}};
    CHECK_THAT(profile_error(p), Catch::Contains("parameters: E_mix: must be in (0, 1]"));
  }
  SECTION("unknown kernel type") {
    p["kernels"][0].erase("counters");
    p["kernels"][0]["parameters"] = {{"K_type", "fp16"}, {"W_comp", 10}, {"W_traf", 10},
                                     {"E_mix", 0.5},     {"D_ops", 0.2}, {"D_ldst", 0.2}};
    CHECK_THAT(profile_error(p), Catch::Contains("parameters.K_type: expected \"fp32\", \"fp64\" or \"int\""));
  }
}

TEST_CASE("zero DRAM traffic is a legal profile") {
  json p = valid_profile();
  p["kernels"][0]["counters"]["dram_read_transactions"] = 0;
  p["kernels"][0]["counters"]["dram_write_transactions"] = 0;
  const auto profile = roofcast::parse_kernel_profile(p.dump(), "p.json");
  CHECK(std::isinf(roofcast::kernel_parameters_of(profile.kernels[0]).O_krn()));
}

TEST_CASE("broken JSON documents are named, never thrown as parser internals") {
  const std::string full = valid_profile().dump();
  CHECK(error_of(roofcast::parse_kernel_profile, "") == "bad.json: empty file, expected a JSON object");
  CHECK(error_of(roofcast::parse_kernel_profile, " \n") == "bad.json: empty file, expected a JSON object");
  CHECK_THAT(error_of(roofcast::parse_kernel_profile, full.substr(0, full.size() / 2)),
             Catch::StartsWith("bad.json: not valid JSON") && Catch::Contains("truncated"));
  CHECK_THAT(error_of(roofcast::parse_kernel_profile, R"({"inst_executed": NaN})"),
             Catch::StartsWith("bad.json: not valid JSON"));
  CHECK(error_of(roofcast::parse_kernel_profile, "[1, 2]") == "bad.json: expected an object, found array");
}

TEST_CASE("bad device profiles name the field") {
  json d = valid_device();
  SECTION("missing throughput") {
    d["throughput"].erase("dram_gbps");
    CHECK(device_error(d) == "bad.json: throughput.dram_gbps: missing");
  }
  SECTION("zero throughput") {
    d["throughput"]["fp64_gflops"] = 0;
    CHECK(device_error(d) == "bad.json: throughput.fp64_gflops: must be > 0, found 0");
  }
  SECTION("missing name") {
    d.erase("name");
    CHECK(device_error(d) == "bad.json: name: missing");
  }
}

TEST_CASE("transfer fits and transfer records round-trip and are checked") {
  json d = valid_device();
  d["transfers"] = {{"h2d_pinned", {{"bandwidth_gbps", 25.0}, {"latency_us", 8.5}}}};
  const auto device = roofcast::parse_device_profile(d.dump(), "d.json");
  REQUIRE(device.transfers.size() == 1);
  CHECK(device.transfers.at("h2d_pinned").bandwidth_gbps == 25);
  CHECK(roofcast::to_json(device)["transfers"]["h2d_pinned"]["latency_us"] == 8.5);
  d["transfers"]["h2d_pinned"]["bandwidth_gbps"] = 0;
  CHECK(device_error(d) == "bad.json: transfers.h2d_pinned.bandwidth_gbps: must be > 0, found 0");

  json p = valid_profile();
  p["transfers"] = json::array({{{"kind", "h2d"}, {"pinned", false}, {"count", 2}, {"bytes", 4096}, {"measured_ms", 0.5}}});
  const auto profile = roofcast::parse_kernel_profile(p.dump(), "p.json");
  REQUIRE(profile.transfers.size() == 1);
  CHECK(profile.transfers[0].kind == roofcast::TransferKind::host_to_device);
  CHECK_FALSE(profile.transfers[0].pinned);
  CHECK(roofcast::to_json(profile)["transfers"] == p["transfers"]);
  p["transfers"][0]["kind"] = "h2h";
  CHECK(profile_error(p) == "bad.json: transfers[0].kind: expected \"h2d\", \"d2h\" or \"d2d\", found \"h2h\"");
}

TEST_CASE("launch shapes are read and written, and checked") {
  json p = valid_profile();
  p["kernels"][0]["launch_shapes"] = json::array({{{"grid", {64, 2, 1}}, {"block", {128, 1, 1}}, {"invocations", 4}}});
  const auto profile = roofcast::parse_kernel_profile(p.dump(), "p.json");
  REQUIRE(profile.kernels[0].launch_shapes.size() == 1);
  CHECK(profile.kernels[0].launch_shapes[0].blocks() == 128);
  CHECK(roofcast::to_json(profile)["kernels"][0]["launch_shapes"] == p["kernels"][0]["launch_shapes"]);
  p["kernels"][0]["launch_shapes"][0]["grid"] = {64, 2};
  CHECK(profile_error(p) == "bad.json: kernels[0] \"sor_red\".launch_shapes[0].grid: expected [x, y, z]");
}

TEST_CASE("launch shapes keep registers and shared memory for occupancy") {
  json p = valid_profile();
  p["kernels"][0]["launch_shapes"] = json::array({{{"grid", {64, 1, 1}},
                                                   {"block", {256, 1, 1}},
                                                   {"invocations", 4},
                                                   {"registers", 40},
                                                   {"static_shared_bytes", 1024},
                                                   {"dynamic_shared_bytes", 4096}}});
  const auto profile = roofcast::parse_kernel_profile(p.dump(), "p.json");
  const auto& shape = profile.kernels[0].launch_shapes[0];
  CHECK(shape.registers_per_thread == 40);
  CHECK(shape.shared_bytes_per_block() == 5120);
  CHECK(roofcast::to_json(profile)["kernels"][0]["launch_shapes"] == p["kernels"][0]["launch_shapes"]);
  p["kernels"][0]["launch_shapes"][0]["registers"] = 40.5;
  CHECK(profile_error(p) ==
        "bad.json: kernels[0] \"sor_red\".launch_shapes[0].registers: expected a whole number from 0 to 65536, found 40.5");
}

TEST_CASE("device profiles keep occupancy limits and the benchmark clock") {
  json d = valid_device();
  d["device"] = {{"sm_count", 132},           {"max_threads_per_sm", 2048}, {"max_blocks_per_sm", 32},
                 {"registers_per_sm", 65536}, {"register_allocation_unit", 256},
                 {"shared_bytes_per_sm", 233472}, {"reserved_shared_bytes_per_block", 1024},
                 {"shared_allocation_unit", 128}, {"name", "ignored here"}};
  d["clocks"] = {{"sm_clock_mhz_in_kernel", 1980}};
  const auto device = roofcast::parse_device_profile(d.dump(), "d.json");
  CHECK(device.occupancy.known());
  CHECK(device.occupancy.registers_per_sm == 65536);
  CHECK(device.sm_clock_mhz == 1980);
  const auto again = roofcast::parse_device_profile(roofcast::to_json(device).dump(), "d.json");
  CHECK(again.occupancy.shared_bytes_per_sm == 233472);
  CHECK(again.occupancy.shared_allocation_unit == 128);
  CHECK(again.sm_clock_mhz == 1980);
  d["device"]["registers_per_sm"] = -1;
  CHECK(device_error(d).rfind("bad.json: device.registers_per_sm: ", 0) == 0);
}

TEST_CASE("device profiles keep the L2 size when they have it (optional)") {
  json d = valid_device();
  CHECK(roofcast::parse_device_profile(d.dump(), "d.json").l2_bytes == 0);
  d["device"] = {{"sm_count", 132}, {"l2_bytes", 52428800.0}};
  const auto device = roofcast::parse_device_profile(d.dump(), "d.json");
  CHECK(device.l2_bytes == 52428800);
  CHECK(roofcast::parse_device_profile(roofcast::to_json(device).dump(), "d.json").l2_bytes == 52428800);
  d["device"]["l2_bytes"] = -1;
  CHECK(device_error(d).rfind("bad.json: device.l2_bytes: ", 0) == 0);
}

TEST_CASE("counts beyond 2^31 are kept exactly or refused, never wrapped") {
  json p = valid_profile();
  p["kernels"][0]["invocations"] = 3000000000LL;  // > 2^31: wrapped to a negative int before
  CHECK(roofcast::parse_kernel_profile(p.dump(), "p.json").kernels[0].invocations == 3000000000LL);
  p["kernels"][0]["invocations"] = 1e13;
  CHECK(profile_error(p) ==
        "bad.json: kernels[0] \"sor_red\".invocations: expected a whole number from 1 to 1000000000000, found 1e+13");
  p = valid_profile();
  p["kernels"][0]["launch_shapes"] = json::array({{{"grid", {64, 1, 1}}, {"block", {128, 1, 1}}, {"invocations", 5e12}}});
  CHECK_THAT(profile_error(p), Catch::Contains("launch_shapes[0].invocations: expected a whole number from 0 to"));
}

TEST_CASE("launch grids and blocks beyond what CUDA allows are refused") {
  json p = valid_profile();
  auto shape_error = [&](json grid, json block) {
    p["kernels"][0]["launch_shapes"] = json::array({{{"grid", grid}, {"block", block}, {"invocations", 1}}});
    return profile_error(p);
  };
  CHECK_THAT(shape_error({1e300, 1, 1}, {128, 1, 1}),
             Catch::EndsWith("launch_shapes[0].grid[0]: expected a whole number from 1 to 2147483647, found 1e+300"));
  CHECK_THAT(shape_error({1, 65536, 1}, {128, 1, 1}), Catch::Contains("grid[1]: expected a whole number from 1 to 65535"));
  CHECK_THAT(shape_error({1, 1, 1}, {1, 1, 65}), Catch::Contains("block[2]: expected a whole number from 1 to 64"));
  CHECK_THAT(shape_error({1, 1, 1}, {1024, 2, 1}), Catch::EndsWith("block: 2048 threads per block, more than 1024"));
  // The largest grid CUDA allows is accepted and its block count is exact.
  p["kernels"][0]["launch_shapes"] =
      json::array({{{"grid", {2147483647, 65535, 65535}}, {"block", {1024, 1, 1}}, {"invocations", 1}}});
  const auto profile = roofcast::parse_kernel_profile(p.dump(), "p.json");
  CHECK(profile.kernels[0].launch_shapes[0].blocks() == 2147483647.0 * 65535 * 65535);
}

TEST_CASE("occupancy limits are whole numbers in range") {
  json d = valid_device();
  d["device"] = {{"sm_count", 132}, {"max_threads_per_sm", 1e300}};
  CHECK_THAT(device_error(d), Catch::StartsWith("bad.json: device.max_threads_per_sm: expected a whole number from 0 to"));
  d["device"] = {{"sm_count", 132}, {"shared_allocation_unit", 0.5}};
  CHECK_THAT(device_error(d), Catch::StartsWith("bad.json: device.shared_allocation_unit: expected a whole number"));
}

TEST_CASE("throughputs outside 1e-6 .. 1e12 of their unit are refused, optional ones too") {
  json d = valid_device();
  d["throughput"]["fp64_gflops"] = 1e-310;  // denormal: predicted 0 ms or inf before
  CHECK(device_error(d) == "bad.json: throughput.fp64_gflops: must be between 1e-06 and 1e+12, found 1e-310");
  d = valid_device();
  d["throughput"]["dram_gbps"] = 1e308;
  CHECK(device_error(d) == "bad.json: throughput.dram_gbps: must be between 1e-06 and 1e+12, found 1e+308");
  d = valid_device();
  d["throughput"]["l2_gbps"] = -400;  // an optional key: ignored without a word before
  CHECK(device_error(d) == "bad.json: throughput.l2_gbps: must be > 0, found -400");
  d = valid_device();
  d["throughput"]["note"] = "measured at base clocks";  // not a number: not a throughput, left alone
  CHECK_FALSE(roofcast::parse_device_profile(d.dump(), "d.json").extra_throughput.contains("note"));
}

TEST_CASE("counters near the double range are refused, naming the counter") {
  json p = valid_profile();
  p["kernels"][0]["counters"]["inst_integer"] = 1e308;  // gave inf in derived values (written as null)
  CHECK(profile_error(p) == "bad.json: kernels[0] \"sor_red\".counters.inst_integer: must be 0 or between 1e-12 and "
                            "1e+20, found 1e+308");
  p = valid_profile();
  p["kernels"][0]["counters"]["lts__t_bytes.sum"] = 1e-320;
  CHECK_THAT(profile_error(p), Catch::Contains("counters.lts__t_bytes.sum: must be 0 or between"));
}

TEST_CASE("numbers beyond the double range and versions beyond 2^32 are input errors") {
  std::string text = valid_profile().dump();
  text.replace(text.find("134217728"), 9, "1e400");
  CHECK(error_of(roofcast::parse_kernel_profile, text) == "bad.json: not valid JSON: a number beyond the double range");
  CHECK(error_of(roofcast::parse_device_profile, R"({"format": "roofcast-device", "version": -1e999})") ==
        "bad.json: not valid JSON: a number beyond the double range");
  json p = valid_profile();
  p["version"] = 4294967297LL;  // 2^32 + 1
  CHECK_THAT(profile_error(p), Catch::StartsWith("bad.json: version: version 4.29497e+09 is newer than this roofcast"));
}

TEST_CASE("a kernel listed twice in a profile is refused, naming it") {
  json p = valid_profile();
  p["kernels"].push_back(p["kernels"][0]);
  CHECK(profile_error(p) == "bad.json: kernels[1].name: \"sor_red\" is listed again (first at kernels[0]); a kernel "
                            "appears once, its launches summed");
}

TEST_CASE("the streaming reader checks names in the kernels list that counts: the last of a repeated key") {
  const std::string kernel = valid_profile()["kernels"][0].dump();
  // A JSON object's repeated key keeps its last value; the names of the first list do not count.
  const auto profile = roofcast::parse_kernel_profile(
      R"({"format": "roofcast-profile", "version": 1, "kernels": [)" + kernel + R"(], "kernels": [)" + kernel + "]}",
      "twice.json");
  CHECK(profile.kernels.size() == 1);
  CHECK_THAT(error_of(roofcast::parse_kernel_profile,
                      R"({"format": "roofcast-profile", "version": 1, "kernels": [], "kernels": [)" + kernel + ", " +
                          kernel + "]}"),
             Catch::StartsWith("bad.json: kernels[1].name: \"sor_red\" is listed again (first at kernels[0])"));
}

TEST_CASE("a device profile's details are written beside the format's fields, never over them") {
  roofcast::DeviceProfile device;
  device.name = "GPU";
  device.throughput = {1000, 500, 250, 500, 250, 100};
  device.sm_count = 10;
  device.roofline_sweep.push_back({"fp32", 8, 2.0, 1.0, 100, 50});
  device.transfers["h2d_pinned"] = {20, 5};
  roofcast::DeviceProfileDetails details;
  details.roofline_sweep.push_back({{"verified", true}, {"gops", -1}});
  details.transfers["h2d_pinned"] = {{"sizes", 12}};
  details.members = {{"device", {{"name", "full name"}, {"sm_count", 99}}}, {"provenance", {{"command", "bench"}}}};
  const auto document = roofcast::to_json(device, details);
  CHECK(document["roofline_sweep"][0]["verified"] == true);
  CHECK(document["roofline_sweep"][0]["gops"] == 100);  // the format's value wins
  CHECK(document["transfers"]["h2d_pinned"]["sizes"] == 12);
  CHECK(document["transfers"]["h2d_pinned"]["bandwidth_gbps"] == 20);
  CHECK(document["device"]["name"] == "full name");
  CHECK(document["device"]["sm_count"] == 10);
  CHECK(document["provenance"]["command"] == "bench");
  CHECK(roofcast::parse_device_profile(document.dump(), "d.json").sm_count == 10);
}

TEST_CASE("a device profile with a wrong JSON type where an object, number or string belongs is refused") {
  // `"device": [1]` was once ignored: predictions then ran without the SM count.
  const std::vector<std::pair<std::function<void(json&)>, std::string>> cases{
      {[](json& d) { d["device"] = json::array({1}); }, "bad.json: device: expected an object, found array"},
      {[](json& d) { d["device"] = 132; }, "bad.json: device: expected an object, found number"},
      {[](json& d) { d["device"] = "H100"; }, "bad.json: device: expected an object, found string"},
      {[](json& d) { d["device"] = {{"sm_count", "132"}}; },
       "bad.json: device.sm_count: expected a number, found string"},
      {[](json& d) { d["device"] = {{"sm_count", nullptr}}; },
       "bad.json: device.sm_count: expected a number, found null"},
      {[](json& d) { d["device"] = {{"l2_bytes", json::array({1})}}; },
       "bad.json: device.l2_bytes: expected a number, found array"},
      {[](json& d) { d["device"] = {{"max_threads_per_sm", true}}; },
       "bad.json: device.max_threads_per_sm: expected a number, found boolean"},
      {[](json& d) { d["clocks"] = json::array({1980}); }, "bad.json: clocks: expected an object, found array"},
      {[](json& d) { d["clocks"] = {{"sm_clock_mhz_in_kernel", "1980"}}; },
       "bad.json: clocks.sm_clock_mhz_in_kernel: expected a number, found string"},
      {[](json& d) { d["throughput"] = json::array(); }, "bad.json: throughput: expected an object, found array"},
      {[](json& d) { d["throughput"]["fp32_gflops"] = "1940"; },
       "bad.json: throughput.fp32_gflops: expected a number, found string"},
      {[](json& d) { d["throughput"]["dram_read_gbps"] = "3000"; },
       "bad.json: throughput.dram_read_gbps: expected a number, found string"},
      {[](json& d) { d["throughput"]["latency_ffma_ns"] = json::object(); },
       "bad.json: throughput.latency_ffma_ns: expected a number, found object"},
      {[](json& d) { d["throughput"]["note"] = json::array({"a"}); },
       "bad.json: throughput.note: expected a number (or a string: a note), found array"},
      {[](json& d) { d["throughput"]["pipe_fma_gwips"] = nullptr; },
       "bad.json: throughput.pipe_fma_gwips: expected a number, found null"},
      {[](json& d) { d["transfers"] = json::array(); }, "bad.json: transfers: expected an object, found array"},
      {[](json& d) { d["transfers"] = {{"d2d", 5}}; }, "bad.json: transfers.d2d: expected an object, found number"},
      {[](json& d) { d["transfers"] = {{"d2d", {{"bandwidth_gbps", "1"}, {"latency_us", 1}}}}; },
       "bad.json: transfers.d2d.bandwidth_gbps: expected a number, found string"},
      {[](json& d) { d["roofline_sweep"] = json::object(); },
       "bad.json: roofline_sweep: expected an array, found object"},
      {[](json& d) { d["roofline_sweep"] = json::array({1}); },
       "bad.json: roofline_sweep[0]: expected an object, found number"},
      {[](json& d) { d["name"] = json::array({"H100"}); }, "bad.json: name: expected a string, found array"},
  };
  for (const auto& [spoil, message] : cases) {
    json d = valid_device();
    spoil(d);
    INFO(d.dump());
    CHECK(device_error(d) == message);
  }
  // Hardware details roofcast does not read keep any type, and a note stays a note.
  json d = valid_device();
  d["device"] = {{"sm_count", 132}, {"arch", "sm_90"}, {"nvml", {{"clocks", json::array()}}}};
  d["clocks"] = {{"sm_clock_mhz_in_kernel", 1980}, {"nvml_sm_clock_mhz", {{"min", 1}}}};
  d["throughput"]["note"] = "measured at base clocks";
  const auto device = roofcast::parse_device_profile(d.dump(), "d.json");
  CHECK(device.sm_count == 132);
  CHECK(device.sm_clock_mhz == 1980);
}

TEST_CASE("a profile's string longer than 16 MiB is refused before parsing, members no reader reads are skipped") {
  json profile = valid_profile();
  profile["tool"] = {{"samples", json::array({1, 2, 3})}, {"note", "a \"quoted\" \\ note"}};
  profile["kernels"][0]["name"] = "k\\\"<int>";
  CHECK(roofcast::parse_kernel_profile(profile.dump(), "p.json").kernels[0].name == "k\\\"<int>");
  profile["kernels"][0]["name"] = std::string(16 << 20, 'k');  // at the limit: read
  CHECK(roofcast::parse_kernel_profile(profile.dump(), "p.json").kernels[0].name.size() == 16 << 20);
  profile["kernels"][0]["name"] = std::string((16 << 20) + 1, 'k');  // in a kernel: the fast path's scan stops at it
  CHECK_THROWS_WITH(roofcast::parse_kernel_profile(profile.dump(), "p.json"), Catch::Contains("longer than 16 MiB"));
  profile["kernels"][0]["name"] = "sor_red";
  profile["tool"]["note"] = std::string((16 << 20) + 1, 'x');
  const std::string text = profile.dump();
  const std::string expected = "p.json: the string at byte " + std::to_string(text.find("\"xxxx")) +
                               " is longer than 16 MiB, the most a profile's string (a kernel name, a note) can be; "
                               "not read";
  CHECK_THROWS_WITH(roofcast::parse_kernel_profile(text, "p.json"), expected);
  CHECK_THROWS_WITH(roofcast::parse_kernel_profile_checked(text, "p.json"), expected);
  // Escaped quotes and backslashes do not end the string early: still too long.
  profile["tool"]["note"] = std::string(8 << 20, '"') + std::string(8 << 20, '\\') + "x";
  CHECK_THROWS_WITH(roofcast::parse_kernel_profile(profile.dump(), "p.json"), Catch::Contains("longer than 16 MiB"));
}
