// `roofcast bench --complete`: which characterizers a device profile needs, which GPU may
// complete it, and how their results join the profile. No GPU needed.
#include <catch2/catch.hpp>

#include <algorithm>

#include "roofcast/formats/profile_json.hpp"
#include "roofcast/microbench/bench_completion.hpp"
#include "roofcast/microbench/peak_table.hpp"
#include "roofcast/model/bench_keys.hpp"
#include "run_command.hpp"

using namespace roofcast::microbench;
using roofcast::DeviceProfile;
using nlohmann::json;

namespace {

Measurement measured(const std::string& key, const std::string& unit, double value) {
  Measurement m;
  m.key = key;
  m.label = key;
  m.unit = unit;
  m.value = {value, value * 0.99, value * 1.01, 15};
  m.time_ms = {3, 2.9, 3.1, 15};
  m.verified = true;
  return m;
}

// A profile with every key the pipes model reads but `lacking`.
DeviceProfile profile_without(const std::vector<std::string>& lacking) {
  DeviceProfile d;
  d.name = "NVIDIA H100 80GB HBM3";
  d.throughput = {65000, 33000, 33000, 32000, 8000, 3100};
  for (const auto& k : roofcast::pipes_bench_keys())
    if (std::find(lacking.begin(), lacking.end(), k.key) == lacking.end()) d.extra_throughput[std::string(k.key)] = 1;
  return d;
}

// The JSON `roofcast bench` writes, with the GPU it ran on.
json profile_document() {
  return {{"format", "roofcast-device"},
          {"version", 1},
          {"name", "NVIDIA H100 80GB HBM3"},
          {"throughput",
           {{"fp32_gflops", 65000}, {"fp64_gflops", 33000}, {"int32_mad_giops", 33000}, {"int32_add_giops", 32000},
            {"shared_ldst_gops", 8000}, {"dram_gbps", 3100}, {"kernel_floor_us", 0.79}}},
          {"device",
           {{"name", "NVIDIA H100 80GB HBM3"}, {"pci_bus_id", "0000:00:06.0"}, {"sm_count", 132},
            {"mps_active_thread_percentage", ""}}},
          {"measurements", {{"kernel_floor_us", {{"unit", "us"}}}}},
          {"provenance", {{"command", "roofcast bench --output h100.json"}, {"date_utc", "2026-11-22T03:58:08Z"}}}};
}

DeviceInfo h100() {
  DeviceInfo gpu;
  gpu.name = "NVIDIA H100 80GB HBM3";
  gpu.pci_bus_id = "0000:00:06.0";
  gpu.sm_count = 132;
  gpu.sm_count_observed = 132;
  return gpu;
}

}  // namespace

TEST_CASE("bench --complete: every key the pipes model reads has a characterizer") {
  for (const auto& k : roofcast::pipes_bench_keys()) {
    INFO(k.key);
    CHECK(std::count_if(bench_groups().begin(), bench_groups().end(), [&](const BenchGroup& g) {
            return std::find(g.keys.begin(), g.keys.end(), k.key) != g.keys.end();
          }) == 1);
  }
}

TEST_CASE("bench --complete: runs only the groups of the keys a profile lacks, in the suite's order") {
  CHECK(completion_plan(profile_without({})).missing_keys.empty());
  CHECK(completion_plan(profile_without({})).groups.empty());

  const auto one = completion_plan(profile_without({"block_dispatch_gblocks"}));
  CHECK(one.missing_keys == std::vector<std::string>{"block_dispatch_gblocks"});
  CHECK(one.groups == std::vector<std::string>{"launch overhead"});

  const auto several = completion_plan(profile_without(
      {"block_dispatch_gblocks", "latency_ffma_ns", "latency_dram_warp_ns", "atomic_global_same_word_gops",
       "dram_elementwise_add_gbps", "tensor_wgmma_fp16_gflops"}));
  CHECK(several.groups ==
        std::vector<std::string>{"atomics", "DRAM", "arithmetic latency", "memory latency", "launch overhead"});
  // Tensor peaks exist only on GPUs with those units: their absence is no gap to fill.
  CHECK(std::count(several.missing_keys.begin(), several.missing_keys.end(), "tensor_wgmma_fp16_gflops") == 0);

  // The thesis' six throughputs only: every group that measures a key the model reads.
  const auto bare = completion_plan(profile_without([] {
    std::vector<std::string> all;
    for (const auto& k : roofcast::pipes_bench_keys()) all.emplace_back(k.key);
    return all;
  }()));
  CHECK(std::count(bare.groups.begin(), bare.groups.end(), "roofline sweep") == 0);
  CHECK(std::count(bare.groups.begin(), bare.groups.end(), "tensor cores") == 0);
  CHECK(std::count(bare.groups.begin(), bare.groups.end(), "pipe issue rates") == 1);
}

TEST_CASE("bench --complete: a profile is completed only on the GPU that measured it") {
  const json document = profile_document();
  CHECK(completion_mismatch(document, h100()) == "");

  DeviceInfo other = h100();
  other.name = "NVIDIA H200";
  CHECK_THAT(completion_mismatch(document, other),
             Catch::Contains("measured on NVIDIA H100 80GB HBM3, this GPU is NVIDIA H200"));
  other = h100();
  other.pci_bus_id = "0000:00:07.0";
  CHECK_THAT(completion_mismatch(document, other), Catch::Contains("PCI bus id 0000:00:06.0, this one is at 0000:00:07.0"));
  other = h100();
  other.mps_active_thread_percentage = "25";
  other.sm_count = 32;
  CHECK_THAT(completion_mismatch(document, other), Catch::Contains("this GPU is NVIDIA H100 80GB HBM3 (MPS 25%)"));
  other = h100();
  other.sm_count_observed = 120;
  CHECK_THAT(completion_mismatch(document, other), Catch::Contains("132 SMs, this process has 120"));

  json published = document;
  published.erase("device");
  CHECK_THAT(completion_mismatch(published, h100()), Catch::Contains("records no GPU"));
}

TEST_CASE("bench --complete: adds what the profile lacks, keeps what it has, and says when and what") {
  SuiteResult result;
  result.device = h100();
  result.clocks.sm_clock_mhz_in_kernel = 1980;
  result.measurements = {measured("kernel_floor_us", "us", 0.5), measured("launch_overhead_us", "us", 4.6),
                         measured("block_dispatch_gblocks", "G/s", 1.65), measured("tiny_kernel_us", "us", 2.1)};
  const CompletionPlan plan{{"block_dispatch_gblocks"}, {"launch overhead"}};
  const roofcast::microbench::Provenance provenance{"NVIDIA H100 80GB HBM3", "roofcast bench --complete h100.json",
                                                    "2026-11-28T10:00:00Z", "0.1.0", "abc123"};
  const json document = profile_document();
  CHECK(keys_to_add(document, result) ==
        std::vector<std::string>{"launch_overhead_us", "block_dispatch_gblocks", "tiny_kernel_us"});
  const json completed = completed_profile(document, result, plan, provenance);

  CHECK(completed["throughput"]["block_dispatch_gblocks"] == 1.65);
  CHECK(completed["throughput"]["kernel_floor_us"] == 0.79);  // the profile's own measurement stays
  CHECK(completed["measurements"]["block_dispatch_gblocks"]["unit"] == "G/s");
  CHECK(completed["measurements"]["kernel_floor_us"] == document["measurements"]["kernel_floor_us"]);
  CHECK(completed["provenance"]["command"] == "roofcast bench --output h100.json");
  REQUIRE(completed["provenance"]["completions"].size() == 1);
  const json& run = completed["provenance"]["completions"][0];
  CHECK(run["command"] == "roofcast bench --complete h100.json");
  CHECK(run["date_utc"] == "2026-11-28T10:00:00Z");
  CHECK(run["groups"] == json::array({"launch overhead"}));
  CHECK(run["keys_added"] == json::array({"launch_overhead_us", "block_dispatch_gblocks", "tiny_kernel_us"}));
  CHECK(run["roofcast_git"] == "abc123");

  const DeviceProfile back = roofcast::parse_device_profile(completed.dump(), "completed.json");
  CHECK(back.extra_throughput.at("block_dispatch_gblocks") == 1.65);
  // A second completion adds its own record after the first.
  CHECK(completed_profile(completed, result, plan, provenance)["provenance"]["completions"].size() == 2);
}

TEST_CASE("roofcast bench --complete takes no --csv, --report or --name, and bench needs --output or --complete") {
  using roofcast::testing::run_roofcast;
  const auto neither = run_roofcast({"bench", "--quick"});
  CHECK(neither.exit_code != 0);
  CHECK_THAT(neither.err, Catch::Contains("--output") && Catch::Contains("--complete"));
  const auto csv = run_roofcast({"bench", "--complete", "h100.json", "--csv", "h100.csv"});
  CHECK(csv.exit_code != 0);
  CHECK_THAT(csv.err, Catch::Contains("--complete") && Catch::Contains("--csv"));
}
