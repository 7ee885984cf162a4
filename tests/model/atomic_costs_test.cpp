#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "roofcast/model/atomic_costs.hpp"
#include "roofcast/model/pipes_prediction.hpp"

using namespace roofcast;

namespace {

// 640 G distinct-address atomics/s; one slice takes 16 G same-line additions/s, 8 per sector:
// 2 G sectors/s; the SMs' crossbar ports move 1000 GB/s each way (31.25 G sectors/s).
DeviceRates atomic_rates() {
  DeviceRates rates;
  rates.global_atomics_gops = 640;
  rates.global_atomics_same_address_gops = 16;
  rates.l2_gbps = 1000;
  return rates;
}

// 1e6 warp instructions: 3.2e7 operations, 0.05 ms at 640 G/s.
KernelWork atomic_work(double busiest_slice_cycles, double l2_sectors) {
  KernelWork work;
  work.global_atomic_instructions = 1e6;
  work.atomic_busiest_l2_slice_cycles = busiest_slice_cycles;
  work.global_atomic_l2_sectors = l2_sectors;
  return work;
}

bool has_note(const GlobalAtomicsCost& cost, const std::string& text) {
  return std::any_of(cost.notes.begin(), cost.notes.end(),
                     [&](const std::string& n) { return n.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("global atomics: the busiest slice and the crossbar meet in a knee") {
  // 6e6 sectors on the busiest slice: 3 ms at 2 G/s; 1.25e8 sectors through the crossbar:
  // 4e9 bytes, 4 ms at 1000 GB/s; sqrt(3^2 + 4^2) = 5 ms, the crossbar the larger part.
  const auto cost = global_atomics_cost(atomic_work(6e6, 1.25e8), atomic_rates());
  CHECK(cost.busiest_slice_ms == Approx(3));
  CHECK(cost.crossbar_ms == Approx(4));
  CHECK(cost.operations_ms == Approx(0.05));
  CHECK(cost.ms == Approx(5));
  CHECK(cost.name == "global atomics (crossbar)");
  CHECK(has_note(cost, "busiest L2 slice 3 ms, crossbar 4 ms (in a knee: 5 ms)"));
}

TEST_CASE("global atomics: one hot line is the busiest slice's, whatever the crossbar carries") {
  // Every atomic on one line: 2e8 sectors on one slice (100 ms); the same 2e8 sectors cross in
  // 6.4 ms: sqrt(100^2 + 6.4^2) = 100.2 ms.
  const auto cost = global_atomics_cost(atomic_work(2e8, 2e8), atomic_rates());
  CHECK(cost.ms == Approx(100.2046));
  CHECK(cost.name == "global atomics (busiest L2 slice)");
}

TEST_CASE("global atomics: few sectors leave the distinct-address rate") {
  // 1e4 sectors on the busiest slice (0.005 ms), 4e4 through the crossbar (0.00128 ms).
  const auto cost = global_atomics_cost(atomic_work(1e4, 4e4), atomic_rates());
  CHECK(cost.ms == Approx(0.05));
  CHECK(cost.name == "global atomics");
}

TEST_CASE("global atomics: what is missing is said, and the rest still costed") {
  auto rates = atomic_rates();
  // No L2 sectors recorded: the busiest slice alone (3 ms), with a note.
  auto cost = global_atomics_cost(atomic_work(6e6, 0), rates);
  CHECK(cost.ms == Approx(3));
  CHECK(cost.name == "global atomics (busiest L2 slice)");
  CHECK(has_note(cost, "crossbar time not costed"));
  // No per-slice counter: the distinct-address rate.
  cost = global_atomics_cost(atomic_work(0, 1.25e8), rates);
  CHECK(cost.ms == Approx(0.05));
  CHECK(has_note(cost, "no busiest-slice atomic cycles"));
  // No same-address rate on the device: the distinct-address rate.
  rates.global_atomics_same_address_gops = 0;
  cost = global_atomics_cost(atomic_work(6e6, 1.25e8), rates);
  CHECK(cost.ms == Approx(0.05));
  CHECK(has_note(cost, "no same-address atomic rate"));
  // No distinct-address rate: nothing costed.
  rates.global_atomics_gops = 0;
  CHECK(global_atomics_cost(atomic_work(6e6, 1.25e8), rates).name.empty());
  // No atomics: nothing costed.
  CHECK(global_atomics_cost(KernelWork{}, atomic_rates()).name.empty());
}

TEST_CASE("global atomics: the scattered-sector bench, where measured, costs sectors on lines of their own") {
  auto rates = atomic_rates();
  rates.global_atomics_scattered_gops = 25;  // 25 G single-sector atomics/s
  // 1.5e8 sectors: 6 ms at 25 G/s, where the knee gives sqrt(3^2 + 4.8^2) = 5.66 ms.
  auto cost = global_atomics_cost(atomic_work(6e6, 1.5e8), rates);
  CHECK(cost.scattered_ms == Approx(6));
  CHECK(cost.ms == Approx(6));
  CHECK(cost.name == "global atomics (scattered sectors)");
  // One hot line (2e8 sectors on one slice, 100 ms): the bench's 8 ms does not bind.
  cost = global_atomics_cost(atomic_work(2e8, 2e8), rates);
  CHECK(cost.name == "global atomics (busiest L2 slice)");
  CHECK_FALSE(has_note(cost, "no atomic_global_scattered_gops"));
  // Without the bench, the sectors are not costed that way, and the note says so.
  rates.global_atomics_scattered_gops = 0;
  CHECK(has_note(global_atomics_cost(atomic_work(6e6, 1.5e8), rates), "no atomic_global_scattered_gops on this device"));
}

TEST_CASE("global atomics: single-lane atomics on one word at the same-word bench's rate") {
  auto rates = atomic_rates();
  rates.global_atomics_same_word_gops = 0.5;
  // 1e6 warp instructions, one lane each: 1e6 requests of one sector, all on one slice.
  KernelWork work = atomic_work(1e6, 1e6);
  work.global_atomic_l2_requests = 1e6;
  // The slice's 0.5 ms (1e6 sectors at 2 G/s) and 0.032 ms of crossbar; one word's 1e6
  // read-modify-writes at 0.5 G/s: 2 ms.
  auto cost = global_atomics_cost(work, rates);
  CHECK(cost.one_word_ms == Approx(2));
  CHECK(cost.ms == Approx(2));
  CHECK(cost.name == "global atomics (one word)");
  // Every lane on the word (32 requests per instruction): the word's 3.2e7 read-modify-writes
  // in a row, 64 ms at 0.5 G/s (the slice's bound: 16 ms, crossbar 1.024 ms).
  work.global_atomic_l2_requests = work.global_atomic_l2_sectors = work.atomic_busiest_l2_slice_cycles = 3.2e7;
  cost = global_atomics_cost(work, rates);
  CHECK(cost.one_word_ms == Approx(64));
  CHECK(cost.name == "global atomics (one word)");
  // With lanes_on_one_word off: single-lane requests only, so the slice's bound.
  cost = global_atomics_cost(work, rates, {}, false);
  CHECK(cost.one_word_ms == 0);
  CHECK(cost.name == "global atomics (busiest L2 slice)");
  // 32 words of one line (4 sectors a request): not one word.
  work.global_atomic_l2_requests = 8e6;
  CHECK(global_atomics_cost(work, rates).one_word_ms == 0);
  // Spread over 32 slices or more (the busiest has 1/32 or less): not one word.
  work = atomic_work(1e6 / 32, 1e6);
  work.global_atomic_l2_requests = 1e6;
  CHECK(one_word_requests(work) == 0);
  CHECK(global_atomics_cost(work, rates).one_word_ms == 0);
  // Without the bench: the slice's bound, as before, and the note says what is missing.
  CHECK_FALSE(has_note(global_atomics_cost(work, rates), "no atomic_global_same_word_gops"));
  rates.global_atomics_same_word_gops = 0;
  work = atomic_work(1e6, 1e6);
  work.global_atomic_l2_requests = 1e6;
  cost = global_atomics_cost(work, rates);
  CHECK(cost.name == "global atomics (busiest L2 slice)");
  CHECK(has_note(cost, "no atomic_global_same_word_gops on this device"));
}

TEST_CASE("global atomics: a hot word among scattered atomics queues on its slice") {
  auto rates = atomic_rates();
  rates.global_atomics_same_word_gops = 0.5;
  // A search's claims and appends: 4.2e7 compare-and-swaps on words spread over the slices,
  // one sector each, and 1.4e7 single-lane appends to one counter. The busiest slice (the
  // counter's) applied 1.44e7 sectors: the appends and its share of the spread ones.
  KernelWork work = atomic_work(1.44e7, 5.6e7);
  work.global_atomic_l2_requests = 5.6e7;
  // Its cycles beyond the share of the others that 32 slices would give it (the fewest taken).
  const double appends = 1.44e7 - (5.6e7 - 1.44e7) / 31;
  CHECK(one_word_requests(work) == Approx(appends));
  const auto cost = global_atomics_cost(work, rates);
  CHECK(cost.one_word_ms == Approx(appends * 2e-6));  // 2 ns each at 0.5 G/s
  CHECK(cost.name == "global atomics (one word)");
  // The reference's time per request is over those requests, not all of its atomics.
  KernelRecord k;
  k.measured_ms = 24;
  CHECK(one_word_reference_of(k, work).ns_per_request == Approx(24e6 / appends));
  // Fewer requests than sectors (requests of several sectors: lines, not one word): none.
  work.global_atomic_l2_requests = 2e7;
  CHECK(one_word_requests(work) == 0);
}

TEST_CASE("global atomics: one word's data type bounded by the reference's time per atomic") {
  auto rates = atomic_rates();
  rates.global_atomics_same_word_gops = 1;        // integer: 1 ns per atomic
  rates.global_atomics_same_word_f32_gops = 0.25;  // float: 4 ns per atomic
  rates.sm_clock_mhz = 2000;
  KernelWork work = atomic_work(1e6, 1e6);  // 1e6 single-lane requests on one word
  work.global_atomic_l2_requests = 1e6;
  OneWordReference reference;
  // No reference time: the integer rate, 1e6 x 1 ns = 1 ms.
  auto cost = global_atomics_cost(work, rates, reference);
  CHECK(cost.one_word_ms == Approx(1));
  CHECK(cost.one_word_ns_per_request == Approx(1));
  // The reference took 5 ns per request in all: the float rate fits in it (4 ns), 4 ms.
  reference.ns_per_request = 5;
  cost = global_atomics_cost(work, rates, reference);
  CHECK(cost.one_word_ns_per_request == Approx(4));
  CHECK(cost.one_word_ms == Approx(4));
  CHECK(cost.name == "global atomics (one word)");
  CHECK(has_note(cost, "one word: 4 ns per atomic (integer bench 1 ns, float bench 4 ns"));
  // 2.5 ns per request: the float rate cannot have been it; at most 2.5 ns each.
  reference.ns_per_request = 2.5;
  CHECK(global_atomics_cost(work, rates, reference).one_word_ns_per_request == Approx(2.5));
  // 0.5 ns: faster than either bench; the integer rate (the fastest measured) is a floor.
  reference.ns_per_request = 0.5;
  CHECK(global_atomics_cost(work, rates, reference).one_word_ns_per_request == Approx(1));
  // The same cycles at the target's clock: 2.5 ns at 1000 MHz is 1.25 ns at 2000 MHz.
  reference = {2.5, 1000};
  CHECK(global_atomics_cost(work, rates, reference).one_word_ns_per_request == Approx(1.25));
  // Without the float bench: the integer rate, whatever the reference took.
  rates.global_atomics_same_word_f32_gops = 0;
  reference = {5, 0};
  CHECK(global_atomics_cost(work, rates, reference).one_word_ns_per_request == Approx(1));
}

TEST_CASE("global atomics: the reference's time per request is its measured time over its requests") {
  KernelRecord k;
  k.invocations = 2;
  KernelWork work;
  work.global_atomic_l2_requests = 4e5;
  work.waits.reference_clock_mhz = 1980;
  CHECK(one_word_reference_of(k, work).ns_per_request == 0);  // no measured time
  k.measured_ms = 0.8;  // 8e5 ns for 4e5 requests (both totals over the invocations)
  CHECK(one_word_reference_of(k, work).ns_per_request == Approx(2));
  CHECK(one_word_reference_of(k, work).clock_mhz == Approx(1980));
  k.reference_ns_per_atomic_request = 3;  // a re-cut's, kept from the profiled launch
  CHECK(one_word_reference_of(k, work).ns_per_request == Approx(3));
}

TEST_CASE("global atomics: the one-word-type term switches the reference bound off") {
  KernelRecord k;
  k.name = "reduce";
  k.invocations = 1;
  k.measured_ms = 0.01;  // 10 us for 2000 requests: 5 ns each
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
                        {"atomic_global_same_word_gops", 1},
                        {"atomic_global_same_word_f32_gops", 0.25}};
  // 2000 requests at 4 ns (the float bench fits in the reference's 5 ns) = 0.008 ms.
  CHECK(predict_pipes(k, d).compute.front().ms == Approx(0.008));
  CHECK(predict_pipes(k, d).compute.front().name == "global atomics (one word)");
  PipesTerms off;
  off.one_word_type = false;
  CHECK(predict_pipes(k, d, off).compute.front().ms == Approx(0.002));  // the integer bench's 1 ns
}

TEST_CASE("global atomics: the sectors and requests come from the L2 atomic counters") {
  KernelRecord k;
  k.name = "scatter";
  k.invocations = 1;
  KernelCounters c;
  c.extra = {{"smsp__sass_inst_executed_op_global_red.sum", 1e6},
             {"smsp__sass_inst_executed_op_global_atom.sum", 2e5},
             {"lts__t_sectors_srcunit_tex_op_red.sum", 3e7},
             {"lts__t_sectors_srcunit_tex_op_atom.sum", 2e6},
             {"lts__t_requests_srcunit_tex_op_red.sum", 2.9e7},
             {"lts__t_requests_srcunit_tex_op_atom.sum", 1e6},
             {"lts__t_sectors_srcunit_tex_op_write.sum", 5e6},
             {"lts__d_atomic_input_cycles_active.max", 4e5}};
  k.description = c;
  const KernelWork work = kernel_work_of(k);
  CHECK(work.global_atomic_instructions == Approx(1.2e6));
  CHECK(work.global_atomic_l2_sectors == Approx(3.2e7));  // stores are not atomics
  CHECK(work.global_atomic_l2_requests == Approx(3e7));
  CHECK(work.atomic_busiest_l2_slice_cycles == Approx(4e5));
  // 0.2 ms on the busiest slice, 3.2e7 x 32 bytes = 1.024 ms through the crossbar.
  const auto cost = global_atomics_cost(work, atomic_rates());
  CHECK(cost.crossbar_ms == Approx(1.024));
  CHECK(cost.ms == Approx(std::hypot(0.2, 1.024)));
}
