// The spec table (data/specs/gpus.json): every entry's numbers in the ranges of their units,
// with a source; the datasheets' vector peaks agree with the per-SM rates; the per-SM rates are
// those roofcast bench computes its theoretical peaks from; bad tables are refused by field.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "roofcast/formats/files.hpp"
#include "roofcast/formats/gpu_specs_json.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/microbench/peak_table.hpp"
#include "roofcast/microbench/pipe_rates.hpp"
#include "roofcast/model/gpu_specs.hpp"

namespace {

const std::filesystem::path kTable = std::filesystem::path(ROOFCAST_SOURCE_DIR) / "data" / "specs" / "gpus.json";

roofcast::GpuSpecTable shipped_table() { return roofcast::parse_gpu_spec_table(roofcast::read_text_file(kTable), kTable.string()); }

// The shipped table with one edit, parsed: the error message, "" when it is accepted.
std::string problem_after(const std::function<void(nlohmann::json&)>& edit) {
  nlohmann::json table = nlohmann::json::parse(roofcast::read_text_file(kTable));
  edit(table);
  try {
    roofcast::parse_gpu_spec_table(table.dump(), "gpus.json");
  } catch (const roofcast::InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the spec table covers the GPUs users compare, each with sources") {
  const auto table = shipped_table();
  for (const char* id : {"a100-sxm-40gb", "a100-sxm-80gb", "a100-pcie-40gb", "a100-pcie-80gb", "h100-sxm", "h100-pcie",
                         "h100-nvl", "h200-sxm", "b200", "l4", "l40s", "rtx-4090", "rtx-6000-ada", "mi250x-gcd", "mi300x"}) {
    INFO(id);
    CHECK(table.find_gpu(id) != nullptr);
  }
  // The two GPUs we measure are matched to their entries by the name the driver reports.
  CHECK(table.gpu_of_device_name("NVIDIA H100 80GB HBM3") == table.find_gpu("h100-sxm"));
  CHECK(table.gpu_of_device_name("NVIDIA H200") == table.find_gpu("h200-sxm"));
}

TEST_CASE("every GPU's datasheet vector peaks are its SMs x boost clock x the architecture's lanes") {
  const auto table = shipped_table();
  for (const auto& gpu : table.gpus) {
    INFO(gpu.id);
    const auto& arch = table.architecture_of(gpu);
    const double per_clock = gpu.sm_count * gpu.boost_clock_mhz * 1e6 / 1e12;  // TFLOP/s per flop per clock per SM
    CHECK(2 * arch.lanes_per_clock.at("fp32_fma") * per_clock == Approx(gpu.vector_tflops.at("fp32")).epsilon(0.02));
    CHECK(2 * arch.lanes_per_clock.at("fp64_fma") * per_clock == Approx(gpu.vector_tflops.at("fp64")).epsilon(0.02));
    // Dense tensor rates: at most the per-SM rate of a 4096-flop (sm_90) or 8192-flop (sm_100) tensor core at boost.
    for (const auto& [type, tflops] : gpu.tensor_tflops) {
      INFO(type);
      CHECK(tflops / per_clock <= 8192 * (type == "int8" ? 2 : 1) * 1.02);
    }
    CHECK(gpu.l2_bytes <= 256.0 * (1 << 20));
    CHECK(gpu.memory_gbps / gpu.memory_gb < 100);  // GB/s per GB: a bandwidth in TB/s or a size in bytes would not fit
  }
}

TEST_CASE("the spec table's per-SM rates are those roofcast bench computes theoretical peaks from") {
  const auto table = shipped_table();
  for (const auto& arch : table.architectures) {
    INFO(arch.arch);
    const auto bench = roofcast::microbench::architecture_rates(arch.arch);
    if (!bench) continue;  // gfx942: not benched yet
    CHECK(arch.lanes_per_clock.at("fp32_fma") == bench->fp32_lanes);
    CHECK(arch.lanes_per_clock.at("fp64_fma") == bench->fp64_lanes);
    CHECK(arch.lanes_per_clock.at("fp16") == bench->fp16_lanes);
    CHECK(arch.lanes_per_clock.at("int32_mad") == bench->int32_mad_lanes);
    CHECK(arch.lanes_per_clock.at("int32_add") == bench->int32_add_lanes);
    CHECK(arch.shared_bytes_per_clock == bench->shared_bytes_per_clock);
    CHECK(arch.l1_bytes_per_clock == bench->l1_bytes_per_clock);
    for (const auto& [pipe, rate] : arch.pipe_warp_instructions_per_clock)
      if (const auto benched = roofcast::microbench::pipe_warp_instructions_per_clock(arch.arch, pipe)) {
        INFO(pipe);
        CHECK(rate == *benched);
      }
  }
}

TEST_CASE("a spec table with a number in the wrong unit or without a source is refused, naming the field") {
  CHECK(problem_after([](nlohmann::json&) {}).empty());
  CHECK_THAT(problem_after([](nlohmann::json& t) { t["gpus"][0]["boost_clock_mhz"] = 1.41; }),
             Catch::Contains("gpus[0].boost_clock_mhz: must be 300 to 4000 MHz"));
  CHECK_THAT(problem_after([](nlohmann::json& t) { t["gpus"][4]["memory_gbps"] = 3.35; }),
             Catch::Contains("gpus[4].memory_gbps"));
  CHECK_THAT(problem_after([](nlohmann::json& t) { t["gpus"][4]["l2_bytes"] = 50; }), Catch::Contains("gpus[4].l2_bytes"));
  CHECK_THAT(problem_after([](nlohmann::json& t) { t["gpus"][1]["sm_count"] = 108.5; }),
             Catch::Contains("gpus[1].sm_count: must be a whole number"));
  CHECK_THAT(problem_after([](nlohmann::json& t) { t["gpus"][2]["tensor_tflops"]["fp8"] = 600; }),
             Catch::Contains("gpus[2].tensor_tflops.fp8: unknown"));
  CHECK_THAT(problem_after([](nlohmann::json& t) { t["gpus"][3]["sources"].erase("memory_gbps"); }),
             Catch::Contains("gpus[3].sources.memory_gbps: missing"));
  CHECK_THAT(problem_after([](nlohmann::json& t) { t["gpus"][3]["sources"]["l2_bytes"] = "a-forum-post"; }),
             Catch::Contains("\"a-forum-post\" is not in the table's sources"));
  CHECK_THAT(problem_after([](nlohmann::json& t) { t["architectures"][0]["occupancy"]["max_threads_per_sm"] = 2048.5; }),
             Catch::Contains("architectures[0].occupancy.max_threads_per_sm"));
  CHECK_THAT(problem_after([](nlohmann::json& t) { t["architectures"][2]["pipe_warp_instructions_per_clock"]["fma"] = 128; }),
             Catch::Contains("architectures[2].pipe_warp_instructions_per_clock.fma: must be"));
  CHECK_THAT(problem_after([](nlohmann::json& t) { t["gpus"][5]["arch"] = "sm_75"; }),
             Catch::Contains("\"sm_75\" is not in architectures"));
  CHECK_THAT(problem_after([](nlohmann::json& t) { t["gpus"][6]["id"] = "h100-sxm"; }),
             Catch::Contains("\"h100-sxm\" is listed again"));
}

TEST_CASE("an MPS partition gets whole TPCs of its share, as measured") {
  CHECK(roofcast::mps_partition_sm_count(132, 100) == 132);
  CHECK(roofcast::mps_partition_sm_count(132, 50) == 66);
  CHECK(roofcast::mps_partition_sm_count(132, 25) == 32);
  CHECK(roofcast::mps_partition_sm_count(108, 1) == 2);
}
