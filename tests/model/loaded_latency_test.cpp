#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "roofcast/model/loaded_latency.hpp"
#include "roofcast/model/pipes_prediction.hpp"

using namespace roofcast;

namespace {

// 100 SMs sharing 6400 GB/s of L2 (64 bytes per ns each); L1 hit 30 ns, L2 hit 200 ns, DRAM
// 500 ns (1000 ns for a warp on 32 lines).
DeviceRates rates_of_100_sms() {
  DeviceRates r;
  r.l2_gbps = 6400;
  r.latency_l1_hit_ns = 30;
  r.latency_l2_hit_ns = 200;
  r.latency_dram_ns = 500;
  r.latency_dram_warp_ns = 1000;
  return r;
}

WarpWaits l2_hits(double sectors_per_load) {
  WarpWaits w;
  w.l1_hit_share = 0;
  w.l2_hit_share = 1;
  w.sectors_per_global_load = sectors_per_load;
  return w;
}

// 100 SMs (or `sms` of them, an MPS partition's) at 1000 MHz with the L2 bandwidth above per
// SM count, the latencies above, L1 hit 30 ns.
DeviceProfile device_of(int sms, double l2_gbps) {
  DeviceProfile d;
  d.name = "device";
  d.sm_count = sms;
  d.sm_clock_mhz = 1000;
  d.throughput = {64000, 32000, 32000, 32000, 32000, 3000};
  d.extra_throughput = {{"pipe_fma_gwips", 1000},     {"pipe_issue_gwips", 1000},  {"dram_read_gbps", 4000},
                        {"dram_copy_gbps", 3000},     {"dram_write_gbps", 2000},   {"kernel_floor_us", 2},
                        {"l2_gbps", l2_gbps},         {"warp_issue_interval_ns", 1}, {"latency_ffma_ns", 4},
                        {"latency_l1_hit_ns", 30},    {"latency_l2_hit_ns", 200},  {"latency_dram_ns", 500},
                        {"latency_dram_warp_ns", 1000}};
  d.occupancy = {2048, 32, 65536, 256, 233472, 1024, 128};
  return d;
}

// One launch of 400 blocks of 512 threads (16 warps), each warp 1000 instructions of which 100
// global loads that touch 32 lines each, all L2 hits, stalled 2000 cycles per load on a
// 1000 MHz reference: a dependent chain of gathers from data that stays in L2.
KernelRecord gather_kernel() {
  const double warps = 400 * 16, instructions = warps * 1000, loads = warps * 100;
  KernelRecord k;
  k.name = "gather";
  k.invocations = 1;
  LaunchShape shape;
  shape.grid = {400, 1, 1};
  shape.block = {512, 1, 1};
  shape.invocations = 1;
  shape.registers_per_thread = 32;
  k.launch_shapes = {shape};
  KernelCounters c;
  c.thesis.inst_executed = instructions;
  c.extra = {{"smsp__inst_executed_pipe_fma.sum", instructions},
             {"sm__warps_launched.sum", warps},
             {"sm__cycles_elapsed.avg.per_second", 1e9},
             {"smsp__warps_issue_stalled_long_scoreboard.sum", loads * 2000},
             {"smsp__warps_issue_stalled_selected.sum", instructions},
             {"smsp__inst_executed_op_global_ld.sum", loads},
             {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", 0},
             {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", loads * 32},
             {"lts__t_sectors_srcunit_tex_lookup_hit.sum", loads * 32},
             {"lts__t_sectors_srcunit_tex_lookup_miss.sum", 0}};
  k.description = c;
  return k;
}

double memory_part(const LatencyTerm& t) {
  for (const auto& part : t.parts)
    if (part.name == "memory") return part.ns;
  return -1;
}

}  // namespace

TEST_CASE("loaded latency: a partition's SMs, each with more of the L2, wait less for a gather") {
  const KernelRecord k = gather_kernel();
  // Whole device: 64 bytes per ns per SM; 4 blocks of 16 warps resident on each (400 blocks on
  // 100 SMs): 64 x 1024 bytes in flight, 1024 ns by Little's law, more than the unloaded
  // 200 + 31 x 32 / 64 = 215.5 ns. One load per 10 instructions.
  const PipesPrediction whole = predict_pipes(k, device_of(100, 6400));
  REQUIRE(whole.latency.modelled);
  CHECK(whole.latency.loaded_load_ns == Approx(64 * 1024 / 64.0));
  CHECK(memory_part(whole.latency) == Approx(64 * 1024 / 64.0 / 10));
  // A quarter of the SMs with half the L2 bandwidth (128 bytes per ns each), the same four
  // blocks resident per SM: half the wait.
  const PipesPrediction partition = predict_pipes(k, device_of(25, 3200));
  CHECK(partition.latency.loaded_load_ns == Approx(64 * 1024 / 128.0));
  CHECK(memory_part(partition.latency) == Approx(64 * 1024 / 128.0 / 10));
  // Without the term both take the DRAM warp chase's spread on the L2 latency: 200 x 2 ns.
  PipesTerms off;
  off.loaded_latency = false;
  CHECK(memory_part(predict_pipes(k, device_of(100, 6400), off).latency) == Approx(400.0 / 10));
  CHECK(memory_part(predict_pipes(k, device_of(25, 3200), off).latency) == Approx(400.0 / 10));
}

TEST_CASE("loaded latency: a warp's L2 sectors come back one after another through its SM's share") {
  const DeviceRates r = rates_of_100_sms();
  // One sector per load: the L2 latency alone.
  CHECK(loaded_load_latency(l2_hits(1), r, 100, 1).unloaded_ns == Approx(200));
  // 32 lines: 31 more sectors of 32 bytes at 64 bytes per ns.
  CHECK(loaded_load_latency(l2_hits(32), r, 100, 1).unloaded_ns == Approx(200 + 31 * 32 / 64.0));
  // A quarter of the SMs with half the L2 bandwidth (an MPS partition: the L2 is not split):
  // each SM draws 128 bytes per ns, so the same warp waits less.
  DeviceRates partition = r;
  partition.l2_gbps = 3200;
  CHECK(loaded_load_latency(l2_hits(32), partition, 25, 1).unloaded_ns == Approx(200 + 31 * 32 / 128.0));
}

TEST_CASE("loaded latency: the DRAM part keeps the DRAM warp chase's spread, L1 hits their latency") {
  const DeviceRates r = rates_of_100_sms();
  WarpWaits w = l2_hits(32);
  w.l2_hit_share = 0;
  CHECK(loaded_load_latency(w, r, 100, 1).unloaded_ns == Approx(1000));
  w.l1_hit_share = 0.5;
  CHECK(loaded_load_latency(w, r, 100, 1).unloaded_ns == Approx(0.5 * 30 + 0.5 * 1000));
}

TEST_CASE("loaded latency: Little's law over the SM's share of the L2 bandwidth") {
  const DeviceRates r = rates_of_100_sms();
  // 16 warps each with a 32-line load in flight: 16384 bytes at 64 bytes per ns, 256 ns: more
  // than the unloaded 215.5 ns.
  const LoadedLatency busy = loaded_load_latency(l2_hits(32), r, 100, 16);
  CHECK(busy.bandwidth_ns == Approx(16 * 32 * 32 / 64.0));
  CHECK(busy.ns == Approx(busy.bandwidth_ns));
  // Two warps: under the unloaded latency, which then holds.
  const LoadedLatency light = loaded_load_latency(l2_hits(32), r, 100, 2);
  CHECK(light.bandwidth_ns < light.unloaded_ns);
  CHECK(light.ns == Approx(light.unloaded_ns));
  // Loads that hit L1 do not travel to L2.
  WarpWaits half_l1 = l2_hits(32);
  half_l1.l1_hit_share = 0.5;
  CHECK(loaded_load_latency(half_l1, r, 100, 12).bandwidth_ns == Approx(0.5 * 12 * 32 * 32 / 64.0));
}

TEST_CASE("loaded latency: missing inputs leave it unmodelled (0)") {
  DeviceRates r = rates_of_100_sms();
  CHECK(loaded_load_latency(WarpWaits{}, r, 100, 4).ns == 0);  // no hit counters
  CHECK(loaded_load_latency(l2_hits(32), r, 0, 4).ns == 0);
  r.l2_gbps = 0;
  CHECK(loaded_load_latency(l2_hits(32), r, 100, 4).ns == 0);
}

TEST_CASE("loaded latency: --ablation can switch it off") {
  const auto& names = pipes_term_names();
  const auto it = std::find_if(names.begin(), names.end(),
                               [](const PipesTermName& n) { return std::string(n.name) == "loaded-latency"; });
  REQUIRE(it != names.end());
  PipesTerms terms;
  CHECK(terms.*(it->term));
}

TEST_CASE("loaded latency: a one-wave launch whose loads do not queue waits for each load's slowest line") {
  const DeviceRates r = rates_of_100_sms();
  // 16 lines per load, 3/4 of them in L1: all 16 hit there only 0.75^16 = 1 % of the time. The
  // 4 missed lines' reads hit L2 half the time: 1 - 0.5^4 = 94 % of the loads wait for DRAM,
  // on 2 / 0.9375 lines.
  WarpWaits w = l2_hits(16);
  w.l1_hit_share = 0.75;
  w.lines_per_global_load = 16;
  w.l2_read_hit_share = 0.5;
  const double all_l1 = std::pow(0.75, 16), any_dram = 1 - std::pow(0.5, 4);
  const double dram_ns = 500 * (1 + (2 / any_dram - 1) / 31 * (1000.0 / 500 - 1));
  const double l2_ns = 200 + 3 * 32 / 64.0;
  const double slowest = all_l1 * 30 + (1 - all_l1) * ((1 - any_dram) * l2_ns + any_dram * dram_ns);
  LaunchLoad idle;
  idle.one_wave = true;
  idle.busy_sms = 32;
  const LoadedLatency few = loaded_load_latency(w, r, 100, 4, idle);
  CHECK(few.slowest_ns == Approx(slowest));
  CHECK(few.slowest_applies);
  CHECK(few.ns == Approx(slowest));
  // The per-sector mix it replaces is far less: 0.75 x 30 + 0.25 x (200 + 15 x 32 / 64).
  CHECK(few.unloaded_ns == Approx(0.75 * 30 + 0.25 * (200 + 15 * 32 / 64.0)));
  // More waves than one: the throughput costs hold the time, the per-sector mix stays.
  LaunchLoad waves = idle;
  waves.one_wave = false;
  CHECK(loaded_load_latency(w, r, 100, 4, waves).ns == Approx(few.unloaded_ns));
  // 64 warps missing L1: 64 x 16 x 32 bytes in flight, 2.56 x what the SM's L2 share holds in
  // an L2 latency (64 x 200): queueing, so the cap stays Little's law's.
  WarpWaits missing_l1 = w;
  missing_l1.l1_hit_share = 0;
  const LoadedLatency busy = loaded_load_latency(missing_l1, r, 100, 64, idle);
  CHECK(busy.load == Approx(64 * 16 * 32 / (64 * 200.0)));
  CHECK_FALSE(busy.slowest_applies);
  CHECK(busy.ns == Approx(std::max(busy.unloaded_ns, busy.bandwidth_ns)));
  // Without the lines or the reads' hit share (older profiles) the per-sector mix stays.
  w.l2_read_hit_share = -1;
  CHECK(loaded_load_latency(w, r, 100, 4, idle).slowest_ns == 0);
  CHECK(loaded_load_latency(w, r, 100, 4, idle).ns == Approx(few.unloaded_ns));
}

TEST_CASE("loaded latency: lines per load from the sectors and the access width, and the reads' L2 hit share") {
  KernelRecord k;
  k.name = "merge";
  k.invocations = 1;
  KernelCounters c;
  // 4-byte accesses: a full warp's coalesced load is 4 sectors on one line; 18 sectors per load
  // are that line and 14 scattered sectors, each on a line of its own.
  c.extra = {{"smsp__inst_executed_op_global_ld.sum", 1000},
             {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", 13500},
             {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", 4500},
             {"smsp__sass_inst_executed_op_memory_32b.sum", 2000},
             {"lts__t_sectors_srcunit_tex_op_read.sum", 4500},
             {"lts__t_sectors_srcunit_tex_op_write.sum", 9000}};
  c.thesis.dram_read_transactions = 2700;
  k.description = c;
  const KernelWork work = kernel_work_of(k);
  CHECK(work.waits.sectors_per_global_load == Approx(18));
  CHECK(work.waits.lines_per_global_load == Approx(1 + 14));
  CHECK(work.waits.l2_read_hit_share == Approx(1 - 2700 / 4500.0));
  // 16-byte accesses, 16 sectors per load: coalesced, 4 lines.
  c.extra["smsp__sass_inst_executed_op_memory_32b.sum"] = 0;
  c.extra["smsp__sass_inst_executed_op_memory_128b.sum"] = 2000;
  c.extra["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"] = 11500;
  k.description = c;
  CHECK(kernel_work_of(k).waits.lines_per_global_load == Approx(4));
  // Without the width counters: unknown.
  c.extra.erase("smsp__sass_inst_executed_op_memory_128b.sum");
  c.extra.erase("smsp__sass_inst_executed_op_memory_32b.sum");
  k.description = c;
  CHECK(kernel_work_of(k).waits.lines_per_global_load == 0);
}
