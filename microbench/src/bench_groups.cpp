#include "roofcast/microbench/bench_groups.hpp"

namespace roofcast::microbench {

const std::vector<BenchGroup>& bench_groups() {
  static const std::vector<BenchGroup> groups = {
      {"arithmetic", {"fp32_gflops", "fp64_gflops", "half2_gflops", "int32_mad_giops", "int32_add_giops"}},
      {"shared memory", {"shared_ldst_gops", "shared_ldst64_gops", "shared_ldst128_gops"}},
      {"pipe issue rates",
       {"pipe_fma_gwips", "pipe_alu_gwips", "pipe_fmaheavy_gwips", "pipe_fp64_gwips", "pipe_fp16_gwips",
        "pipe_xu_gwips", "pipe_lsu_gwips", "pipe_issue_gwips"}},
      {"atomics",
       {"atomic_global_gops", "atomic_global_same_address_gops", "atomic_global_scattered_gops",
        "atomic_global_same_word_gops", "atomic_global_same_word_returning_gops",
        "atomic_global_same_word_f32_gops", "atomic_shared_gops"}},
      {"tensor cores",
       {"tensor_fp16_gflops", "tensor_bf16_gflops", "tensor_tf32_gflops", "tensor_fp64_gflops", "tensor_int8_giops"}},
      {"tensor cores (wgmma)",
       {"tensor_wgmma_fp16_gflops", "tensor_wgmma_bf16_gflops", "tensor_wgmma_tf32_gflops", "tensor_wgmma_int8_giops"}},
      {"L1 and L2", {"l1_gbps", "l2_gbps"}},
      {"DRAM",
       {"dram_read_gbps", "dram_write_gbps", "dram_copy_gbps", "dram_elementwise_add_gbps", "memcpy_d2d_gbps"}},
      {"DRAM latency", {"dram_latency_ns", "dram_probe_gbps"}},
      {"gathers", {"dram_gather_gbps", "l2_gather_gbps"}},
      {"scattered stores", {"scattered_store_gops", "scattered_store_sm_gops"}},
      {"arithmetic latency",
       {"latency_ffma_ns", "latency_dfma_ns", "latency_imad_ns", "latency_hfma2_ns", "latency_mufu_ns",
        "warp_issue_interval_ns"}},
      {"memory latency",
       {"latency_shared_load_ns", "latency_l1_hit_ns", "latency_l2_hit_ns", "latency_dram_ns", "latency_dram_warp_ns",
        "latency_atomic_global_ns", "latency_atomic_shared_ns"}},
      {"launch overhead", {"launch_overhead_us", "tiny_kernel_us", "kernel_floor_us", "block_dispatch_gblocks"}},
      {"host-device copies", {}},
      {"roofline sweep", {}},
  };
  return groups;
}

}  // namespace roofcast::microbench
