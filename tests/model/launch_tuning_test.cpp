#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "roofcast/model/atomic_costs.hpp"
#include "roofcast/model/launch_tuning.hpp"
#include "roofcast/model/two_configurations.hpp"

using namespace roofcast;

namespace {

// 100 SMs of 2048 threads, 32 blocks, 64 K registers and 228 KiB shared memory; 1000 G warp
// instructions/s on the FMA pipe and at issue; a 1000 MHz clock, one warp issuing every cycle,
// FFMA 4 ns, memory latencies from 30 to 500 ns; a 2 us kernel floor.
DeviceProfile round_device() {
  DeviceProfile d;
  d.name = "round";
  d.sm_count = 100;
  d.sm_clock_mhz = 1000;
  d.throughput = {64000, 32000, 32000, 32000, 32000, 3000};
  d.extra_throughput = {{"pipe_fma_gwips", 1000},      {"pipe_alu_gwips", 500},   {"pipe_issue_gwips", 1000},
                        {"dram_read_gbps", 4000},      {"dram_copy_gbps", 3000},  {"dram_write_gbps", 2000},
                        {"kernel_floor_us", 2},        {"dram_latency_ns", 400},  {"warp_issue_interval_ns", 1},
                        {"latency_ffma_ns", 4},        {"latency_l1_hit_ns", 30}, {"latency_l2_hit_ns", 200},
                        {"latency_dram_ns", 500}};
  d.occupancy = {2048, 32, 65536, 256, 233472, 1024, 128};
  return d;
}

// One launch of `blocks` x `threads` (32 registers per thread), `per_warp` FMA-pipe instructions
// per warp; with `stall_wait` > 0 it also has the latency term's counters: each instruction
// waited `stall_wait` cycles on a fixed-latency dependency.
KernelRecord kernel(double blocks, double threads, double per_warp, double stall_wait) {
  const double warps = blocks * std::ceil(threads / 32), instructions = warps * per_warp;
  KernelCounters c;
  c.thesis.inst_executed = instructions;
  c.thesis.inst_fp_32 = instructions * 32;
  c.extra["smsp__inst_executed_pipe_fma.sum"] = instructions;
  if (stall_wait > 0) {
    c.extra["sm__warps_launched.sum"] = warps;
    c.extra["sm__cycles_elapsed.avg.per_second"] = 1e9;
    c.extra["smsp__warps_issue_stalled_wait.sum"] = stall_wait * instructions;
    c.extra["smsp__warps_issue_stalled_selected.sum"] = instructions;
  }
  KernelRecord k;
  k.name = "k";
  k.invocations = 1;
  LaunchShape shape;
  shape.grid = {blocks, 1, 1};
  shape.block = {threads, 1, 1};
  shape.invocations = 1;
  shape.registers_per_thread = 32;
  k.launch_shapes = {shape};
  k.description = c;
  return k;
}

LaunchCandidate block_of(double threads, int registers = 0) {
  LaunchCandidate c;
  c.block = {threads, 1, 1};
  c.registers_per_thread = registers;
  return c;
}

const TunedLaunch& with_threads(const LaunchTuning& t, double threads, int registers = 32) {
  for (const auto& launch : t.ranked)
    if (launch.shape.threads_per_block() == threads && launch.shape.registers_per_thread == registers) return launch;
  FAIL("no configuration with " << threads << " threads and " << registers << " registers");
  return t.ranked.front();
}

}  // namespace

TEST_CASE("tune: the grid follows the problem size, the profiled configuration is one of the candidates") {
  const auto k = kernel(2000, 256, 1000, 7);  // 512,000 threads
  const auto t = tune_launch(k, round_device(), {block_of(64), block_of(256), block_of(1000)});
  CHECK(t.problem_threads == 512000);
  REQUIRE(t.ranked.size() == 3);  // 256 is the profiled one, not listed twice
  CHECK(with_threads(t, 64).shape.blocks() == 8000);
  CHECK(with_threads(t, 1000).shape.blocks() == 512);  // 512 x 1000 covers 512,000
  CHECK(with_threads(t, 256).profiled);
  CHECK(with_threads(t, 256).speedup == Approx(1));
}

TEST_CASE("tune: a latency-bound kernel is not predicted faster at half the occupancy") {
  // 8 ns per instruction, 1000 instructions per warp. 256 threads: 8 blocks per SM (threads),
  // 20 blocks on each SM, 3 waves. 64 threads: 32 blocks per SM, 80 per SM, 3 waves.
  // 32 threads: 32 blocks per SM (the block limit: half the warp slots), 160 per SM, 5 waves.
  const auto k = kernel(2000, 256, 1000, 7);
  const auto t = tune_launch(k, round_device(), {block_of(32), block_of(64)});
  const auto& half = with_threads(t, 32);
  const auto& full = with_threads(t, 64);
  CHECK(half.occupancy.limiter == "blocks");
  CHECK(half.occupancy_share == Approx(0.5));
  CHECK(full.occupancy_share == Approx(1));
  CHECK(half.prediction.latency.ms == Approx(5 * 1000 * 8e-6));
  CHECK(full.prediction.latency.ms == Approx(3 * 1000 * 8e-6));
  CHECK(half.prediction.predicted_ms > full.prediction.predicted_ms);
  CHECK(t.ranked.back().shape.threads_per_block() == 32);
  CHECK(half.prediction.limiter.find("latency") != std::string::npos);
}

TEST_CASE("tune: registers that halve the occupancy make a latency-bound kernel slower") {
  // 64 registers x 256 threads: 4 blocks per SM instead of 8, 5 waves instead of 3.
  const auto k = kernel(2000, 256, 1000, 7);
  const auto t = tune_launch(k, round_device(), {block_of(256, 64)});
  const auto& heavy = with_threads(t, 256, 64);
  CHECK(heavy.occupancy.blocks_per_sm == 4);
  CHECK(heavy.occupancy.limiter == "registers");
  CHECK(heavy.prediction.latency.waves == 5);
  CHECK(heavy.speedup < 1);
}

TEST_CASE("tune: a partial last wave leaves SMs idle (tail effect)") {
  // A compute-bound kernel (no latency counters), 51,200 threads, 1 ms of FMA-pipe work.
  // 256 threads: 200 blocks, 2 on every SM. 384 threads: 134 blocks, 2 on the busiest SM but
  // 1.34 on the mean one: 33 % idle, the compute takes 2 / 1.34 times as long.
  const auto k = kernel(200, 256, 1e9 / (200 * 8), 0);
  const auto t = tune_launch(k, round_device(), {block_of(384)});
  const auto& even = with_threads(t, 256);
  const auto& tail = with_threads(t, 384);
  CHECK(even.tail_idle_share == Approx(0));
  CHECK(tail.shape.blocks() == 134);
  CHECK(tail.tail_idle_share == Approx(1 - 1.34 / 2));
  CHECK(tail.prediction.compute_ms == Approx(even.prediction.compute_ms * 2 / 1.34));
  CHECK(t.ranked.front().profiled);
  CHECK(tail.speedup == Approx(even.prediction.predicted_ms / tail.prediction.predicted_ms));
}

TEST_CASE("tune: configurations that cannot launch are ranked last with the reason") {
  const auto k = kernel(2000, 256, 1000, 7);
  LaunchCandidate huge_shared = block_of(128);
  huge_shared.shared_bytes = 300000;
  const auto t = tune_launch(k, round_device(), {block_of(2048), huge_shared, block_of(128)}, 0, 1);
  REQUIRE(t.ranked.size() == 4);
  CHECK(t.ranked[2].problem.find("1024") != std::string::npos);
  CHECK(t.ranked[3].problem.find("shared memory") != std::string::npos);
  CHECK(t.ranked[0].worth_measuring);
  CHECK_FALSE(t.ranked[1].worth_measuring);  // --top 1
  CHECK_FALSE(t.ranked[2].worth_measuring);
}

TEST_CASE("tune: the re-cut kernel keeps its work and scales what depends on the launch") {
  auto k = kernel(2000, 256, 1000, 7);
  std::get<KernelCounters>(k.description).extra["sm__warps_active.avg.pct_of_peak_sustained_active"] = 80;
  k.measured_ms = 1.0;
  const auto device = round_device();
  // Coarsened 2x: half the threads, 1000 blocks of 256; each warp runs twice the instructions.
  LaunchCandidate coarse = block_of(256);
  coarse.work_per_thread = 2;
  const KernelRecord recut = kernel_with_launch(k, coarse, device);
  const auto& extra = std::get<KernelCounters>(recut.description).extra;
  CHECK(recut.launch_shapes.front().blocks() == 1000);
  CHECK(extra.at("sm__warps_launched.sum") == Approx(8000));
  CHECK(extra.at("smsp__inst_executed_pipe_fma.sum") == Approx(2000 * 8 * 1000));
  CHECK(*recut.measured_ms == Approx(2.0));
  // 32 threads per block: half the warp slots, so half the achieved occupancy.
  const KernelRecord small = kernel_with_launch(k, block_of(32), device);
  CHECK(std::get<KernelCounters>(small.description).extra.at("sm__warps_active.avg.pct_of_peak_sustained_active") ==
        Approx(40));
  // Shared memory per block follows the block's threads unless given.
  k.launch_shapes.front().static_shared_bytes = 4096;
  CHECK(kernel_with_launch(k, block_of(512), device).launch_shapes.front().shared_bytes_per_block() == 8192);
}

TEST_CASE("tune: kernels without a launch shape or counters are refused with the reason") {
  auto k = kernel(2000, 256, 1000, 7);
  CHECK(tuning_problem(k).empty());
  k.launch_shapes.clear();
  CHECK(tuning_problem(k).find("launch shape") != std::string::npos);
  k = kernel(2000, 256, 1000, 7);
  k.description = KernelParameters{};
  CHECK(tuning_problem(k).find("counters") != std::string::npos);
}

TEST_CASE("tune: many short blocks are bounded by the device's block dispatch rate") {
  auto device = round_device();
  const auto k = kernel(2000, 256, 1000, 0);  // 0.016 ms of FMA-pipe work
  // Without the rate the block size does not matter to this throughput-bound kernel, and the
  // tuning says what it left out.
  const auto without = tune_launch(k, device, {block_of(32)});
  CHECK(with_threads(without, 32).prediction.predicted_ms == Approx(with_threads(without, 256).prediction.predicted_ms));
  CHECK(std::count(without.not_modelled.begin(), without.not_modelled.end(),
                   "no block_dispatch_gblocks on this device: block dispatch not modelled") == 1);
  // 0.1 G blocks/s: 16,000 blocks of 32 threads take 0.16 ms to start, 2000 of 256 0.02 ms.
  device.extra_throughput["block_dispatch_gblocks"] = 0.1;
  const auto t = tune_launch(k, device, {block_of(32)});
  const auto& small = with_threads(t, 32);
  for (const auto& note : t.not_modelled) CHECK(note.find("block_dispatch") == std::string::npos);
  CHECK(small.prediction.limiter == "block dispatch");
  CHECK(small.prediction.predicted_ms == Approx(0.002 + 0.16));
  CHECK(with_threads(t, 256).prediction.predicted_ms == Approx(0.002 + 0.02));
  CHECK(t.ranked.front().profiled);
}

TEST_CASE("tune: global atomics issued once per block follow the number of blocks") {
  auto k = kernel(2000, 256, 1000, 0);
  auto& extra = std::get<KernelCounters>(k.description).extra;
  extra["smsp__sass_inst_executed_op_global_atom.sum"] = 2000;  // one per block, as in a reduction
  extra["lts__d_atomic_input_cycles_active.max"] = 2000;
  const KernelRecord small = kernel_with_launch(k, block_of(64), round_device());  // 8000 blocks
  CHECK(std::get<KernelCounters>(small.description).extra.at("smsp__sass_inst_executed_op_global_atom.sum") ==
        Approx(8000));
  CHECK(std::get<KernelCounters>(small.description).extra.at("lts__d_atomic_input_cycles_active.max") == Approx(8000));
  // Atomics of every thread (not a whole number per block) stay as measured.
  extra["smsp__sass_inst_executed_op_global_atom.sum"] = 2000 * 8 * 0.37;
  const KernelRecord per_thread = kernel_with_launch(k, block_of(64), round_device());
  CHECK(std::get<KernelCounters>(per_thread.description).extra.at("smsp__sass_inst_executed_op_global_atom.sum") ==
        Approx(2000 * 8 * 0.37));
}

TEST_CASE("tune: the re-cut keeps the reference's measured time per atomic request") {
  auto k = kernel(2000, 256, 1000, 0);
  auto& extra = std::get<KernelCounters>(k.description).extra;
  extra["smsp__sass_inst_executed_op_global_red.sum"] = 2000;  // one per block
  extra["lts__t_requests_srcunit_tex_op_red.sum"] = 2000;
  k.measured_ms = 0.004;  // 4000 ns over 2000 requests: 2 ns each
  CHECK(one_word_reference_of(k, kernel_work_of(k)).ns_per_request == Approx(2));
  // 8000 blocks of 64 threads: four times the requests, the same measured time (its warps run
  // as many instructions each), but still 2 ns per request on the reference.
  const KernelRecord small = kernel_with_launch(k, block_of(64), round_device());
  CHECK(std::get<KernelCounters>(small.description).extra.at("lts__t_requests_srcunit_tex_op_red.sum") == Approx(8000));
  REQUIRE(small.reference_ns_per_atomic_request);
  CHECK(*small.reference_ns_per_atomic_request == Approx(2));
  CHECK(one_word_reference_of(small, kernel_work_of(small)).ns_per_request == Approx(2));
  // Without a measured time: unknown (0), not measured_ms over the re-cut's requests.
  k.measured_ms.reset();
  CHECK(one_word_reference_of(kernel_with_launch(k, block_of(64), round_device()), kernel_work_of(k)).ns_per_request == 0);
}

TEST_CASE("tune: a persistent grid of a few blocks per SM removes the partial last wave") {
  // 512,000 threads of 1000 instructions per warp at 8 ns: 256 threads, 20 blocks per SM in
  // waves of 8: 3 waves, 0.024 ms. 8 blocks per SM of 256 (800 blocks): each thread does 2.5
  // threads' work, 1 wave of 2500 instructions per warp: 0.020 ms.
  const auto k = kernel(2000, 256, 1000, 7);
  const auto candidates = candidate_space({{256, 1, 1}}, {}, {}, {}, {8});
  REQUIRE(candidates.size() == 2);
  const auto t = tune_launch(k, round_device(), candidates);
  REQUIRE(t.ranked.size() == 2);
  const auto& persistent = t.ranked.front();
  CHECK(persistent.shape.blocks() == 800);
  CHECK(persistent.candidate.work_per_thread == Approx(2.5));
  CHECK(persistent.prediction.latency.ms == Approx(1 * 2500 * 8e-6));
  CHECK(t.ranked.back().profiled);
  CHECK(t.ranked.back().prediction.latency.ms == Approx(3 * 1000 * 8e-6));
}

TEST_CASE("tune: over several waves the tail is the empty slots of the last one") {
  // 880 blocks of 256 threads on 100 SMs of 8 slots: 9 blocks on the busiest SM, 2 waves of 8
  // slots for 8.8 blocks: 45 % of the slots idle.
  const auto k = kernel(880, 256, 1000, 7);
  const auto t = tune_launch(k, round_device(), {});
  CHECK(t.ranked.front().waves == Approx(1.1));
  CHECK(t.ranked.front().tail_idle_share == Approx(1 - 8.8 / 16));
}

TEST_CASE("tune: a problem of twice the threads does twice the work") {
  // Compute bound (no latency counters): 200 blocks x 256 threads, 1 ms of FMA-pipe work; at
  // 102,400 threads 400 blocks and 2 ms.
  const auto k = kernel(200, 256, 1e9 / (200 * 8), 0);
  const auto t = tune_launch(k, round_device(), {}, 102400);
  REQUIRE(t.ranked.size() == 1);
  CHECK(t.ranked.front().shape.blocks() == 400);
  CHECK(t.ranked.front().prediction.compute_ms == Approx(2.0));
  const KernelRecord doubled = kernel_with_launch(k, block_of(256), round_device(), 102400);
  CHECK(std::get<KernelCounters>(doubled.description).thesis.inst_executed == Approx(2e9));
}

TEST_CASE("tune --fixed-tile: each block keeps the profiled block's tile, its threads share the work") {
  // 2000 blocks of 256 threads with 8 KiB of shared tiles each.
  auto k = kernel(2000, 256, 1000, 7);
  k.launch_shapes.front().static_shared_bytes = 8192;
  const auto candidates = fixed_tile_candidates(k, {{64, 1, 1}, {256, 1, 1}, {32, 32, 1}}, {}, {});
  REQUIRE(candidates.size() == 3);
  CHECK(candidates[0].work_per_thread == Approx(4));
  CHECK(candidates[1].work_per_thread == Approx(1));
  CHECK(candidates[2].work_per_thread == Approx(0.25));
  for (const auto& c : candidates) CHECK(c.shared_bytes == Approx(8192));
  const auto t = tune_launch(k, round_device(), candidates);
  for (double threads : {64.0, 256.0, 1024.0}) {
    INFO(threads);
    CHECK(with_threads(t, threads).shape.blocks() == 2000);  // the grid stays: one block per tile
    CHECK(with_threads(t, threads).shape.shared_bytes_per_block() == Approx(8192));
  }
  // Given shared sizes replace the tile's.
  CHECK(fixed_tile_candidates(k, {{128, 1, 1}}, {}, {4096, 16384}).size() == 2);
}

TEST_CASE("tune --fixed-tile: waits for memory and at barriers stay per warp, other waits per instruction") {
  auto k = kernel(2000, 256, 1000, 7);
  auto& extra = std::get<KernelCounters>(k.description).extra;
  extra["smsp__warps_issue_stalled_long_scoreboard.sum"] = 8e6;
  extra["smsp__warps_issue_stalled_barrier.sum"] = 2e6;
  const auto candidates = fixed_tile_candidates(k, {{512, 1, 1}, {128, 1, 1}}, {}, {});
  for (const auto& candidate : candidates) {
    INFO(candidate.threads_per_block());
    CHECK(candidate.fixed_tile);
    const KernelRecord recut = kernel_with_launch(k, candidate, round_device());
    const auto& stalls = std::get<KernelCounters>(recut.description).extra;
    const double warp_ratio = candidate.threads_per_block() / 256;  // same grid, warps per block change
    CHECK(stalls.at("smsp__warps_issue_stalled_long_scoreboard.sum") == Approx(8e6 * warp_ratio));
    CHECK(stalls.at("smsp__warps_issue_stalled_barrier.sum") == Approx(2e6 * warp_ratio));
    CHECK(stalls.at("smsp__warps_issue_stalled_wait.sum") == Approx(7 * 2000 * 8 * 1000));  // as profiled
  }
  // A block size re-cut without --fixed-tile keeps every total.
  const KernelRecord plain = kernel_with_launch(k, block_of(512), round_device());
  CHECK(std::get<KernelCounters>(plain.description).extra.at("smsp__warps_issue_stalled_long_scoreboard.sum") ==
        Approx(8e6));
}

TEST_CASE("tune with a second configuration: each block's work follows the line through the two") {
  // A fixed tile of 4096 blocks: at 256 threads (8 warps) a block issues 8000 FMA-pipe
  // instructions, at 512 threads (16 warps) 9600: 200 more per warp a block gains.
  const auto first = kernel(4096, 256, 1000, 0);
  const auto second = kernel(4096, 512, 600, 0);
  REQUIRE(second_configuration_problem(first, second, true).empty());
  const auto fma = [](const KernelRecord& k) {
    return std::get<KernelCounters>(k.description).extra.at("smsp__inst_executed_pipe_fma.sum");
  };
  const auto device = round_device();
  const auto cut = [&](double threads) {
    LaunchCandidate c = block_of(threads);
    c.fixed_tile = true;
    c.work_per_thread = 256 / threads;
    return kernel_with_launch(first, c, device, 0, &second);
  };
  CHECK(fma(cut(256)) == Approx(4096 * 8000.0));
  CHECK(fma(cut(512)) == Approx(4096 * 9600.0));
  CHECK(fma(cut(1024)) == Approx(4096 * 12800.0));  // 8000 + 24 x 200: extrapolated
  CHECK(fma(cut(128)) == Approx(4096 * 7200.0));
  CHECK(std::get<KernelCounters>(cut(1024).description).thesis.inst_executed == Approx(4096 * 12800.0));
  // Without the second configuration the tile's work stays the profiled block's.
  LaunchCandidate alone = block_of(1024);
  alone.fixed_tile = true;
  alone.work_per_thread = 0.25;
  CHECK(fma(kernel_with_launch(first, alone, device)) == Approx(4096 * 8000.0));
  // More work per block is slower.
  const auto with = tune_launch(first, device, {alone}, 0, 5, &second);
  const auto without = tune_launch(first, device, {alone});
  CHECK(with_threads(with, 1024).prediction.predicted_ms > with_threads(without, 1024).prediction.predicted_ms);
}

TEST_CASE("tune with a second configuration: it must be another block size of the same problem") {
  const auto first = kernel(4096, 256, 1000, 0);
  CHECK_THAT(second_configuration_problem(first, kernel(4096, 240, 1000, 0), true), Catch::Contains("as many warps"));
  CHECK_THAT(second_configuration_problem(first, kernel(2048, 512, 1000, 0), true), Catch::Contains("--fixed-tile"));
  // Without a fixed tile the same threads of work: 2048 blocks of 512 are the same problem.
  CHECK(second_configuration_problem(first, kernel(2048, 512, 1000, 0), false).empty());
  CHECK_THAT(second_configuration_problem(first, kernel(4096, 512, 1000, 0), false), Catch::Contains("same problem"));
  auto published = kernel(2048, 512, 1000, 0);
  published.description = KernelParameters{};
  CHECK_THAT(second_configuration_problem(first, published, false), Catch::Contains("counters"));
}

TEST_CASE("tune with a second configuration of the same problem: per-thread work between the two") {
  // 512,000 threads: at 256 threads a block issues 8 x 1000 instructions, at 512 threads
  // 16 x 1100 (a tree step more per thread, say): 1200 more per warp a block gains. A block of
  // 1024 threads: 8000 + 24 x 1200 = 36,800.
  const auto first = kernel(2000, 256, 1000, 0);
  const auto second = kernel(1000, 512, 1100, 0);
  REQUIRE(second_configuration_problem(first, second, false).empty());
  const KernelRecord large = kernel_with_launch(first, block_of(1024), round_device(), 0, &second);
  CHECK(large.launch_shapes.front().blocks() == 500);
  CHECK(std::get<KernelCounters>(large.description).extra.at("smsp__inst_executed_pipe_fma.sum") ==
        Approx(500 * 36800.0));
}

TEST_CASE("tune --ablate reference-time: every configuration as for a profile timed nowhere") {
  // 8 ns per instruction x 1000 instructions: one warp's 8 us from the stall counts; the
  // reference measured 4 us a launch, which caps it at 4 ns per instruction, in every re-cut too.
  auto k = kernel(2000, 256, 1000, 7);
  k.measured_ms = 0.004;
  KernelRecord timed_nowhere = k;
  timed_nowhere.measured_ms.reset();
  const std::vector<LaunchCandidate> candidates = {block_of(64), block_of(128), block_of(512)};
  PipesTerms off;
  off.reference_time = false;
  const auto with_term = tune_launch(k, round_device(), candidates);
  const auto without = tune_launch(k, round_device(), candidates, 0, 5, nullptr, off);
  const auto nowhere = tune_launch(timed_nowhere, round_device(), candidates);
  for (double threads : {64, 128, 256, 512}) {
    INFO(threads << " threads");
    CHECK(with_threads(without, threads).prediction.predicted_ms == with_threads(nowhere, threads).prediction.predicted_ms);
    CHECK(with_threads(with_term, threads).prediction.reference_time.uncapped_latency_ns > 0);
    CHECK(with_threads(with_term, threads).prediction.predicted_ms <
          with_threads(without, threads).prediction.predicted_ms);
    CHECK_FALSE(with_threads(without, threads).prediction.reference_time.acted());
  }
}

TEST_CASE("tune with a second configuration: a block the line gives no work cannot be costed, never ranked") {
  // A fixed tile of 4096 blocks: 8000 FMA-pipe instructions per block at 8 warps, 1600 at 16:
  // 800 fewer per warp a block gains, so at 24 warps the line is below zero (-4800).
  const auto first = kernel(4096, 256, 1000, 0);
  const auto second = kernel(4096, 512, 100, 0);
  REQUIRE(second_configuration_problem(first, second, true).empty());
  const auto device = round_device();
  std::vector<LaunchCandidate> candidates;
  for (double threads : {128.0, 512.0, 640.0, 768.0, 1024.0}) {
    LaunchCandidate c = block_of(threads);
    c.fixed_tile = true;
    c.work_per_thread = 256 / threads;
    candidates.push_back(c);
  }
  LaunchShape shape;
  shape.block = {768, 1, 1};
  CHECK_THAT(line_work_problem(first, second, shape), Catch::Contains("24-warp block") &&
                                                          Catch::Contains("extrapolated below zero"));
  shape.block = {640, 1, 1};  // 20 warps: 8000 - 12 x 800 < 0 too; 10 warps (320): 6400, costed
  CHECK_FALSE(line_work_problem(first, second, shape).empty());
  shape.block = {320, 1, 1};
  CHECK(line_work_problem(first, second, shape).empty());
  // Exactly zero warp instructions (at 18 warps: 8000 - 10 x 800) is no block of work either.
  shape.block = {576, 1, 1};
  CHECK_THAT(line_work_problem(first, second, shape), Catch::Contains("down to zero"));

  const auto tuning = tune_launch(first, device, candidates, 0, 10, &second);
  REQUIRE(tuning.ranked.size() == 6);  // the profiled 256 and the five
  size_t costed = 0;
  for (const auto& t : tuning.ranked) {
    INFO(t.shape.threads_per_block());
    const bool beyond = t.shape.threads_per_block() > 512;
    CHECK(t.cannot_cost.empty() == !beyond);
    if (beyond) {
      CHECK_FALSE(t.worth_measuring);
      CHECK(t.prediction.predicted_ms == 0);  // not predicted
    } else {
      CHECK(t.prediction.predicted_ms > 0);
      CHECK(t.worth_measuring);  // --top 10: every one that is costed
      ++costed;
    }
  }
  CHECK(costed == 3);
  // Those that cannot be costed come after every prediction, not first as 0 ms.
  for (size_t i = 0; i < tuning.ranked.size(); ++i) CHECK(tuning.ranked[i].cannot_cost.empty() == (i < costed));
  // Without the second configuration every candidate is costed.
  for (const auto& t : tune_launch(first, device, candidates).ranked) CHECK(t.cannot_cost.empty());
}
