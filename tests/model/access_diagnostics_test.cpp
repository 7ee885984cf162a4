#include <catch2/catch.hpp>

#include <cmath>

#include "roofcast/model/access_diagnostics.hpp"

using namespace roofcast;

namespace {

// 100 SMs of 2048 threads, 32 blocks, 64 K registers; FMA pipe and issue at 1000 G warp
// instructions/s, shared-memory wavefronts at 1000 G/s (T_ldst 32000 G/s); DRAM 1000 GB/s each
// way; no launch floor.
DeviceProfile round_device() {
  DeviceProfile d;
  d.name = "round";
  d.sm_count = 100;
  d.throughput = {64000, 32000, 32000, 32000, 32000, 1000};
  d.extra_throughput = {{"pipe_fma_gwips", 1000},  {"pipe_lsu_gwips", 1000},   {"pipe_issue_gwips", 1000},
                        {"dram_read_gbps", 1000},  {"dram_write_gbps", 1000},  {"dram_copy_gbps", 1000}};
  d.occupancy = {2048, 32, 65536, 256, 233472, 1024, 128};
  return d;
}

// 2000 blocks of 256 threads (16,000 warps), 32 registers.
KernelRecord kernel(std::map<std::string, double> extra, double instructions, double dram_read_sectors = 0) {
  KernelCounters c;
  c.thesis.inst_executed = instructions;
  c.thesis.dram_read_transactions = dram_read_sectors;
  c.extra = std::move(extra);
  KernelRecord k;
  k.name = "k";
  LaunchShape shape;
  shape.grid = {2000, 1, 1};
  shape.block = {256, 1, 1};
  shape.invocations = 1;
  shape.registers_per_thread = 32;
  k.launch_shapes = {shape};
  k.description = c;
  return k;
}

const Diagnostic& named(const std::vector<Diagnostic>& all, const std::string& name) {
  for (const auto& d : all)
    if (d.name == name) return d;
  FAIL("no diagnostic " << name);
  return all.front();
}

}  // namespace

TEST_CASE("diagnostics: an old profile without the counters says 'not measured', never a number") {
  const auto all = diagnose(kernel({{"smsp__inst_executed_pipe_fma.sum", 1e6}}, 1e6), round_device());
  for (const char* name : {"uncoalesced global loads", "warp divergence", "shared-memory bank conflicts"}) {
    const auto& d = named(all, name);
    CHECK_FALSE(d.measured);
    CHECK_FALSE(d.applies);
    CHECK(d.finding.starts_with("not measured"));
  }
}

TEST_CASE("diagnostics: strided 4-byte loads touch 32 sectors where 4 would do") {
  // 1e6 warp loads of 4-byte words, each lane its own sector, all from DRAM: 32e6 sectors.
  // Memory bound: 32e6 x 32 B at 1000 GB/s = 1.024 ms. Coalesced: 4e6 sectors, 0.128 ms.
  const double loads = 1e6, sectors = 32 * loads;
  const auto k = kernel({{"smsp__inst_executed_pipe_fma.sum", 1e5},
                         {"smsp__inst_executed_op_global_ld.sum", loads},
                         {"smsp__sass_inst_executed_op_memory_32b.sum", loads},
                         {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", 0},
                         {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", sectors},
                         {"lts__t_sectors_srcunit_tex_op_read.sum", sectors}},
                        2e5, sectors);
  const auto& d = named(diagnose(k, round_device()), "uncoalesced global loads");
  REQUIRE(d.measured);
  CHECK(d.observed == Approx(32));
  CHECK(d.ideal == Approx(4));
  CHECK(d.applies);
  CHECK(d.predicted_ms == Approx(1.024));
  CHECK(d.fixed_ms == Approx(0.128));
}

TEST_CASE("diagnostics: loads that reuse their sectors from L2 gain only the L2 traffic") {
  // The same 32 sectors per load, but DRAM reads already only the 4e6 useful sectors: coalescing
  // cannot cut DRAM below that.
  const double loads = 1e6, sectors = 32 * loads;
  const auto k = kernel({{"smsp__inst_executed_pipe_fma.sum", 1e5},
                         {"smsp__inst_executed_op_global_ld.sum", loads},
                         {"smsp__sass_inst_executed_op_memory_32b.sum", loads},
                         {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", 0},
                         {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", sectors},
                         {"lts__t_sectors_srcunit_tex_op_read.sum", sectors}},
                        2e5, 4 * loads);
  const auto& d = named(diagnose(k, round_device()), "uncoalesced global loads");
  CHECK(d.applies);
  CHECK(d.fixed_ms == Approx(d.predicted_ms));
}

TEST_CASE("diagnostics: a divergent kernel runs twice the warp instructions of a uniform one") {
  // 16 of 32 threads active per instruction: 2e6 FMA-pipe instructions (2 us) would be 1e6 (1 us).
  const auto k = kernel({{"smsp__inst_executed_pipe_fma.sum", 2e6}, {"smsp__thread_inst_executed.sum", 16 * 2e6}},
                        2e6);
  const auto& d = named(diagnose(k, round_device()), "warp divergence");
  CHECK(d.observed == Approx(16));
  CHECK(d.applies);
  CHECK(d.predicted_ms == Approx(0.002));
  CHECK(d.fixed_ms == Approx(0.001));
  const auto uniform = kernel({{"smsp__inst_executed_pipe_fma.sum", 2e6}, {"smsp__thread_inst_executed.sum", 31 * 2e6}},
                              2e6);
  CHECK_FALSE(named(diagnose(uniform, round_device()), "warp divergence").applies);
}

TEST_CASE("diagnostics: 4-way bank conflicts cost 4 wavefronts per request") {
  // 1e6 shared loads, 4e6 wavefronts of which 3e6 are conflicts: 4 us at 1000 G/s, 1 us without.
  const auto k = kernel({{"smsp__inst_executed_pipe_fma.sum", 1e5},
                         {"smsp__inst_executed_op_shared_ld.sum", 1e6},
                         {"smsp__inst_executed_op_shared_st.sum", 0},
                         {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 4e6},
                         {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 0},
                         {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 3e6},
                         {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 0}},
                        1e5);
  const auto& d = named(diagnose(k, round_device()), "shared-memory bank conflicts");
  CHECK(d.observed == Approx(4));
  CHECK(d.ideal == Approx(1));
  CHECK(d.predicted_ms == Approx(0.004));
  CHECK(d.fixed_ms == Approx(0.001));
}

TEST_CASE("diagnostics: the occupancy limiter, and the time with it lifted") {
  auto k = kernel({{"smsp__inst_executed_pipe_fma.sum", 1e6}}, 1e6);
  k.launch_shapes[0].registers_per_thread = 128;  // 2 blocks of 256 per SM: 25 % of the warp slots
  const auto& d = named(diagnose(k, round_device()), "occupancy limiter");
  CHECK(d.observed == Approx(0.25));
  CHECK(d.applies);
  CHECK(d.finding.find("registers") != std::string::npos);
  CHECK(d.finding.find("32 registers") != std::string::npos);  // 64 K registers over 2048 threads
  CHECK(d.fixed_ms > 0);
}

TEST_CASE("diagnostics: a last wave of a few blocks is a tail") {
  // 8 blocks of 256 per SM, 800 per wave: 880 blocks are 1.1 waves.
  auto k = kernel({{"smsp__inst_executed_pipe_fma.sum", 1e6}}, 1e6);
  k.launch_shapes[0].grid = {880, 1, 1};
  const auto& d = named(diagnose(k, round_device()), "tail effect");
  CHECK(d.observed == Approx(1.1));
  CHECK(d.applies);
  CHECK(d.fixed_ms <= d.predicted_ms);
  k.launch_shapes[0].grid = {1600, 1, 1};
  CHECK_FALSE(named(diagnose(k, round_device()), "tail effect").applies);
  // 124.1 waves: the last wave's idle slots are under 1 % of the time.
  k.launch_shapes[0].grid = {800 * 124 + 80, 1, 1};
  CHECK_FALSE(named(diagnose(k, round_device()), "tail effect").applies);
}
