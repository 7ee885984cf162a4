#include <catch2/catch.hpp>

#include <cmath>

#include "roofcast/model/ablation.hpp"
#include "roofcast/model/device_rates.hpp"
#include "roofcast/model/occupancy.hpp"
#include "roofcast/model/pipes_prediction.hpp"

using namespace roofcast;

namespace {

// A device with round rates: 1000 G warp instructions/s on the FMA pipe and at issue, 500 on
// the ALU pipe, DRAM 4000 GB/s read, 3000 copy, 2000 write, 100 SMs, a 2 us kernel floor.
DeviceProfile round_device() {
  DeviceProfile d;
  d.name = "round";
  d.sm_count = 100;
  d.throughput = {64000, 32000, 32000, 32000, 32000, 3000};
  d.extra_throughput = {{"pipe_fma_gwips", 1000}, {"pipe_alu_gwips", 500},   {"pipe_issue_gwips", 1000},
                        {"dram_read_gbps", 4000}, {"dram_copy_gbps", 3000},  {"dram_write_gbps", 2000},
                        {"kernel_floor_us", 2},   {"tensor_bf16_gflops", 500000}, {"dram_latency_ns", 400}};
  d.occupancy = {2048, 32, 65536, 256, 233472, 1024, 128};
  return d;
}

// A kernel of 5 launches of 1000 blocks x 256 threads with measured pipe counters.
KernelRecord pipe_kernel(std::map<std::string, double> extra, double dram_read_sectors, double dram_write_sectors) {
  KernelRecord k;
  k.name = "k";
  k.invocations = 5;
  LaunchShape shape;
  shape.grid = {1000, 1, 1};
  shape.block = {256, 1, 1};
  shape.invocations = 5;
  shape.registers_per_thread = 32;
  k.launch_shapes = {shape};
  KernelCounters c;
  c.thesis.inst_executed = extra.count("issued") ? extra["issued"] : 0;
  c.thesis.dram_read_transactions = dram_read_sectors;
  c.thesis.dram_write_transactions = dram_write_sectors;
  extra.erase("issued");
  c.extra = std::move(extra);
  k.description = c;
  return k;
}

double cost_of(const PipesPrediction& p, const std::string& name) {
  for (const auto& c : p.compute)
    if (c.name == name) return c.ms;
  for (const auto& c : p.memory)
    if (c.name == name) return c.ms;
  return -1;
}

}  // namespace

TEST_CASE("pipes model: the busiest pipe sets compute time, plus the launches' fixed time") {
  // 1e9 FMA-pipe instructions at 1000 G/s = 1 ms; 4e8 ALU at 500 G/s = 0.8 ms; 1.2e9 issued = 1.2 ms.
  const auto k = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1e9},
                              {"smsp__inst_executed_pipe_alu.sum", 4e8},
                              {"issued", 1.2e9}},
                             0, 0);
  const auto p = predict_pipes(k, round_device());
  CHECK(p.work.measured_pipes);
  CHECK(cost_of(p, "fma pipe") == Approx(1.0));
  CHECK(cost_of(p, "alu pipe") == Approx(0.8));
  CHECK(cost_of(p, "issue") == Approx(1.2));
  CHECK(p.limiter == "issue");
  CHECK(p.bound == Bound::compute);
  CHECK(p.launch_ms == Approx(0.010));  // 5 launches x 2 us
  CHECK(p.predicted_ms == Approx(1.210));
}

TEST_CASE("pipes model: DRAM bandwidth follows the kernel's read/write mix") {
  DeviceRates rates;
  rates.dram_read_gbps = 4000;
  rates.dram_copy_gbps = 3000;
  rates.dram_write_gbps = 2000;
  rates.dram_mean_gbps = 3000;
  CHECK(dram_gbps_for_read_share(rates, 1.0) == Approx(4000));
  CHECK(dram_gbps_for_read_share(rates, 0.75) == Approx(3500));
  CHECK(dram_gbps_for_read_share(rates, 0.5) == Approx(3000));
  CHECK(dram_gbps_for_read_share(rates, 0.0) == Approx(2000));

  // 4e9 bytes read only (125e6 sectors) at 4000 GB/s = 1 ms; with the term off, B_mem 3000 GB/s.
  const auto k = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1}}, 125e6, 0);
  CHECK(cost_of(predict_pipes(k, round_device()), "DRAM") == Approx(1.0));
  PipesTerms no_direction;
  no_direction.dram_direction = false;
  CHECK(cost_of(predict_pipes(k, round_device(), no_direction), "DRAM") == Approx(4.0 / 3));
}

TEST_CASE("pipes model: tensor operations cost the peak of their data type") {
  // 5e11 bf16 tensor operations at 500 TFLOP/s = 1 ms; fp8 has no peak here: not costed, with a note.
  const auto k = pipe_kernel({{"sm__ops_path_tensor_src_bf16_dst_fp32.sum", 5e11},
                              {"sm__ops_path_tensor_src_fp8.sum", 1e12},
                              {"smsp__inst_executed_pipe_fma.sum", 1}},
                             0, 0);
  const auto p = predict_pipes(k, round_device());
  CHECK(cost_of(p, "tensor bf16") == Approx(1.0));
  CHECK(cost_of(p, "tensor fp8") == -1);
  CHECK(p.limiter == "tensor bf16");
  bool noted = false;
  for (const auto& n : p.notes) noted = noted || n.find("fp8") != std::string::npos;
  CHECK(noted);
}

TEST_CASE("pipes model: blocks that do not fill whole waves leave SMs idle") {
  auto k = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1e9}}, 0, 0);
  // 150 blocks on 100 SMs: the busiest SM runs 2 where the mean is 1.5.
  k.launch_shapes[0].grid = {150, 1, 1};
  const auto p = predict_pipes(k, round_device());
  CHECK(p.compute_wave_factor == Approx(2 / 1.5));
  CHECK(p.compute_ms == Approx(1.0 * 2 / 1.5));
  PipesTerms no_waves;
  no_waves.waves = false;
  CHECK(predict_pipes(k, round_device(), no_waves).compute_ms == Approx(1.0));
}

TEST_CASE("occupancy: the tightest of the threads, blocks, registers and shared-memory limits") {
  const OccupancyLimits limits{2048, 32, 65536, 256, 233472, 1024, 128};
  LaunchShape shape;
  shape.block = {256, 1, 1};
  shape.registers_per_thread = 64;  // 2048 registers per warp x 8 warps = 16384 per block: 4 blocks
  auto o = occupancy_of(shape, limits);
  CHECK(o.blocks_per_sm == 4);
  CHECK(o.limiter == "registers");
  shape.registers_per_thread = 32;  // 8 by registers, 8 by threads
  shape.dynamic_shared_bytes = 48 * 1024;  // (48 KiB + 1 KiB reserved) per block: 233472 / 50176 = 4.65
  o = occupancy_of(shape, limits);
  CHECK(o.blocks_per_sm == 4);
  CHECK(o.limiter == "shared memory");
  CHECK(occupancy_of(shape, OccupancyLimits{}).blocks_per_sm == 0);
}

TEST_CASE("pipes model: an SM draws at most the bytes it keeps in flight per latency") {
  // Half of 64 warp slots = 32 warps x 256 bytes / 400 ns = 20.48 GB/s per SM, x 100 SMs.
  const auto k = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1},
                              {"sm__warps_active.avg.pct_of_peak_sustained_active", 50},
                              {"l1tex__t_bytes.sum", 256e6},
                              {"smsp__inst_executed_op_global_ld.sum", 1e6}},
                             62.5e6, 0);  // 2e9 bytes read
  const auto p = predict_pipes(k, round_device());
  const double latency_ms = 2e9 / 2048e9 * 1e3, dram_ms = 2e9 / 4000e9 * 1e3;
  CHECK(cost_of(p, "DRAM parallelism") == Approx(latency_ms));
  CHECK(cost_of(p, "DRAM") == Approx(dram_ms));
  CHECK(p.limiter == "DRAM parallelism");
  // The two bounds meet in a knee: sqrt(a^2 + b^2).
  CHECK(p.memory_ms == Approx(std::hypot(latency_ms, dram_ms)));
  // Each launch that reads memory waits one DRAM round trip (400 ns) besides the 2 us floor.
  CHECK(p.launch_ms == Approx(5 * (2.0 + 0.4) * 1e-3));
}

TEST_CASE("pipes model: without pipe counters, the thesis counters' classes go to their pipes") {
  KernelRecord k;
  k.name = "old";
  KernelCounters c;
  c.thesis.inst_executed = 1000;
  c.thesis.inst_fp_32 = 16000;  // half of 32000 thread instructions
  c.thesis.inst_integer = 16000;
  k.description = c;
  const auto p = predict_pipes(k, round_device());
  CHECK_FALSE(p.work.measured_pipes);
  CHECK(p.work.pipe_instructions.at("fma") == Approx(500));
  CHECK(p.work.pipe_instructions.at("alu") == Approx(500));
}

TEST_CASE("pipes calibration: the limiting side keeps its efficiency from the reference device") {
  const auto k = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1e9}}, 0, 0);
  const DeviceProfile reference = round_device();
  DeviceProfile target = round_device();
  target.extra_throughput["pipe_fma_gwips"] = 2000;  // twice as fast: 0.5 ms
  // Measured 2.01 ms on the reference: 2 ms of work where 1 ms was predicted.
  CHECK(calibrated_pipes_ms(k, target, reference, 2.010) == Approx(0.010 + 2 * 0.5));
}

TEST_CASE("ablation: the thesis model, the pipes model and one variant per term") {
  const auto variants = ablation_variants();
  REQUIRE(variants.size() == 2 + pipes_term_names().size());
  CHECK(variants[0].name == "thesis");
  CHECK(variants[1].name == "pipes");
  CHECK(variants[2].name == "pipes without pipes");
}

TEST_CASE("pipes model reads the counters as GH100 names them") {
  // The FMA pipe is its two halves; fp16 work is pipe_fma_type_fp16; atomics are SASS-patched counters.
  const auto k = pipe_kernel({{"smsp__inst_executed_pipe_fmaheavy.sum", 3e8},
                              {"smsp__inst_executed_pipe_fmalite.sum", 2e8},
                              {"smsp__inst_executed_pipe_fma_type_fp16.sum", 7},
                              {"smsp__sass_inst_executed_op_global_atom.sum", 5},
                              {"smsp__sass_inst_executed_op_global_red.sum", 6},
                              {"smsp__sass_inst_executed_op_shared_atom.sum", 2}},
                             0, 0);
  const auto w = predict_pipes(k, round_device()).work;
  CHECK(w.pipe_instructions.at("fma") == 5e8);
  CHECK(w.pipe_instructions.at("fmaheavy") == 3e8);
  CHECK(w.pipe_instructions.at("fp16") == 7);
  CHECK(w.global_atomic_instructions == 11);
  CHECK(w.shared_atomic_instructions == 2);
}

TEST_CASE("pipes model: wgmma kernels cost the wgmma peak, mma.sync kernels the mma.sync peak") {
  DeviceProfile device = round_device();
  device.extra_throughput["tensor_wgmma_bf16_gflops"] = 1000000;  // twice the mma.sync peak
  auto k = pipe_kernel({{"sm__ops_path_tensor_src_bf16_dst_fp32.sum", 1e12},
                        {"smsp__inst_executed_pipe_tensor_op_gmma.sum", 100},
                        {"smsp__inst_executed_pipe_tensor_op_hmma.sum", 10},
                        {"smsp__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum", 10}},
                       0, 0);
  CHECK(cost_of(predict_pipes(k, device), "tensor bf16") == Approx(1.0));  // 1e12 at 1000 TFLOP/s
  std::get<KernelCounters>(k.description).extra["smsp__inst_executed_pipe_tensor_op_gmma.sum"] = 0;
  std::get<KernelCounters>(k.description).extra["smsp__inst_executed_pipe_tensor_op_hmma.sum"] = 1000;
  CHECK(cost_of(predict_pipes(k, device), "tensor bf16") == Approx(2.0));  // at 500 TFLOP/s
}
