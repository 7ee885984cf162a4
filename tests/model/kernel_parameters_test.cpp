#include <catch2/catch.hpp>

#include "roofcast/model/kernel_parameters.hpp"

using roofcast::KernelType;
using roofcast::ThesisCounters;

namespace {
ThesisCounters fp32_kernel() {
  ThesisCounters c;
  c.inst_fp_32 = 800;
  c.flop_count_sp_fma = 200;
  c.inst_integer = 600;
  c.inst_compute_ld_st = 400;
  c.inst_executed = 100;  // 3200 thread instructions
  c.dram_read_transactions = 30;
  c.dram_write_transactions = 10;
  return c;
}
}  // namespace

TEST_CASE("K_type: fp64 if any fp64 instruction, else fp32 if any fp32, else int") {
  ThesisCounters c = fp32_kernel();
  CHECK(roofcast::kernel_type_of(c) == KernelType::fp32);
  c.inst_fp_64 = 1;
  CHECK(roofcast::kernel_type_of(c) == KernelType::fp64);
  c.inst_fp_64 = 0;
  c.inst_fp_32 = 0;
  CHECK(roofcast::kernel_type_of(c) == KernelType::int32);
}

TEST_CASE("kernel parameters from counters follow thesis eqs. 4.1-4.8") {
  const auto p = roofcast::kernel_parameters_from_counters(fp32_kernel());
  CHECK(p.W_comp == 1000);                 // 800 + 200
  CHECK(p.W_traf == 32 * 40);              // bytes
  CHECK(p.E_mix == Approx(1000.0 / 1600)); // (800 + 200) / (2 x 800)
  CHECK(p.D_ops == Approx(800.0 / 3200));
  CHECK(p.D_ldst == Approx(400.0 / 3200));
  CHECK(p.D_other() == Approx(1 - 0.25 - 0.125));
  CHECK(p.O_krn() == Approx(1000.0 / 1280));
}

TEST_CASE("integer kernels have E_mix 50 % and count integer instructions as work") {
  ThesisCounters c = fp32_kernel();
  c.inst_fp_32 = 0;
  c.flop_count_sp_fma = 0;
  const auto p = roofcast::kernel_parameters_from_counters(c);
  CHECK(p.type == KernelType::int32);
  CHECK(p.E_mix == 0.5);
  CHECK(p.W_comp == 600);
  CHECK(p.D_ops == Approx(600.0 / 3200));
}

TEST_CASE("impossible counters are named") {
  ThesisCounters c = fp32_kernel();
  CHECK_FALSE(roofcast::find_problem(c));
  SECTION("zero instructions") {
    c.inst_executed = 0;
    CHECK(roofcast::find_problem(c).value().starts_with("inst_executed"));
  }
  SECTION("negative count") {
    c.inst_integer = -1;
    CHECK(roofcast::find_problem(c).value().starts_with("inst_integer"));
  }
  SECTION("NaN count") {
    c.dram_read_transactions = std::nan("");
    CHECK(roofcast::find_problem(c).value().starts_with("dram_read_transactions"));
  }
  SECTION("more FMAs than fp32 instructions") {
    c.flop_count_sp_fma = 900;
    CHECK(roofcast::find_problem(c).value().starts_with("flop_count_sp_fma"));
  }
  SECTION("more thread instructions than 32 per warp instruction") {
    c.inst_executed = 30;
    CHECK(roofcast::find_problem(c).value().starts_with("inst_executed"));
  }
  SECTION("zero DRAM traffic is legal") {
    c.dram_read_transactions = 0;
    c.dram_write_transactions = 0;
    CHECK_FALSE(roofcast::find_problem(c));
    CHECK(std::isinf(roofcast::kernel_parameters_from_counters(c).O_krn()));
  }
}

TEST_CASE("impossible published parameters are named") {
  roofcast::KernelParameters p;
  p.W_comp = 100;
  p.W_traf = 100;
  p.E_mix = 0.6;
  p.D_ops = 0.2;
  p.D_ldst = 0.3;
  CHECK_FALSE(roofcast::find_problem(p));
  SECTION("percent instead of fraction") {
    p.E_mix = 60;
    CHECK(roofcast::find_problem(p).value().starts_with("E_mix"));
  }
  SECTION("shares over 100 %") {
    p.D_ldst = 0.9;
    CHECK(roofcast::find_problem(p).value().starts_with("D_ldst"));
  }
  SECTION("work without operations") {
    p.D_ops = 0;
    CHECK(roofcast::find_problem(p).value().starts_with("D_ops"));
  }
}
