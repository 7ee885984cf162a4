// The multi-pipeline rates (issue #7): per-pipe warp-instruction rates, the extra tensor peaks,
// the occupancy calculator's units and the fields they put in the device profile.
#include <catch2/catch.hpp>

#include "roofcast/formats/profile_json.hpp"
#include "roofcast/microbench/peak_table.hpp"
#include "roofcast/microbench/pipe_rates.hpp"
#include "roofcast/microbench/report.hpp"

using namespace roofcast::microbench;

namespace {

Measurement make(const std::string& key, const std::string& unit, double value, double clock_mhz = 0) {
  Measurement m;
  m.key = key;
  m.label = key;
  m.unit = unit;
  m.value = {value, value, value, 15};
  m.time_ms = {3, 3, 3, 15};
  m.verified = true;
  m.sm_clock_mhz = clock_mhz;
  return m;
}

}  // namespace

TEST_CASE("pipe rates follow the programming guide's throughput table divided by 32 lanes") {
  CHECK(*pipe_warp_instructions_per_clock("sm_90", "fma") == 4);     // FP32: 128 results per clock
  CHECK(*pipe_warp_instructions_per_clock("sm_90", "fp64") == 2);    // 64
  CHECK(*pipe_warp_instructions_per_clock("sm_90", "alu") == 2);     // 32-bit logic: 64
  CHECK(*pipe_warp_instructions_per_clock("sm_90", "fmaheavy") == 2);  // IMAD: 64
  CHECK(*pipe_warp_instructions_per_clock("sm_90", "xu") == 0.5);    // MUFU: 16
  CHECK(*pipe_warp_instructions_per_clock("sm_90", "fp16") == 4);    // HFMA2: 256 half results
  CHECK(*pipe_warp_instructions_per_clock("sm_90", "lsu") == 1);     // 32 banks x 4 bytes
  CHECK(*pipe_warp_instructions_per_clock("sm_90", "issue") == 4);   // 4 sub-partitions x 1
  CHECK(*pipe_warp_instructions_per_clock("sm_80", "fma") == 2);
  CHECK(*pipe_warp_instructions_per_clock("sm_80", "fp64") == 1);
  CHECK(*pipe_warp_instructions_per_clock("sm_86", "fp64") == Approx(2.0 / 32));
  CHECK(*pipe_warp_instructions_per_clock("sm_70", "issue") == 4);
}

TEST_CASE("unknown architectures and pipes get no rate, not a guess") {
  CHECK_FALSE(pipe_warp_instructions_per_clock("sm_99", "fma").has_value());
  CHECK_FALSE(pipe_warp_instructions_per_clock("gfx90a", "fma").has_value());
  CHECK_FALSE(pipe_warp_instructions_per_clock("sm_90", "tensor").has_value());
  CHECK_FALSE(pipe_rates("").has_value());
}

TEST_CASE("the pipe and tensor keys get theoretical peaks from the clock and SMs") {
  const auto hopper = *architecture_rates("sm_90");
  auto peak = [&](const char* key) { return theoretical_peak(key, hopper, 132, 2000, 2619, 5120); };
  CHECK(*peak("pipe_fma_gwips") == Approx(4 * 132 * 2.0));  // warp instructions per ns
  CHECK(*peak("pipe_xu_gwips") == Approx(0.5 * 132 * 2.0));
  CHECK(*peak("pipe_issue_gwips") == Approx(4 * 132 * 2.0));
  CHECK(*peak("tensor_tf32_gflops") == Approx(2048 * 132 * 2.0));
  CHECK(*peak("tensor_fp64_gflops") == Approx(256 * 132 * 2.0));
  CHECK(*peak("tensor_int8_giops") == Approx(8192 * 132 * 2.0));
  // wgmma keys: the same dense rates as the mma.sync ones (989 TFLOP/s fp16 at 132 SMs x 1830 MHz).
  CHECK(*peak("tensor_wgmma_fp16_gflops") == Approx(4096 * 132 * 2.0));
  CHECK(*peak("tensor_wgmma_bf16_gflops") == Approx(4096 * 132 * 2.0));
  CHECK(*peak("tensor_wgmma_tf32_gflops") == Approx(2048 * 132 * 2.0));
  CHECK(*peak("tensor_wgmma_int8_giops") == Approx(8192 * 132 * 2.0));
  CHECK_FALSE(peak("pipe_unknown_gwips").has_value());
  CHECK_FALSE(peak("pipe__gwips").has_value());
  CHECK_FALSE(peak("atomic_global_gops").has_value());
  CHECK_FALSE(peak("kernel_floor_us").has_value());
  // No tensor value where none is documented.
  CHECK_FALSE(theoretical_peak("tensor_tf32_gflops", *architecture_rates("sm_86"), 84, 1700, 9751, 384).has_value());
  CHECK_FALSE(theoretical_peak("pipe_fma_gwips", *architecture_rates("gfx90a"), 110, 1700, 1600, 4096).has_value());
}

TEST_CASE("occupancy allocation units come from the occupancy calculator's constants") {
  CHECK(allocation_units(9)->register_allocation_unit == 256);
  CHECK(allocation_units(9)->shared_allocation_unit == 128);
  CHECK(allocation_units(8)->shared_allocation_unit == 128);
  CHECK(allocation_units(7)->shared_allocation_unit == 256);
  CHECK(allocation_units(7)->max_registers_per_thread == 255);
  CHECK_FALSE(allocation_units(0).has_value());
  CHECK_FALSE(allocation_units(6).has_value());
}

TEST_CASE("the device profile carries pipe rates, fractions and occupancy limits") {
  SuiteResult r;
  r.device.name = "NVIDIA H200";
  r.device.backend = "cuda";
  r.device.arch = "sm_90";
  r.device.sm_count = 132;
  r.device.warp_size = 32;
  r.device.occupancy = {2048, 32, 65536, 255, 256, 233472, 232448, 1024, 128};
  r.clocks.sm_clock_mhz_in_kernel = 1980;
  r.measurements = {make("fp32_gflops", "GFLOP/s", 65000),   make("fp64_gflops", "GFLOP/s", 33000),
                    make("int32_mad_giops", "GIOP/s", 32000), make("int32_add_giops", "GIOP/s", 16000),
                    make("shared_ldst_gops", "G/s", 8000),     make("dram_read_gbps", "GB/s", 3000),
                    make("dram_write_gbps", "GB/s", 3100),     make("dram_copy_gbps", "GB/s", 2900),
                    make("pipe_fma_gwips", "Gwarp-inst/s", 1000, 2000),
                    make("atomic_global_gops", "G/s", 650),    make("kernel_floor_us", "us", 0.63)};
  apply_theoretical_peaks(r);
  const auto json = device_profile_json(r, {"H200", "roofcast bench", "2026-11-22T03:00:00Z", "0.1"});
  CHECK(json.at("throughput").at("pipe_fma_gwips").get<double>() == 1000);
  CHECK(json.at("throughput").at("atomic_global_gops").get<double>() == 650);
  CHECK(json.at("throughput").at("kernel_floor_us").get<double>() == 0.63);
  CHECK(json.at("theoretical").at("pipe_fma_gwips").get<double>() == Approx(4 * 132 * 2.0));
  CHECK(json.at("fraction_of_theoretical").at("pipe_fma_gwips").get<double>() == Approx(1000 / (4 * 132 * 2.0)));
  CHECK_FALSE(json.at("theoretical").contains("atomic_global_gops"));
  const auto& device = json.at("device");
  CHECK(device.at("max_threads_per_sm") == 2048);
  CHECK(device.at("warps_per_sm") == 64);
  CHECK(device.at("max_blocks_per_sm") == 32);
  CHECK(device.at("registers_per_sm") == 65536);
  CHECK(device.at("max_registers_per_thread") == 255);
  CHECK(device.at("register_allocation_unit") == 256);
  CHECK(device.at("shared_bytes_per_sm") == 233472);
  CHECK(device.at("max_shared_bytes_per_block_optin") == 232448);
  CHECK(device.at("reserved_shared_bytes_per_block") == 1024);
  CHECK(device.at("shared_allocation_unit") == 128);
  const auto back = roofcast::parse_device_profile(json.dump(), "written.json");
  CHECK(back.extra_throughput.at("pipe_fma_gwips") == 1000);
}

TEST_CASE("occupancy limits the runtime did not give are left out, not written as zero") {
  SuiteResult r;
  r.device.arch = "gfx90a";
  r.device.backend = "hip";
  r.device.sm_count = 110;
  r.device.warp_size = 64;
  r.device.occupancy.max_threads_per_sm = 2048;
  r.measurements = {make("fp32_gflops", "GFLOP/s", 1),    make("fp64_gflops", "GFLOP/s", 1),
                    make("int32_mad_giops", "GIOP/s", 1), make("int32_add_giops", "GIOP/s", 1),
                    make("shared_ldst_gops", "G/s", 1),   make("dram_read_gbps", "GB/s", 1),
                    make("dram_write_gbps", "GB/s", 1),   make("dram_copy_gbps", "GB/s", 1)};
  const auto json = device_profile_json(r, {"MI210", "roofcast bench", "2026-11-22T03:00:00Z", "0.1"});
  CHECK(json.at("device").at("warps_per_sm") == 32);
  CHECK_FALSE(json.at("device").contains("registers_per_sm"));
  CHECK_FALSE(json.at("device").contains("reserved_shared_bytes_per_block"));
}
