#include <catch2/catch.hpp>

#include <algorithm>
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

}  // namespace

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
