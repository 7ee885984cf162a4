#include <catch2/catch.hpp>

#include "hundred_sm_device.hpp"

#include <algorithm>
#include <cmath>

#include "roofcast/model/ablation.hpp"
#include "roofcast/model/device_rates.hpp"
#include "roofcast/model/l2_residency.hpp"
#include "roofcast/model/occupancy.hpp"
#include "roofcast/model/pipes_prediction.hpp"

using namespace roofcast;

namespace {

// A device with round rates (hundred_sm_device.hpp), and 500 G warp instructions/s on the ALU
// pipe and 500 TFLOP/s of BF16 tensor math.
DeviceProfile round_device() {
  DeviceProfile d = test::hundred_sm_device();
  d.name = "round";
  d.extra_throughput["pipe_alu_gwips"] = 500;
  d.extra_throughput["tensor_bf16_gflops"] = 500000;
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
  CHECK(p.work->measured_pipes);
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
  // A measured elementwise add (2/3 read) bends the line: on a small partition mixes move the most.
  DeviceRates with_add = rates;
  with_add.dram_elementwise_add_gbps = 4600;
  CHECK(dram_gbps_for_read_share(with_add, 2.0 / 3.0) == Approx(4600));
  CHECK(dram_gbps_for_read_share(with_add, 0.5) == Approx(3000));
  CHECK(dram_gbps_for_read_share(with_add, 5.0 / 6.0) == Approx(4300));
  CHECK(dram_gbps_for_read_share(with_add, 1.0) == Approx(4000));

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
  p.for_each_note([&](std::string_view n) { noted = noted || n.find("fp8") != std::string_view::npos; });
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
  CHECK_FALSE(p.work->measured_pipes);
  CHECK(p.work->pipe_instructions.at("fma") == Approx(500));
  CHECK(p.work->pipe_instructions.at("alu") == Approx(500));
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
  const auto w = *predict_pipes(k, round_device()).work;
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

namespace {

// round_device() with the latency characterizers: a 1000 MHz clock (1 ns per cycle), one warp
// issuing every cycle, FFMA 4 ns, DFMA 8 ns, shared load 30 ns, MUFU 20 ns, L1 hit 30 ns, L2
// hit 200 ns, DRAM 500 ns.
DeviceProfile device_with_latencies() {
  DeviceProfile d = round_device();
  d.sm_clock_mhz = 1000;
  for (const auto& [key, value] : std::map<std::string, double>{{"warp_issue_interval_ns", 1},
                                                                {"latency_ffma_ns", 4},
                                                                {"latency_dfma_ns", 8},
                                                                {"latency_shared_load_ns", 30},
                                                                {"latency_mufu_ns", 20},
                                                                {"latency_l1_hit_ns", 30},
                                                                {"latency_l2_hit_ns", 200},
                                                                {"latency_dram_ns", 500}})
    d.extra_throughput[key] = value;
  return d;
}

// A kernel of `blocks` x `threads` (one launch, 32 registers per thread) that issued
// `per_warp` instructions per warp and stalled `stalls` cycles per instruction per reason, on
// a reference clocked at 1000 MHz.
KernelRecord stalled_kernel(double blocks, double threads, double per_warp, std::map<std::string, double> stalls,
                            std::map<std::string, double> extra = {}) {
  const double warps = blocks * std::ceil(threads / 32), instructions = warps * per_warp;
  extra["smsp__inst_executed_pipe_fma.sum"] = instructions;
  extra["issued"] = instructions;
  extra["sm__warps_launched.sum"] = warps;
  extra["sm__cycles_elapsed.avg.per_second"] = 1e9;
  for (const auto& [reason, per_instruction] : stalls)
    extra["smsp__warps_issue_stalled_" + reason + ".sum"] = per_instruction * instructions;
  KernelRecord k = pipe_kernel(std::move(extra), 0, 0);
  k.invocations = 1;
  k.launch_shapes[0].grid = {blocks, 1, 1};
  k.launch_shapes[0].block = {threads, 1, 1};
  k.launch_shapes[0].invocations = 1;
  return k;
}

double part_of(const LatencyTerm& t, const std::string& name) {
  for (const auto& part : t.parts)
    if (part.name == name) return part.ns;
  return -1;
}

bool has_note(const PipesPrediction& p, const std::string& text) {
  bool found = false;
  p.for_each_note([&](std::string_view n) { found = found || n.find(text) != std::string_view::npos; });
  return found;
}

}  // namespace

TEST_CASE("latency: four warps on the whole GPU take their own serial time (issue 13's 238 ms kernel)") {
  // 4 blocks x 32 threads, 51 M instructions per warp, 8.3 cycles of dependency wait each plus
  // the issue cycle: 51e6 x 9.3 cycles at 1.98 GHz = 239.5 ms (measured on an H200: 238 ms).
  DeviceProfile h200 = device_with_latencies();
  h200.sm_clock_mhz = 1980;
  h200.extra_throughput.erase("warp_issue_interval_ns");  // one cycle at the target's clock
  const auto k = stalled_kernel(4, 32, 51e6, {{"wait", 8.3}, {"selected", 1}});
  const auto p = predict_pipes(k, h200);
  REQUIRE(p.latency.modelled);
  CHECK(p.latency.instructions_per_warp == Approx(51e6));
  CHECK(p.latency.waves == 1);
  CHECK(p.latency.resident_warps_per_scheduler == 1);
  CHECK(p.latency.ns_per_instruction == Approx(9.3 / 1.98));
  CHECK(p.latency.ms == Approx(51e6 * 9.3 / 1.98e9 * 1e3));
  CHECK(p.limiter == "latency (fp32 dependency)");
  // Latency and compute meet in a knee: the few ms of issue add little to 239.5 ms.
  CHECK(p.predicted_ms == Approx(p.launch_ms + std::hypot(p.compute_ms, p.latency.ms)));
  CHECK(p.predicted_ms == Approx(p.latency.ms).epsilon(0.01));
  // The throughput costs alone say a few ms: issue on 4 of 100 SMs.
  CHECK(p.compute_ms < 10);
  PipesTerms no_latency;
  no_latency.latency = false;
  CHECK(predict_pipes(k, h200, no_latency).predicted_ms < 10);
}

TEST_CASE("latency: waves of resident blocks each take one warp's serial time") {
  // 2000 blocks of 256 threads, 8 fit per SM: the busiest of 100 SMs runs 20 blocks in 3 waves.
  const auto k = stalled_kernel(2000, 256, 1000, {{"wait", 7}, {"selected", 1}});
  const auto p = predict_pipes(k, device_with_latencies());
  CHECK(p.latency.waves == 3);
  CHECK(p.latency.resident_warps_per_scheduler == 16);  // 8 blocks x 8 warps over 4 schedulers
  CHECK(p.latency.warps_to_hide_latency == Approx(8));  // 8 ns per instruction over a 1 ns issue
  CHECK(p.latency.ms == Approx(3 * 1000 * 8e-6));
}

TEST_CASE("latency: a full-occupancy streaming kernel is not latency bound (queueing is not latency)") {
  // 100000 blocks x 256 threads, 22 instructions per warp, one 256-byte load and store per warp,
  // all from DRAM. At full occupancy the long-scoreboard stalls (500 cycles per instruction)
  // are mostly queueing under bandwidth load; exposed waits are capped at one unloaded DRAM
  // latency per load: 500 ns / 22 per instruction.
  const double warps = 100000 * 8.0, sectors = warps * 8;
  auto k = stalled_kernel(100000, 256, 22, {{"long_scoreboard", 500}, {"not_selected", 10}, {"selected", 1}},
                                {{"smsp__inst_executed_op_global_ld.sum", warps},
                                 {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", sectors},
                                 {"lts__t_sectors_srcunit_tex_lookup_miss.sum", sectors}});
  std::get<KernelCounters>(k.description).thesis.dram_read_transactions = sectors;
  std::get<KernelCounters>(k.description).thesis.dram_write_transactions = sectors;
  const auto p = predict_pipes(k, device_with_latencies());
  REQUIRE(p.latency.modelled);
  CHECK(part_of(p.latency, "memory") == Approx(500.0 / 22));
  CHECK(p.latency.kind == "memory");
  // 125 waves of 8 blocks per SM whose warps wait for memory: a share 1/16 of the slots waits
  // for a block's last warp (block-refill), so the waves take 1 / (1 - 1/16) as long.
  CHECK(p.latency.ms == Approx(125 * 22 * (1 + 500.0 / 22) * 1e-6 / 0.9375));
  CHECK(p.latency.ms < p.memory_ms);
  CHECK(p.limiter == "DRAM");
  PipesTerms no_refill;
  no_refill.block_refill = false;
  CHECK(predict_pipes(k, device_with_latencies(), no_refill).latency.ms == Approx(p.latency.ms * 0.9375));
}

TEST_CASE("latency: warps waiting for their own arithmetic leave a block together (no block refill)") {
  // 3 waves of warps that wait on FMA dependencies: the same time with and without block-refill.
  const auto k = stalled_kernel(2000, 256, 1000, {{"wait", 7}, {"selected", 1}});
  PipesTerms no_refill;
  no_refill.block_refill = false;
  const auto with = predict_pipes(k, device_with_latencies()), without = predict_pipes(k, device_with_latencies(), no_refill);
  REQUIRE(with.latency.kind != "memory");
  CHECK(with.latency.ms == without.latency.ms);
}

TEST_CASE("latency: memory waits cost the unloaded latency of the kernel's hit mix") {
  // Half the load sectors hit L1 (30 ns); of the rest, half hit L2 (200 ns), half go to DRAM
  // (500 ns): 15 + 0.5 x 350 = 190 ns per load, one load per 10 instructions: cap 19 ns.
  const double warps = 4;
  auto k = stalled_kernel(4, 32, 1000, {{"long_scoreboard", 100}, {"selected", 1}},
                                {{"smsp__inst_executed_op_global_ld.sum", warps * 100},
                                 {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", 50},
                                 {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", 50},
                                 {"lts__t_sectors_srcunit_tex_lookup_hit.sum", 25},
                                 {"lts__t_sectors_srcunit_tex_lookup_miss.sum", 25}});
  auto p = predict_pipes(k, device_with_latencies());
  CHECK(part_of(p.latency, "memory") == Approx(19));
  CHECK(p.limiter == "latency (memory)");
  // A warp that waited less than that on the reference (its loads overlapped) keeps its waits.
  auto& stalls = std::get<KernelCounters>(k.description).extra;
  stalls["smsp__warps_issue_stalled_long_scoreboard.sum"] = 5.0 * warps * 1000;
  p = predict_pipes(k, device_with_latencies());
  CHECK(part_of(p.latency, "memory") == Approx(5));
}

TEST_CASE("latency: only the latency share of barrier waits counts") {
  // Outside barriers a warp spends 1 (issue) + 4 (wait) + 30 (not selected: throughput) cycles
  // per instruction: 5/35 of that is latency, so 5/35 of its 21 barrier cycles are.
  const auto k = stalled_kernel(2000, 256, 1000, {{"wait", 4}, {"not_selected", 30}, {"barrier", 21}, {"selected", 1}});
  const auto p = predict_pipes(k, device_with_latencies());
  CHECK(part_of(p.latency, "barrier") == Approx(21.0 * 5 / 35));
  CHECK(part_of(p.latency, "dependency") == Approx(4));
}

TEST_CASE("latency: an fp64 loop names its dependency") {
  auto k = stalled_kernel(4, 32, 1000, {{"wait", 7}, {"selected", 1}});
  auto& extra = std::get<KernelCounters>(k.description).extra;
  extra["smsp__inst_executed_pipe_fp64.sum"] = extra["smsp__inst_executed_pipe_fma.sum"];
  extra["smsp__inst_executed_pipe_fma.sum"] = 1;
  CHECK(predict_pipes(k, device_with_latencies()).limiter == "latency (fp64 dependency)");
}

TEST_CASE("latency: profiles without stall counters and devices without latencies are noted, not modelled") {
  const auto old_kernel = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1e9}, {"issued", 1e9}}, 0, 0);
  const auto p = predict_pipes(old_kernel, device_with_latencies());
  CHECK_FALSE(p.latency.modelled);
  CHECK(p.latency.ms == 0);
  CHECK(has_note(p, "no warps-launched or stall-reason counters"));
  CHECK(p.predicted_ms == Approx(predict_pipes(old_kernel, round_device()).predicted_ms));

  const auto new_kernel = stalled_kernel(4, 32, 1000, {{"wait", 7}});
  const auto q = predict_pipes(new_kernel, round_device());
  CHECK_FALSE(q.latency.modelled);
  CHECK(has_note(q, "no SM clock or memory latencies"));
  CHECK(q.limiter != "latency (fp32 dependency)");
}

TEST_CASE("tail wave: a launch's partial last wave runs after its full waves") {
  // 100 SMs x 2 blocks of 1024 threads: 200 slots. One warp's serial work: 1000 instructions x
  // (1 ns issue + 7 cycles at 1 GHz) = 8 us a wave. 0.1 ms of DRAM reads at 4000 GB/s.
  const auto kernel = [](double blocks) {
    KernelRecord k = stalled_kernel(blocks, 1024, 1000, {{"wait", 7}});
    std::get<KernelCounters>(k.description).thesis.dram_read_transactions = 0.1e-3 * 4000e9 / 32;
    return k;
  };
  const DeviceProfile device = device_with_latencies();
  PipesTerms no_tail;
  no_tail.tail_wave = false;

  // 201 blocks: a full wave, then one block alone for 8 us.
  const auto p = predict_pipes(kernel(201), device), off = predict_pipes(kernel(201), device, no_tail);
  CHECK(p.latency.tail_ms == Approx(0.008));
  CHECK(p.latency.tail_block_share == Approx(1.0 / 201));
  CHECK(off.limiter.find("tail wave") == std::string::npos);
  CHECK(p.limiter == off.limiter + " + tail wave");
  CHECK(p.predicted_ms == Approx(off.predicted_ms - off.memory_ms / 201 + 0.008).epsilon(0.01));

  // Whole waves, or a single partial wave, have no tail.
  for (const double blocks : {200.0, 400.0, 150.0}) {
    const auto whole = predict_pipes(kernel(blocks), device);
    CHECK(whole.latency.tail_ms == 0);
    CHECK(whole.predicted_ms == predict_pipes(kernel(blocks), device, no_tail).predicted_ms);
  }
}

TEST_CASE("pipes calibration: only to a target with the reference's limiter and SM count") {
  const auto k = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1e9}}, 0, 0);
  const DeviceProfile reference = round_device();
  // An MPS partition of the same GPU: half the SMs, half the pipe rate. Its uncalibrated time.
  DeviceProfile partition = round_device();
  partition.sm_count = 50;
  partition.extra_throughput["pipe_fma_gwips"] = 500;
  CHECK(calibrated_pipes_ms(k, partition, reference, 2.010) == predict_pipes(k, partition).predicted_ms);
  CHECK_FALSE(calibration_applies(predict_pipes(k, partition), predict_pipes(k, reference)));
  // A target where another cost sets the time: its uncalibrated time.
  const auto memory_bound = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1e9}}, 1e9, 0);
  DeviceProfile slow_fma = round_device();
  slow_fma.extra_throughput["pipe_fma_gwips"] = 10;
  REQUIRE(predict_pipes(memory_bound, slow_fma).limiter != predict_pipes(memory_bound, reference).limiter);
  CHECK(calibrated_pipes_ms(memory_bound, slow_fma, reference, 20.010) ==
        predict_pipes(memory_bound, slow_fma).predicted_ms);
}

TEST_CASE("pipes calibration: a latency-bound kernel keeps its latency efficiency") {
  const auto k = stalled_kernel(4, 32, 1e6, {{"wait", 7}, {"selected", 1}});  // 8 ms of latency
  DeviceProfile reference = device_with_latencies();
  reference.extra_throughput.erase("warp_issue_interval_ns");  // one cycle at the device's clock
  DeviceProfile target = reference;
  target.sm_clock_mhz = 2000;  // the same cycles in half the time: 4 ms
  const auto on_reference = predict_pipes(k, reference), on_target = predict_pipes(k, target);
  const double launch = on_reference.launch_ms;
  REQUIRE(on_target.limiter == on_reference.limiter);
  // Measured 10 ms of work on the reference where ~8 (the latency, in a knee with the FMAs)
  // were predicted: the target's prediction, ~4 ms, x that efficiency, ~1.25.
  const double efficiency = 10 / (on_reference.predicted_ms - launch);
  CHECK(efficiency == Approx(1.25).epsilon(0.01));
  CHECK(calibrated_pipes_ms(k, target, reference, launch + 10) ==
        Approx(on_target.launch_ms + (on_target.predicted_ms - on_target.launch_ms) * efficiency));
}

TEST_CASE("pipes model: atomics on one address serialize on the L2 slice that holds it") {
  DeviceProfile device = round_device();
  device.extra_throughput["atomic_global_gops"] = 640;
  device.extra_throughput["atomic_global_same_address_gops"] = 16;  // 2 G sectors per second on one slice
  // 1e8 warp instructions = 3.2e9 operations: 5 ms at the distinct-address rate.
  auto k = pipe_kernel({{"smsp__sass_inst_executed_op_global_red.sum", 1e8},
                        {"lts__d_atomic_input_cycles_active.max", 2e8}},
                       0, 0);
  // The busiest slice applied 2e8 sectors: 100 ms at 2 G sectors per second.
  auto p = predict_pipes(k, device);
  CHECK(cost_of(p, "global atomics (busiest L2 slice)") == Approx(100));
  CHECK(p.limiter == "global atomics (busiest L2 slice)");
  // Spread over many slices, 4e6 sectors on the busiest (2 ms): the distinct-address rate binds.
  std::get<KernelCounters>(k.description).extra["lts__d_atomic_input_cycles_active.max"] = 4e6;
  p = predict_pipes(k, device);
  CHECK(cost_of(p, "global atomics") == Approx(5));
  CHECK(cost_of(p, "global atomics (busiest L2 slice)") == -1);
  // Without the per-slice counter: the distinct-address rate, with a note.
  std::get<KernelCounters>(k.description).extra.erase("lts__d_atomic_input_cycles_active.max");
  p = predict_pipes(k, device);
  CHECK(cost_of(p, "global atomics") == Approx(5));
  CHECK(has_note(p, "atomics at the distinct-address rate"));
}

TEST_CASE("latency: a launch that leaves SMs idle gets no DRAM-parallelism cost where the latency term is modelled") {
  DeviceProfile device = device_with_latencies();
  auto k = stalled_kernel(4, 32, 1000, {{"long_scoreboard", 100}, {"selected", 1}});
  auto& extra = std::get<KernelCounters>(k.description).extra;
  extra["l1tex__t_bytes.sum"] = 4 * 128e3;
  extra["smsp__inst_executed_op_global_ld.sum"] = 4e3;
  extra["sm__warps_active.avg.pct_of_peak_sustained_active"] = 1;
  std::get<KernelCounters>(k.description).thesis.dram_read_transactions = 16e3;
  const auto p = predict_pipes(k, device);
  REQUIRE(p.latency.modelled);
  CHECK(cost_of(p, "DRAM parallelism") == -1);
  // Without the latency term the old Little's-law cost over one load per warp comes back.
  PipesTerms no_latency;
  no_latency.latency = false;
  CHECK(cost_of(predict_pipes(k, device, no_latency), "DRAM parallelism") > 0);
}

TEST_CASE("pipes model: the TMA's byte counters give the bulk-copied share") {
  const auto k = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1},
                              {"sm__warps_active.avg.pct_of_peak_sustained_active", 50},
                              {"l1tex__t_bytes.sum", 256e6},
                              {"smsp__inst_executed_op_global_ld.sum", 1e6},
                              {"lts__t_sectors_srcunit_tex_op_read.sum", 32e6},
                              {"l1tex__m_xbar2l1tex_read_bytes_pipe_tma.sum", 768e6}},
                             1024e6, 0);
  const auto p = predict_pipes(k, round_device());
  CHECK(has_note(p, "75 % of the L2 traffic moved by bulk/TMA copies"));
}

TEST_CASE("pipes model: bulk copies past L1 get no memory-parallelism cost") {
  // As the parallelism test above, but the SMs ask L2 for 4x the bytes that go through L1: the
  // rest moved by TMA/cp.async.bulk, so only a quarter of the DRAM traffic is the threads'.
  const auto k = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1},
                              {"sm__warps_active.avg.pct_of_peak_sustained_active", 50},
                              {"l1tex__t_bytes.sum", 256e6},
                              {"lts__t_sectors_srcunit_tex_op_read.sum", 4 * 256e6 / 32},
                              {"smsp__inst_executed_op_global_ld.sum", 1e6}},
                             62.5e6, 0);  // 2e9 bytes read
  const auto p = predict_pipes(k, round_device());
  CHECK(cost_of(p, "DRAM parallelism") == Approx(0.25 * 2e9 / 2048e9 * 1e3));
  CHECK(has_note(p, "75 % of the L2 traffic moved by bulk/TMA copies"));
}

TEST_CASE("pipes model: loads and stores each use their own direction of the L2 crossbar") {
  // 1 GB loaded and 1 GB stored at 1000 GB/s of L2 bandwidth: 1 ms each way at once, 2 ms
  // when both share one path (the term switched off). Atomics go both ways.
  DeviceProfile device = round_device();
  device.extra_throughput["l2_gbps"] = 1000;
  const auto k = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1},
                              {"lts__t_sectors_srcunit_tex_op_read.sum", 1e9 / 32},
                              {"lts__t_sectors_srcunit_tex_op_write.sum", 1e9 / 32}},
                             0, 0);
  CHECK(cost_of(predict_pipes(k, device), "L2") == Approx(1.0));
  PipesTerms combined;
  combined.l2_direction = false;
  CHECK(cost_of(predict_pipes(k, device, combined), "L2") == Approx(2.0));
  const auto atomics = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1},
                                    {"lts__t_sectors_srcunit_tex_op_read.sum", 1e9 / 32},
                                    {"lts__t_sectors_srcunit_tex_op_atom.sum", 0.5e9 / 32},
                                    {"lts__t_sectors_srcunit_tex_op_red.sum", 1e9 / 32}},
                                   0, 0);
  CHECK(predict_pipes(atomics, device).work->l2_to_sm_bytes == Approx(1.5e9));
  CHECK(cost_of(predict_pipes(atomics, device), "L2") == Approx(1.5));  // 0.5 GB of atom + 1 GB of red
}

TEST_CASE("pipes model: data that fits in the target's L2 is served by L2, not DRAM") {
  // 5 launches, each reading 8 MB from DRAM (a cold launch: the profile's replay flushes L2)
  // and storing 2 MB: 10 MB per launch.
  DeviceProfile device = round_device();
  device.extra_throughput["l2_gbps"] = 10000;
  const auto k = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1},
                              {"sm__warps_active.avg.pct_of_peak_sustained_active", 50},
                              {"l1tex__t_bytes.sum", 50e6},
                              {"smsp__inst_executed_op_global_ld.sum", 0.2e6},
                              {"lts__t_sectors_srcunit_tex_op_read.sum", 40e6 / 32},
                              {"lts__t_sectors_srcunit_tex_op_write.sum", 10e6 / 32}},
                             40e6 / 32, 0);
  // No L2 size on the device: from DRAM, with a note.
  const auto unknown = predict_pipes(k, device);
  CHECK_FALSE(unknown.l2_residency.known);
  CHECK(cost_of(unknown, "DRAM") > 0);
  CHECK(has_note(unknown, "no l2_bytes in the device profile"));

  device.l2_bytes = 50e6;
  const auto fits = predict_pipes(k, device);
  REQUIRE(fits.l2_residency.resident);
  CHECK(fits.l2_residency.footprint_bytes == Approx(10e6));
  CHECK(cost_of(fits, "DRAM") == -1);
  CHECK(cost_of(fits, "DRAM parallelism") == -1);
  CHECK(cost_of(fits, "L2") == Approx(40e6 / 10000e9 * 1e3));
  CHECK(has_note(fits, "10.0 MB touched per launch fits in the 50.0 MB L2"));

  device.l2_bytes = 9e6;  // too small: from DRAM again
  const auto spills = predict_pipes(k, device);
  CHECK(spills.l2_residency.known);
  CHECK_FALSE(spills.l2_residency.resident);
  // 40 MB read and the 10 MB stored written back: 80 % reads, 3600 GB/s between copy and read.
  CHECK(cost_of(spills, "DRAM") == Approx(50e6 / 3600e9 * 1e3));

  device.l2_bytes = 50e6;
  PipesTerms off;
  off.l2_residency = false;
  CHECK(cost_of(predict_pipes(k, device, off), "DRAM") == Approx(50e6 / 3600e9 * 1e3));
}

TEST_CASE("L2 residency: lines a launch writes count, though they stay dirty in L2 (DRAM writes undercount them)") {
  DeviceProfile device = round_device();
  device.l2_bytes = 50e6;
  // 5 launches, each reading 10 MB and storing 60 MB of which DRAM saw nothing written back.
  const auto k = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1},
                              {"lts__t_sectors_srcunit_tex_op_write.sum", 5 * 60e6 / 32}},
                             5 * 10e6 / 32, 0);
  const auto r = l2_residency_of(k, kernel_work_of(k), device);
  CHECK(r.footprint_bytes == Approx(70e6));
  CHECK_FALSE(r.resident);
}

TEST_CASE("latency: launches of one wave get no DRAM-parallelism cost where the latency term holds their waits") {
  // 800 blocks x 256 threads, 8 fit per SM on 100 SMs: one wave, every warp resident at once.
  DeviceProfile device = device_with_latencies();
  auto k = stalled_kernel(800, 256, 1000, {{"long_scoreboard", 100}, {"selected", 1}});
  auto& extra = std::get<KernelCounters>(k.description).extra;
  extra["l1tex__t_bytes.sum"] = 6400 * 128e3;
  extra["smsp__inst_executed_op_global_ld.sum"] = 6400e3;
  extra["sm__warps_active.avg.pct_of_peak_sustained_active"] = 50;
  std::get<KernelCounters>(k.description).thesis.dram_read_transactions = 6400 * 4e3;
  REQUIRE(predict_pipes(k, device).latency.modelled);
  CHECK(cost_of(predict_pipes(k, device), "DRAM parallelism") == -1);
  PipesTerms off;
  off.one_wave_latency = false;
  CHECK(cost_of(predict_pipes(k, device, off), "DRAM parallelism") > 0);
  // Two waves: warps wait for slots, the parallelism term's steady state applies.
  k.launch_shapes[0].grid = {1600, 1, 1};
  CHECK(cost_of(predict_pipes(k, device), "DRAM parallelism") > 0);
}

TEST_CASE("L2 residency: sparse loads take a line of L2 per sector (a pointer chase does not stay in L2)") {
  DeviceProfile device = round_device();
  device.l2_bytes = 50e6;
  // One launch asks L2 for 16 MB of single sectors and DRAM delivers 27 MB (64-byte bursts):
  // its 27 MB of sectors sit on lines of their own, 108 MB of L2.
  const auto chase = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1},
                                  {"lts__t_sectors_srcunit_tex_op_read.sum", 16e6 / 32}},
                                 27e6 / 32, 0);
  KernelRecord once = chase;
  once.invocations = 1;
  const auto sparse = l2_residency_of(once, kernel_work_of(once), device);
  CHECK(sparse.footprint_bytes == Approx(108e6));
  CHECK_FALSE(sparse.resident);
  // The same bytes read whole (DRAM reads = what the loads asked): 27 MB, resident.
  const auto dense_kernel = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1},
                                         {"lts__t_sectors_srcunit_tex_op_read.sum", 27e6 / 32}},
                                        27e6 / 32, 0);
  KernelRecord dense_once = dense_kernel;
  dense_once.invocations = 1;
  const auto dense = l2_residency_of(dense_once, kernel_work_of(dense_once), device);
  CHECK(dense.footprint_bytes == Approx(27e6));
  CHECK(dense.resident);
  // Reductions fetch their lines too: a scatter-add whose DRAM reads exceed its loads but not
  // its loads and reductions together is not sparse.
  auto scatter = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1},
                              {"lts__t_sectors_srcunit_tex_op_read.sum", 4e6 / 32},
                              {"lts__t_sectors_srcunit_tex_op_red.sum", 500e6 / 32}},
                             8e6 / 32, 0);
  scatter.invocations = 1;
  CHECK(l2_residency_of(scatter, kernel_work_of(scatter), device).footprint_bytes == Approx(8e6));
}

TEST_CASE("latency: memory waits of data that stays in L2 are L2 hits at most") {
  // One warp, 1000 instructions, one load each, all missing L2 in the profile's (flushed) replay:
  // 500 ns of DRAM latency per load; with the data in L2 at most the 200 ns L2 hit.
  DeviceProfile device = device_with_latencies();
  const double loads = 1000, sectors = 1000;
  auto k = stalled_kernel(1, 32, 1000, {{"long_scoreboard", 600}, {"selected", 1}},
                          {{"smsp__inst_executed_op_global_ld.sum", loads},
                           {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", sectors},
                           {"lts__t_sectors_srcunit_tex_op_read.sum", sectors},
                           {"lts__t_sectors_srcunit_tex_lookup_miss.sum", sectors}});
  std::get<KernelCounters>(k.description).thesis.dram_read_transactions = sectors;
  const auto cold = predict_pipes(k, device);  // no L2 size: from DRAM
  REQUIRE(cold.latency.modelled);
  CHECK(part_of(cold.latency, "memory") == Approx(500));
  device.l2_bytes = 50e6;
  const auto warm = predict_pipes(k, device);
  REQUIRE(warm.l2_residency.resident);
  CHECK(part_of(warm.latency, "memory") == Approx(200));
  PipesTerms off;
  off.l2_residency = false;
  CHECK(part_of(predict_pipes(k, device, off).latency, "memory") == Approx(500));
}

TEST_CASE("pipes model: lines a launch stores are written back to DRAM, though its profile saw them dirty in L2") {
  // 1 GB read from DRAM, 1 GB stored of which the profile's DRAM writes saw none (the replay
  // ended with them dirty in L2): in steady state a copy's mix, 2 GB at 3000 GB/s.
  const auto k = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1},
                              {"lts__t_sectors_srcunit_tex_op_read.sum", 1e9 / 32},
                              {"lts__t_sectors_srcunit_tex_op_write.sum", 1e9 / 32}},
                             1e9 / 32, 0);
  const auto p = predict_pipes(k, round_device());
  CHECK(cost_of(p, "DRAM") == Approx(2e9 / 3000e9 * 1e3));
  CHECK(has_note(p, "DRAM writes taken as the 1000.0 MB stored"));
  PipesTerms off;
  off.dram_writeback = false;
  CHECK(cost_of(predict_pipes(k, round_device(), off), "DRAM") == Approx(1e9 / 4000e9 * 1e3));
  // Data that stays in L2 is not written back at all.
  DeviceProfile big_l2 = round_device();
  big_l2.l2_bytes = 1e9;
  CHECK(cost_of(predict_pipes(k, big_l2), "DRAM") == -1);
}

TEST_CASE("pipes model: a grid of many short blocks takes at least its blocks at the block dispatch rate") {
  // 5 launches of 1000 blocks of little work: 5000 blocks at 0.1 G blocks/s take 0.05 ms to start.
  const auto k = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1e6}, {"issued", 1e6}}, 0, 0);
  DeviceProfile device = round_device();
  const auto without_rate = predict_pipes(k, device);
  CHECK(without_rate.dispatch_ms == 0);
  CHECK(without_rate.limiter != "block dispatch");
  int dispatch_notes = 0;
  without_rate.for_each_note([&](std::string_view note) {
    dispatch_notes += note == "no block_dispatch_gblocks on this device: block dispatch not modelled";
  });
  CHECK(dispatch_notes == 1);

  device.extra_throughput["block_dispatch_gblocks"] = 0.1;
  const auto p = predict_pipes(k, device);
  CHECK(p.dispatch_ms == Approx(0.05));
  CHECK(p.limiter == "block dispatch");
  CHECK(p.predicted_ms == Approx(p.launch_ms + 0.05));
  // A launch shape's blocks count once per launch of that shape.
  auto two_shapes = k;
  two_shapes.launch_shapes.push_back(two_shapes.launch_shapes.front());
  two_shapes.launch_shapes.back().grid = {4000, 1, 1};
  two_shapes.launch_shapes.back().invocations = 2;
  CHECK(predict_pipes(two_shapes, device).dispatch_ms == Approx((5 * 1000 + 2 * 4000) / 0.1e9 * 1e3));

  // A term of its own: switched off, the time is the other terms' again.
  PipesTerms no_dispatch;
  no_dispatch.block_dispatch = false;
  const auto off = predict_pipes(k, device, no_dispatch);
  CHECK(off.dispatch_ms == 0);
  CHECK(off.predicted_ms == Approx(without_rate.predicted_ms));
  const auto& names = pipes_term_names();
  CHECK(std::count_if(names.begin(), names.end(), [](const PipesTermName& t) { return std::string(t.name) == "block-dispatch"; }) == 1);

  // Where dispatch sets the reference's time, the calibration scales dispatch on the target.
  DeviceProfile target = device;
  target.extra_throughput["block_dispatch_gblocks"] = 0.2;
  const double launch = p.launch_ms;
  CHECK(calibrated_pipes_ms(k, target, device, launch + 0.1) == Approx(predict_pipes(k, target).launch_ms + 2 * 0.025));
}

namespace {

void check_costs_equal(const std::vector<PipesCost>& a, const std::vector<PipesCost>& b) {
  REQUIRE(a.size() == b.size());
  for (size_t i = 0; i < a.size(); ++i) {
    INFO(a[i].name);
    CHECK(a[i].name == b[i].name);
    CHECK(a[i].ms == b[i].ms);
  }
}

// Every number and name of two predictions (not their notes) equal.
void check_same_prediction(const PipesPrediction& a, const PipesPrediction& b) {
  check_costs_equal(a.compute, b.compute);
  check_costs_equal(a.memory, b.memory);
  CHECK(a.latency.modelled == b.latency.modelled);
  CHECK(a.latency.ns_per_instruction == b.latency.ns_per_instruction);
  CHECK(a.latency.ms == b.latency.ms);
  CHECK(a.launch_ms == b.launch_ms);
  CHECK(a.predicted_ms == b.predicted_ms);
  CHECK(a.limiter == b.limiter);
  CHECK(a.reference_time.acted() == b.reference_time.acted());
}

PipesTerms without_reference_time() {
  PipesTerms terms;
  terms.reference_time = false;
  return terms;
}

}  // namespace

TEST_CASE("reference-time: one warp's serial work is capped at a launch's measured time, and nothing else moves") {
  // 4 warps of 1000 instructions, 99 cycles of dependency wait each plus the issue cycle: 100 ns
  // per instruction at 1 GHz, 0.1 ms a launch from the stall counts.
  KernelRecord k = stalled_kernel(4, 32, 1000, {{"wait", 99}, {"selected", 1}});
  const DeviceProfile d = device_with_latencies();
  const auto timed_nowhere = predict_pipes(k, d);
  REQUIRE(timed_nowhere.latency.modelled);
  CHECK(timed_nowhere.latency.ns_per_instruction == Approx(100));
  CHECK_FALSE(timed_nowhere.reference_time.acted());

  // The reference measured 0.05 ms for its one launch: 50 ns per instruction at most.
  k.measured_ms = 0.05;
  const auto capped = predict_pipes(k, d);
  CHECK(capped.latency.ns_per_instruction == Approx(50));
  CHECK(capped.latency.ms == Approx(0.05));
  CHECK(capped.reference_time.uncapped_latency_ns == Approx(100));
  CHECK(capped.reference_time.one_word_ns == 0);
  CHECK(part_of(capped.latency, "dependency") == Approx(99.0 / 2));  // every part scaled alike
  CHECK(has_note(capped, "latency capped by the time a launch took on the reference"));
  // Only the latency term and what follows from it: the costs of compute and memory and the
  // launch time stay.
  check_costs_equal(capped.compute, timed_nowhere.compute);
  check_costs_equal(capped.memory, timed_nowhere.memory);
  CHECK(capped.launch_ms == timed_nowhere.launch_ms);
  CHECK(capped.predicted_ms < timed_nowhere.predicted_ms);

  // Switched off, the measured time is not read: exactly the prediction of a profile timed nowhere.
  const auto off = predict_pipes(k, d, without_reference_time());
  check_same_prediction(off, timed_nowhere);
  CHECK_FALSE(has_note(off, "latency capped"));

  // A bound the warps do not reach changes nothing.
  k.measured_ms = 0.2;
  check_same_prediction(predict_pipes(k, d), timed_nowhere);
}

TEST_CASE("reference-time: one word's atomics at the slowest same-word rate within the measured time, or the integer rate") {
  KernelRecord k;
  k.name = "reduce";
  k.invocations = 1;
  KernelCounters c;
  c.extra = {{"smsp__sass_inst_executed_op_global_red.sum", 2000},
             {"lts__t_sectors_srcunit_tex_op_red.sum", 2000},
             {"lts__t_requests_srcunit_tex_op_red.sum", 2000},
             {"lts__d_atomic_input_cycles_active.max", 2000}};
  k.description = c;
  DeviceProfile d;
  d.name = "d";
  d.extra_throughput = {{"atomic_global_gops", 640},
                        {"atomic_global_same_address_gops", 16},
                        {"atomic_global_same_word_gops", 1},          // integer: 1 ns per atomic
                        {"atomic_global_same_word_f32_gops", 0.25}};  // float: 4 ns per atomic
  const auto timed_nowhere = predict_pipes(k, d);
  CHECK(timed_nowhere.compute.front().ms == Approx(0.002));  // 2000 requests at the integer bench's 1 ns
  CHECK_FALSE(timed_nowhere.reference_time.acted());

  k.measured_ms = 0.01;  // 10 us for 2000 requests: 5 ns each, so the float rate fits
  const auto on = predict_pipes(k, d);
  CHECK(on.compute.front().name == "global atomics (one word)");
  CHECK(on.compute.front().ms == Approx(0.008));
  CHECK(on.reference_time.one_word_ns == Approx(4));
  CHECK(on.reference_time.one_word_integer_ns == Approx(1));
  CHECK(on.reference_time.uncapped_latency_ns == 0);

  check_same_prediction(predict_pipes(k, d, without_reference_time()), timed_nowhere);
  // A measured time that allows only the integer rate: read, but nothing changes.
  k.measured_ms = 0.001;
  check_same_prediction(predict_pipes(k, d), timed_nowhere);
}

TEST_CASE("reference-time: a named term, switched off by its name") {
  CHECK(pipes_model_without({"reference-time"}) == "pipes without reference-time");
  CHECK(pipes_model_without({"launch", "reference-time", "waves"}) == "pipes without waves, launch, reference-time");
  CHECK(pipes_model_without({}) == "pipes");
  CHECK_THROWS_WITH(pipes_model_without({"reference_time"}), Catch::StartsWith("unknown term \"reference_time\""));
  const PipesTerms terms = pipes_terms_of_model("pipes without waves, reference-time");
  CHECK_FALSE(terms.reference_time);
  CHECK_FALSE(terms.waves);
  CHECK(terms.latency);
  CHECK(pipes_terms_of_model("pipes").reference_time);
  CHECK_THROWS(pipes_terms_of_model("thesis"));
  CHECK_THROWS(make_predictor("pipes without nothing"));
  const auto predictor = make_predictor("pipes without reference-time");
  CHECK(predictor->name() == "pipes without reference-time");
  // The predictor without the term is the model on a profile timed nowhere.
  KernelRecord k = stalled_kernel(4, 32, 1000, {{"wait", 99}, {"selected", 1}});
  k.measured_ms = 0.05;
  KernelRecord timed_nowhere = k;
  timed_nowhere.measured_ms.reset();
  CHECK(predictor->predict(k, device_with_latencies()).predicted_ms ==
        make_predictor("pipes")->predict(timed_nowhere, device_with_latencies()).predicted_ms);
  bool in_ablation = false;
  for (const auto& variant : ablation_variants()) in_ablation = in_ablation || variant.name == "pipes without reference-time";
  CHECK(in_ablation);
}

namespace {

std::vector<std::string> notes_of(const PipesPrediction& p) {
  std::vector<std::string> notes;
  p.for_each_note([&](std::string_view note) { notes.emplace_back(note); });
  return notes;
}

}  // namespace

TEST_CASE("pipes model: a prediction made into an earlier one's storage is the prediction made anew") {
  DeviceProfile with_l2 = device_with_latencies();
  with_l2.l2_bytes = 50e6;
  with_l2.extra_throughput["l2_gbps"] = 10000;
  const KernelRecord resident = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1},
                                             {"l1tex__t_bytes.sum", 50e6},
                                             {"lts__t_sectors_srcunit_tex_op_read.sum", 40e6 / 32},
                                             {"lts__t_sectors_srcunit_tex_op_write.sum", 10e6 / 32}},
                                            40e6 / 32, 0);
  const DeviceProfile round = round_device();
  const KernelRecord no_stalls = pipe_kernel({{"smsp__inst_executed_pipe_fma.sum", 1e9}, {"issued", 1e9}}, 1e6, 1e5);
  const KernelRecord stalled = stalled_kernel(4000, 256, 1000, {{"wait", 7}, {"long_scoreboard", 30}, {"selected", 1}});
  // From a prediction with many costs and notes to ones with fewer, and back.
  const std::vector<std::pair<const KernelRecord*, const DeviceProfile*>> cases = {
      {&stalled, &with_l2}, {&resident, &with_l2}, {&no_stalls, &with_l2}, {&resident, &round},
      {&no_stalls, &round}, {&stalled, &with_l2}};
  PipesPrediction reused;
  for (const auto& [kernel, device] : cases) {
    const auto work = std::make_shared<const KernelWork>(kernel_work_of(*kernel));
    const DeviceRates rates = device_rates_of(*device);
    predict_pipes(reused, *kernel, work, *device, rates);
    const PipesPrediction fresh = predict_pipes(*kernel, work, *device, rates);
    check_same_prediction(reused, fresh);
    CHECK(notes_of(reused) == notes_of(fresh));
    CHECK(reused.compute_ms == fresh.compute_ms);
    CHECK(reused.memory_ms == fresh.memory_ms);
    CHECK(reused.blocks == fresh.blocks);
    CHECK(reused.blocks_per_sm == fresh.blocks_per_sm);
    CHECK(reused.occupancy_limiter == fresh.occupancy_limiter);
    CHECK(reused.compute_wave_factor == fresh.compute_wave_factor);
    CHECK(reused.dispatch_ms == fresh.dispatch_ms);
    CHECK(reused.l2_residency.resident == fresh.l2_residency.resident);
    CHECK(reused.bound == fresh.bound);
    CHECK(reused.work == fresh.work);
  }
}
