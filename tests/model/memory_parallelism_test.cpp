#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>

#include "roofcast/model/memory_parallelism.hpp"
#include "roofcast/model/pipes_prediction.hpp"

#include "hundred_sm_device.hpp"

using namespace roofcast;

namespace {

// 1000 warps, each with 2 global loads and 1 store of 128 bytes (c[i] = a[i] + s * b[i], one
// float per thread).
KernelWork triad_work() {
  KernelWork w;
  w.waits.warps_launched = 1000;
  w.global_load_instructions = 2000;
  w.global_store_instructions = 1000;
  w.bytes_per_global_instruction = 128;
  return w;
}

DeviceProfile device_of_100_sms() { return roofcast::test::hundred_sm_device(); }

// 5 launches of 1000 blocks x 256 threads (40000 warps) at 50 % achieved occupancy (32 warps per
// SM), each warp with 2 loads and 1 store of 128 bytes; 2 GB read from DRAM.
KernelRecord triad_kernel() {
  KernelRecord k;
  k.name = "triad";
  k.invocations = 5;
  LaunchShape shape;
  shape.grid = {1000, 1, 1};
  shape.block = {256, 1, 1};
  shape.invocations = 5;
  shape.registers_per_thread = 32;
  k.launch_shapes = {shape};
  KernelCounters c;
  c.thesis.inst_executed = 40000 * 27;
  c.thesis.dram_read_transactions = 62.5e6;
  c.extra = {{"smsp__inst_executed_pipe_fma.sum", 1},
             {"sm__warps_active.avg.pct_of_peak_sustained_active", 50},
             {"sm__warps_launched.sum", 40000},
             {"smsp__inst_executed_op_global_ld.sum", 80000},
             {"smsp__inst_executed_op_global_st.sum", 40000},
             {"l1tex__t_bytes.sum", 128 * 120000}};
  k.description = c;
  return k;
}

double cost_of(const PipesPrediction& p, const std::string& name) {
  for (const auto& c : p.memory)
    if (c.name == name) return c.ms;
  return -1;
}

}  // namespace

TEST_CASE("warp-mlp: a warp keeps all its loads and stores in flight for one round trip") {
  const WarpMemoryRound round = warp_memory_round(triad_work(), 400, true);
  CHECK(round.per_warp);
  CHECK(round.bytes == Approx(3 * 128));  // 2 loads + 1 store
  CHECK(round.latency_ns == Approx(800));  // the probe moves a load's and a store's bytes per round trip
}

TEST_CASE("warp-mlp: a thread keeps at most one load in flight per register") {
  // 2 loads per thread fit in 32 registers: one round trip.
  CHECK(warp_memory_round(triad_work(), 400, true, 32).rounds == Approx(1));
  // A loop of 100 loads and 1 store per warp in 32-register threads: 100 / 32 = 3.125 round
  // trips, each with 101 x 128 / 3.125 = 4137 bytes.
  KernelWork loop = triad_work();
  loop.global_load_instructions = 100 * 1000;
  loop.global_store_instructions = 1000;
  const WarpMemoryRound round = warp_memory_round(loop, 400, true, 32);
  CHECK(round.rounds == Approx(3.125));
  CHECK(round.bytes == Approx(101 * 128 / 3.125));
  CHECK(round.latency_ns == Approx(800));
  // Registers not recorded: no such bound.
  CHECK(warp_memory_round(loop, 400, true, 0).rounds == Approx(1));
}

TEST_CASE("warp-mlp: off, or without the counters, one load or store instruction per warp is in flight") {
  const auto one_instruction = [](const WarpMemoryRound& r) {
    return !r.per_warp && r.bytes == Approx(128) && r.latency_ns == Approx(400);
  };
  CHECK(one_instruction(warp_memory_round(triad_work(), 400, false)));
  KernelWork no_warps = triad_work();
  no_warps.waits.warps_launched = 0;  // profiles before issue 13
  CHECK(one_instruction(warp_memory_round(no_warps, 400, true)));
  KernelWork stores_only = triad_work();  // a fill: no load to wait for
  stores_only.global_load_instructions = 0;
  CHECK(one_instruction(warp_memory_round(stores_only, 400, true)));
}

TEST_CASE("warp-mlp: the DRAM-parallelism cost of a triad is two thirds of one instruction per round") {
  // 100 SMs x 32 warps: one instruction in flight each, 128 bytes per 400 ns: 2e9 bytes take
  // 2e9 x 400 / (100 x 32 x 128) ns = 1.953 ms; all three per 800 ns: 2e9 x 800 / (100 x 32 x 384) = 1.302 ms.
  const auto p = predict_pipes(triad_kernel(), device_of_100_sms());
  CHECK(cost_of(p, "DRAM parallelism") == Approx(2e9 * 800 / (100.0 * 32 * 384) * 1e-6));
  CHECK(cost_of(p, "DRAM parallelism") == Approx(1.302).epsilon(1e-3));
  PipesTerms off;
  off.warp_mlp = false;
  CHECK(cost_of(predict_pipes(triad_kernel(), device_of_100_sms(), off), "DRAM parallelism") ==
        Approx(2e9 * 400 / (100.0 * 32 * 128) * 1e-6));
  const auto& names = pipes_term_names();
  CHECK(std::any_of(names.begin(), names.end(), [](const PipesTermName& n) { return std::string(n.name) == "warp-mlp"; }));
}

namespace {

// Unloaded DRAM latency 300 ns; the probe's round trip 2 x 200 = 400 ns at 1000 of 4000 GB/s (25 %):
// latency(u) = 300 x (1 + (400 / 300 - 1) / 0.25 x u) = 300 x (1 + 4/3 u).
DeviceRates line_rates() {
  DeviceRates r;
  r.latency_dram_ns = 300;
  r.dram_latency_ns = 200;
  r.dram_probe_gbps = 1000;
  r.dram_copy_gbps = 4000;
  return r;
}

}  // namespace

TEST_CASE("dram-latency-line: the line through the unloaded chase and the probe") {
  const DramLatencyLine line = dram_latency_line(line_rates());
  REQUIRE(line.known);
  CHECK(line.unloaded_ns == Approx(300));
  CHECK(line.probe_ns == Approx(400));
  CHECK(line.probe_load == Approx(0.25));
  CHECK(line.slope == Approx(4.0 / 3));
  DeviceRates no_probe = line_rates();
  no_probe.dram_probe_gbps = 0;  // device profiles before the probe's bandwidth was kept
  CHECK_FALSE(dram_latency_line(no_probe).known);
}

TEST_CASE("dram-latency-line: Little's law with the latency of the line, at most the bandwidth") {
  const DramLatencyLine line = dram_latency_line(line_rates());
  // 4 ms at the probe's latency is 3 ms at the unloaded one; T = 3 x (1 + 4/3 x 1 / T) gives
  // T^2 - 3 T - 4 = 0: T = 4 ms (DRAM at 25 %, the latency 400 ns).
  CHECK(dram_time_under_load(1, 4, line) == Approx(4));
  // The probe itself: 1 ms at its own latency, its bytes take 0.25 ms at the bandwidth: 1 ms.
  CHECK(dram_time_under_load(0.25, 1, line) == Approx(1));
  // Enough in flight: the bandwidth.
  CHECK(dram_time_under_load(1, 0.1, line) == Approx(1));
}

TEST_CASE("dram-latency-line: the DRAM time of a prediction, the soft maximum without it") {
  DeviceProfile device = device_of_100_sms();
  device.extra_throughput["latency_dram_ns"] = 300;
  device.extra_throughput["dram_probe_gbps"] = 750;  // the probe at 25 % of the 3000 GB/s copy
  const auto p = predict_pipes(triad_kernel(), device);
  const double dram = cost_of(p, "DRAM"), parallelism = cost_of(p, "DRAM parallelism");
  REQUIRE(dram > 0);
  REQUIRE(parallelism > 0);
  // latency(u) = 300 x (1 + (800 / 300 - 1) / 0.25 x u).
  DramLatencyLine line;
  line.unloaded_ns = 300;
  line.probe_ns = 800;
  line.slope = (800.0 / 300 - 1) / 0.25;
  CHECK(p.memory_ms == Approx(dram_time_under_load(dram, parallelism, line)));
  PipesTerms off;
  off.dram_latency_line = false;
  CHECK(predict_pipes(triad_kernel(), device, off).memory_ms == Approx(std::hypot(dram, parallelism)));
}
