#include <catch2/catch.hpp>

#include "hundred_sm_device.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

#include "roofcast/model/bench_keys.hpp"
#include "roofcast/model/device_rates.hpp"

using namespace roofcast;

TEST_CASE("bench keys: one list, each key once, and the model reads no key outside it") {
  std::set<std::string_view> keys;
  for (const auto& k : pipes_bench_keys()) {
    INFO(k.key);
    CHECK(keys.insert(k.key).second);
    CHECK_FALSE(k.term.empty());
  }
  CHECK(keys.contains("block_dispatch_gblocks"));
  CHECK(keys.contains("latency_dram_ns"));
  const DeviceProfile device = test::hundred_sm_device();
  CHECK(bench_value(device, "kernel_floor_us") == 2);
  CHECK(bench_value(device, "block_dispatch_gblocks") == 0);
  CHECK_THROWS_AS(bench_value(device, "launch_overhead_us"), std::logic_error);
}

TEST_CASE("bench keys: a profile lacks the every-GPU keys it does not have, tensor peaks aside") {
  DeviceProfile device = test::hundred_sm_device();
  device.source = "gpus/my gpu.json";
  const auto missing = missing_bench_keys(device);
  CHECK(std::count(missing.begin(), missing.end(), "block_dispatch_gblocks") == 1);
  CHECK(std::count(missing.begin(), missing.end(), "pipe_fma_gwips") == 0);  // it has it
  CHECK(std::count(missing.begin(), missing.end(), "tensor_fp16_gflops") == 0);  // not every GPU has tensor cores
  // A key at 0 is no measurement.
  device.extra_throughput["l2_gbps"] = 0;
  const auto with_zero = missing_bench_keys(device);
  CHECK(std::count(with_zero.begin(), with_zero.end(), "l2_gbps") == 1);

  const std::string note = missing_bench_keys_note(device);
  CHECK_THAT(note, Catch::StartsWith("the device profile lacks ") && Catch::Contains("block_dispatch_gblocks") &&
                       Catch::Contains("block dispatch") && Catch::Contains("latency") &&
                       Catch::Contains("`roofcast bench --complete gpus/my gpu.json`"));
  // The rates carry it for every prediction's notes.
  const DeviceRates rates = device_rates_of(device);
  CHECK(std::count(rates.notes.begin(), rates.notes.end(), note) == 1);

  for (const auto& k : pipes_bench_keys()) device.extra_throughput[std::string(k.key)] = 1;
  CHECK(missing_bench_keys(device).empty());
  CHECK(missing_bench_keys_note(device).empty());
}

TEST_CASE("bench keys: a profile of the thesis' six throughputs is said to be one") {
  DeviceProfile device;
  device.name = "GTX-480";
  device.throughput = {1462.2, 184.09, 742.34, 732.86, 369.73, 163.36};
  const std::string note = missing_bench_keys_note(device);
  CHECK_THAT(note, Catch::StartsWith("the device profile has none of the ") && Catch::Contains("thesis' six") &&
                       Catch::Contains("block dispatch"));
  CHECK(note.find("--complete") == std::string::npos);
}
