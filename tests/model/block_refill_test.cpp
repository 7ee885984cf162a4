#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "roofcast/model/block_refill.hpp"
#include "roofcast/model/launch_tuning.hpp"
#include "roofcast/model/pipes_prediction.hpp"

#include "hundred_sm_device.hpp"

using namespace roofcast;

namespace {

// The test device with its DRAM latency line known.
DeviceProfile device_of_100_sms(double probe_ns = 400) { return roofcast::test::hundred_sm_device(probe_ns, true); }

LaunchShape shape_of(double blocks, double threads, int64_t invocations = 1) {
  LaunchShape s;
  s.grid = {blocks, 1, 1};
  s.block = {threads, 1, 1};
  s.invocations = invocations;
  s.registers_per_thread = 32;
  return s;
}

// A triad launched 5 times as 1000 blocks x 256 threads (8 blocks per SM, 1.25 waves) at
// `achieved` % occupancy; each warp 2 loads and 1 store of 128 bytes; 2 GB read from DRAM. Its
// warps wait for their loads, never at a barrier.
KernelRecord triad_kernel(double achieved = 50) {
  KernelRecord k;
  k.name = "triad";
  k.invocations = 5;
  k.launch_shapes = {shape_of(1000, 256, 5)};
  KernelCounters c;
  c.thesis.inst_executed = 40000 * 27;
  c.thesis.dram_read_transactions = 62.5e6;
  c.extra = {{"smsp__inst_executed_pipe_fma.sum", 1},
             {"sm__warps_active.avg.pct_of_peak_sustained_active", achieved},
             {"sm__warps_launched.sum", 40000},
             {"smsp__inst_executed_op_global_ld.sum", 80000},
             {"smsp__inst_executed_op_global_st.sum", 40000},
             {"l1tex__t_bytes.sum", 128 * 120000},
             {"smsp__warps_issue_stalled_long_scoreboard.sum", 1e6},
             {"smsp__warps_issue_stalled_barrier.sum", 0}};
  k.description = c;
  return k;
}

// The triad, but its warps also wait for each other at a barrier.
KernelRecord triad_with_barrier() {
  KernelRecord k = triad_kernel();
  std::get<KernelCounters>(k.description).extra["smsp__warps_issue_stalled_barrier.sum"] = 1e5;
  return k;
}

// The triad re-cut to blocks of `threads` (the same problem, the same theoretical occupancy).
KernelRecord triad_in_blocks_of(double threads, const KernelRecord& kernel, const DeviceProfile& device) {
  LaunchCandidate c;
  c.block = {threads, 1, 1};
  return kernel_with_launch(kernel, c, device, 0);
}

double memory_cost(const PipesPrediction& p, const std::string& name) {
  for (const auto& c : p.memory)
    if (c.name == name) return c.ms;
  return -1;
}

PipesTerms without_refill() {
  PipesTerms t;
  t.block_refill = false;
  return t;
}

}  // namespace

TEST_CASE("block-refill: a share 1/(2k) of the slots of k resident blocks waits for a block's last warp") {
  CHECK(busy_slot_share(1) == Approx(0.5));
  CHECK(busy_slot_share(2) == Approx(0.75));
  CHECK(busy_slot_share(8) == Approx(0.9375));
  CHECK(busy_slot_share(0) == 1);  // unknown: nothing taken off
}

TEST_CASE("block-refill: only a launch of more than one wave refills slots") {
  const DeviceProfile d = device_of_100_sms();
  CHECK(steady_busy_slot_share(shape_of(1000, 256), d) == Approx(0.9375));  // 8 per SM, 1.25 waves
  CHECK(steady_busy_slot_share(shape_of(250, 1024), d) == Approx(0.75));    // 2 per SM, 1.25 waves
  CHECK(steady_busy_slot_share(shape_of(800, 256), d) == 0);                // exactly one wave
  CHECK(steady_busy_slot_share(shape_of(50, 256), d) == 0);                 // fewer blocks than SMs
  DeviceProfile unknown = d;
  unknown.occupancy = {};
  CHECK(steady_busy_slot_share(shape_of(1000, 256), unknown) == 0);
}

TEST_CASE("block-refill: the profile's share is its multi-wave shapes' mean, by blocks") {
  const DeviceProfile d = device_of_100_sms();
  KernelRecord k = triad_kernel();
  k.launch_shapes = {shape_of(1000, 256, 1), shape_of(300, 1024, 1), shape_of(50, 256, 4)};
  CHECK(profiled_busy_slot_share(k, d) == Approx((1000 * 0.9375 + 300 * 0.75) / 1300));
  k.launch_shapes = {shape_of(50, 256)};
  CHECK(profiled_busy_slot_share(k, d) == 0);
  k.profiled_busy_slot_share = 0.9;  // a re-cut keeps the profiled launch's
  CHECK(profiled_busy_slot_share(k, d) == Approx(0.9));
}

TEST_CASE("block-refill: the profiled launch keeps its measured occupancy (it holds its own empty slots)") {
  const DeviceProfile d = device_of_100_sms();
  const auto with = predict_pipes(triad_kernel(), d), without = predict_pipes(triad_kernel(), d, without_refill());
  CHECK(memory_cost(with, "DRAM parallelism") == memory_cost(without, "DRAM parallelism"));
  CHECK(with.predicted_ms == without.predicted_ms);
  const auto& names = pipes_term_names();
  CHECK(std::any_of(names.begin(), names.end(),
                    [](const PipesTermName& n) { return std::string(n.name) == "block-refill"; }));
}

TEST_CASE("block-refill: fewer, larger blocks per SM keep fewer warps resident: more DRAM-parallelism cost") {
  // 1024 threads: 2 blocks per SM (busy share 0.75) where the profiled 256 had 8 (0.9375), at the
  // same theoretical occupancy: resident warps x 0.75 / 0.9375 = 0.8, the cost / 0.8.
  const DeviceProfile d = device_of_100_sms();
  const KernelRecord recut = triad_in_blocks_of(1024, triad_kernel(), d);
  REQUIRE(recut.profiled_busy_slot_share);
  CHECK(*recut.profiled_busy_slot_share == Approx(0.9375));
  const auto with = predict_pipes(recut, d), without = predict_pipes(recut, d, without_refill());
  CHECK(memory_cost(with, "DRAM parallelism") == Approx(memory_cost(without, "DRAM parallelism") / 0.8));
  CHECK(with.predicted_ms > without.predicted_ms);
  bool refill_noted = false;
  with.for_each_note([&](std::string_view n) { refill_noted = refill_noted || n.starts_with("block refill:"); });
  CHECK(refill_noted);
  // Smaller blocks, more of them per SM: fewer empty slots (16 per SM, 0.96875 / 0.9375).
  const KernelRecord small = triad_in_blocks_of(128, triad_kernel(), d);
  CHECK(memory_cost(predict_pipes(small, d), "DRAM parallelism") ==
        Approx(memory_cost(predict_pipes(small, d, without_refill()), "DRAM parallelism") * 0.9375 / 0.96875));
}

TEST_CASE("block-refill: a kernel bounded by DRAM bandwidth is not slowed") {
  // Full occupancy and a 50 ns probe: the warps keep far more in flight than the bandwidth needs,
  // so the DRAM time is the bandwidth's with and without the term.
  const DeviceProfile d = device_of_100_sms(50);
  const KernelRecord recut = triad_in_blocks_of(1024, triad_kernel(100), d);
  const auto with = predict_pipes(recut, d), without = predict_pipes(recut, d, without_refill());
  CHECK(memory_cost(with, "DRAM parallelism") > memory_cost(without, "DRAM parallelism"));
  CHECK(with.limiter == "DRAM");
  CHECK(with.predicted_ms == without.predicted_ms);
}

TEST_CASE("block-refill: warps that meet at a barrier leave together, without stall counts the term is off") {
  WarpWaits waits;
  CHECK_FALSE(warps_leave_independently(waits));  // not recorded
  waits.stall_cycles = {{"long_scoreboard", 1e6}, {"barrier", 0}};
  CHECK(warps_leave_independently(waits));
  waits.stall_cycles["barrier"] = 1;
  CHECK_FALSE(warps_leave_independently(waits));

  const DeviceProfile d = device_of_100_sms();
  KernelRecord no_stalls = triad_kernel();
  auto& extra = std::get<KernelCounters>(no_stalls.description).extra;
  extra.erase("smsp__warps_issue_stalled_long_scoreboard.sum");
  extra.erase("smsp__warps_issue_stalled_barrier.sum");
  for (const KernelRecord& k : {triad_with_barrier(), no_stalls}) {
    const KernelRecord recut = triad_in_blocks_of(1024, k, d);
    CHECK(memory_cost(predict_pipes(recut, d), "DRAM parallelism") ==
          memory_cost(predict_pipes(recut, d, without_refill()), "DRAM parallelism"));
  }
}

TEST_CASE("tune: at the same occupancy, a memory-parallelism-bound kernel is slower in fewer, larger blocks") {
  // 256 threads: 8 blocks per SM; 1024: 2. Both fill every warp slot in theory; the larger
  // blocks leave more slots waiting for a block's last warp.
  const DeviceProfile d = device_of_100_sms();
  LaunchCandidate large;
  large.block = {1024, 1, 1};
  const LaunchTuning tuning = tune_launch(triad_kernel(), d, {large}, 0, 2);
  double ms_256 = 0, ms_1024 = 0;
  for (const auto& t : tuning.ranked) (t.shape.threads_per_block() == 256 ? ms_256 : ms_1024) = t.per_launch_ms;
  REQUIRE(ms_256 > 0);
  CHECK(ms_1024 > 1.05 * ms_256);
}
