#include "roofcast/profiler/metric_set.hpp"

#include <array>

#include "roofcast/model/counter_names.hpp"

namespace roofcast::profiler {

namespace {

// The thesis' nine, from the model's counter-name table (their names are written there only).
const std::vector<MetricInfo>& thesis_table() {
  static const std::vector<MetricInfo> table = [] {
    std::vector<MetricInfo> rows;
    for (const auto& counter : thesis_counter_names()) rows.push_back({counter.cupti, counter.nvprof, counter.meaning});
    return rows;
  }();
  return table;
}

// The extension set (issue 4; names checked for GH100 in cupti-notes.md sections 2.6 and 3.3).
constexpr std::array<MetricInfo, 23> kExtension{{
    // Half precision and tensor cores. GH100 has no separate non-tensor bf16 counter: packed
    // bf16 arithmetic counts under fp16; tensor work of any type counts in the tensor pipe.
    {"smsp__sass_thread_inst_executed_op_fp16_pred_on.sum", "inst_fp_16", "FP16/BF16 thread instructions"},
    {"smsp__sass_thread_inst_executed_op_hfma_pred_on.sum", "flop_count_hp_fma", "FP16 FMA thread instructions"},
    {"smsp__inst_executed_pipe_tensor.sum", "", "tensor-pipe warp instructions (all types)"},
    {"smsp__inst_executed_pipe_tensor_op_hmma.sum", "", "HMMA (mma.sync) warp instructions"},
    {"smsp__inst_executed_pipe_tensor_op_gmma.sum", "", "Hopper wgmma warp instructions"},
    // Shared memory.
    {"smsp__inst_executed_op_shared_ld.sum", "inst_executed_shared_loads", "shared-memory load warp instructions"},
    {"smsp__inst_executed_op_shared_st.sum", "inst_executed_shared_stores", "shared-memory store warp instructions"},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared_load_transactions", "shared-memory load wavefronts"},
    {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared_store_transactions", "shared-memory store wavefronts"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "", "shared-memory load bank conflicts"},
    {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "", "shared-memory store bank conflicts"},
    // Global memory instructions and cache traffic.
    {"smsp__inst_executed_op_global_ld.sum", "inst_executed_global_loads", "global load warp instructions"},
    {"smsp__inst_executed_op_global_st.sum", "inst_executed_global_stores", "global store warp instructions"},
    {"l1tex__t_bytes.sum", "", "L1/TEX bytes requested"},
    {"lts__t_bytes.sum", "", "L2 bytes accessed"},
    // Access width classes (warp instructions by access size).
    {"smsp__sass_inst_executed_op_memory_8b.sum", "", "8-bit memory warp instructions"},
    {"smsp__sass_inst_executed_op_memory_16b.sum", "", "16-bit memory warp instructions"},
    {"smsp__sass_inst_executed_op_memory_32b.sum", "", "32-bit memory warp instructions"},
    {"smsp__sass_inst_executed_op_memory_64b.sum", "", "64-bit memory warp instructions"},
    {"smsp__sass_inst_executed_op_memory_128b.sum", "", "128-bit memory warp instructions"},
    // Occupancy and warp efficiency (efficiency = thread_inst_executed / (32 x inst_executed)).
    {"sm__warps_active.avg.pct_of_peak_sustained_active", "achieved_occupancy", "achieved occupancy, percent", false},
    {"smsp__thread_inst_executed.sum", "", "thread instructions executed"},
    {"smsp__thread_inst_executed_pred_on.sum", "", "thread instructions executed, predicate on"},
}};

// The pipes group (issue 7): what a multi-pipeline model needs. Names found with
// `roofcast-cupti search-metrics REGEX --chip GH100` (docs/profiler.md, "Pipes group").
constexpr std::array<MetricInfo, 29> kPipes{{
    // Warp instructions issued to each SM sub-partition pipe. The logical fma pipe
    // (smsp__inst_executed_pipe_fma) is left out: it is fmaheavy + fmalite, and with it the
    // full set takes 14 passes on GH100 instead of 13. FP32 FFMA/FADD/FMUL issue to either
    // half, IMAD and FP16 only to fmaheavy; fma_type_fp16 is the fp16/bf16 share of the fma
    // pipe (GH100 has no separate fp16 pipe); xu = MUFU (transcendentals, conversions);
    // cbu = branches and barriers; adu = address divergence unit; uniform = the uniform
    // datapath; tex = texture and surface; tma = the Hopper tensor memory accelerator.
    {"smsp__inst_executed_pipe_alu.sum", "", "ALU-pipe warp instructions (integer, logic, FP32 compare/min/max)"},
    {"smsp__inst_executed_pipe_fmaheavy.sum", "", "FMA-heavy-pipe warp instructions (FP32, IMAD, FP16)"},
    {"smsp__inst_executed_pipe_fmalite.sum", "", "FMA-lite-pipe warp instructions (FP32 only)"},
    {"smsp__inst_executed_pipe_fma_type_fp16.sum", "", "FMA-pipe warp instructions on fp16/bf16 (HFMA2, HADD2, HMUL2)"},
    {"smsp__inst_executed_pipe_fp64.sum", "", "FP64-pipe warp instructions"},
    {"smsp__inst_executed_pipe_xu.sum", "", "XU-pipe warp instructions (MUFU transcendentals, conversions)"},
    {"smsp__inst_executed_pipe_lsu.sum", "", "LSU-pipe warp instructions (global, local, shared, atomics)"},
    {"smsp__inst_executed_pipe_cbu.sum", "", "CBU-pipe warp instructions (branches, barriers)"},
    {"smsp__inst_executed_pipe_adu.sum", "", "ADU-pipe warp instructions (address divergence, indirect branches)"},
    {"smsp__inst_executed_pipe_uniform.sum", "", "uniform-datapath warp instructions"},
    {"smsp__inst_executed_pipe_tex.sum", "", "TEX-pipe warp instructions (texture, surface)"},
    {"smsp__inst_executed_pipe_tma.sum", "", "TMA-pipe warp instructions (Hopper tensor memory accelerator)"},
    // Tensor-pipe warp instructions by kind (hmma and gmma are in the extension group above).
    {"smsp__inst_executed_pipe_tensor_op_dmma.sum", "", "DMMA (FP64 tensor) warp instructions"},
    {"smsp__inst_executed_pipe_tensor_op_imma.sum", "", "IMMA (integer tensor) warp instructions"},
    {"smsp__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum", "", "HFMA2.MMA warp instructions (FP16 FMA on the tensor pipe)"},
    // Tensor math operations by source type, summed over destination types and over mma.sync
    // and wgmma (one FMA = 2 ops; these are the tensor FLOPs of each type).
    {"sm__ops_path_tensor_src_fp16.sum", "", "tensor ops, FP16 sources (FP16 or FP32 accumulate)"},
    {"sm__ops_path_tensor_src_bf16_dst_fp32.sum", "", "tensor ops, BF16 sources"},
    {"sm__ops_path_tensor_src_tf32_dst_fp32.sum", "", "tensor ops, TF32 sources"},
    {"sm__ops_path_tensor_src_fp64.sum", "", "tensor ops, FP64 sources (DMMA)"},
    {"sm__ops_path_tensor_src_fp8.sum", "", "tensor ops, FP8 sources (E4M3/E5M2)"},
    {"sm__ops_path_tensor_src_int8.sum", "", "tensor ops, INT8 sources"},
    // Atomics and reductions (SASS-patched: they share the software pass; GH100's hardware
    // counters have no ATOMG class).
    {"smsp__sass_inst_executed_op_global_atom.sum", "inst_executed_global_atomics", "global atomic warp instructions (ATOM, ATOMG)"},
    {"smsp__sass_inst_executed_op_global_red.sum", "inst_executed_global_reductions", "global reduction warp instructions (REDG)"},
    {"smsp__sass_inst_executed_op_shared_atom.sum", "inst_executed_shared_atomics", "shared-memory atomic warp instructions (ATOMS)"},
    // L2 sectors requested by the SMs (through L1/TEX), by operation.
    {"lts__t_sectors_srcunit_tex_op_read.sum", "", "32-byte L2 sectors read by the SMs"},
    {"lts__t_sectors_srcunit_tex_op_write.sum", "", "32-byte L2 sectors written by the SMs"},
    {"lts__t_sectors_srcunit_tex_op_atom.sum", "", "32-byte L2 sectors of SM atomics"},
    {"lts__t_sectors_srcunit_tex_op_red.sum", "", "32-byte L2 sectors of SM reductions"},
    // The SM clock during the kernel (cycles elapsed / time): the clock the counts ran at.
    {"sm__cycles_elapsed.avg.per_second", "", "SM clock during the kernel, cycles per second", false},
}};

// The latency group (issue 13): what a latency term needs (warps launched, where warps wait,
// cache hit counts), atomics under contention and bulk copies. Names found with
// `roofcast-cupti search-metrics REGEX --chip GH100` (docs/profiler.md, "Latency group").
constexpr std::array<MetricInfo, 41> kLatency{{
    // Warps and the cycles they spend: per-warp work = smsp__inst_executed / warps launched;
    // resident warps per scheduler = smsp__warps_active / smsp__cycles_active.
    {"sm__warps_launched.sum", "", "warps launched"},
    {"smsp__cycles_active.sum", "", "cycles with at least one warp resident, summed over SM sub-partitions"},
    {"smsp__warps_active.sum", "", "resident warps summed over active cycles (warp-cycles)"},
    // Warp-cycles stalled for each reason GH100 has, summed over SM sub-partitions. `selected`
    // is the issuing warp's own cycle; their sum over all reasons is smsp__warps_active.sum.
    {"smsp__warps_issue_stalled_barrier.sum", "", "warp-cycles waiting at a CTA barrier"},
    {"smsp__warps_issue_stalled_branch_resolving.sum", "", "warp-cycles waiting for a branch target"},
    {"smsp__warps_issue_stalled_dispatch_stall.sum", "", "warp-cycles waiting on a dispatch stall"},
    {"smsp__warps_issue_stalled_drain.sum", "", "warp-cycles after EXIT waiting for memory to drain"},
    {"smsp__warps_issue_stalled_gmma.sum", "", "warp-cycles waiting on wgmma (WARPGROUP.ARRIVES)"},
    {"smsp__warps_issue_stalled_imc_miss.sum", "", "warp-cycles waiting for an immediate-constant cache miss"},
    {"smsp__warps_issue_stalled_lg_throttle.sum", "", "warp-cycles waiting for the LSU (local/global) queue"},
    {"smsp__warps_issue_stalled_long_scoreboard.sum", "", "warp-cycles waiting for an L1TEX result (global, local, texture)"},
    {"smsp__warps_issue_stalled_math_pipe_throttle.sum", "", "warp-cycles waiting for a busy math pipe"},
    {"smsp__warps_issue_stalled_membar.sum", "", "warp-cycles waiting on a memory barrier"},
    {"smsp__warps_issue_stalled_mio_throttle.sum", "", "warp-cycles waiting for the MIO queue (shared memory, special math)"},
    {"smsp__warps_issue_stalled_misc.sum", "", "warp-cycles stalled for a miscellaneous reason"},
    {"smsp__warps_issue_stalled_no_instruction.sum", "", "warp-cycles waiting for an instruction (fetch, i-cache miss)"},
    {"smsp__warps_issue_stalled_not_selected.sum", "", "warp-cycles ready but another warp issued"},
    {"smsp__warps_issue_stalled_selected.sum", "", "warp-cycles issuing (the selected warp)"},
    {"smsp__warps_issue_stalled_short_scoreboard.sum", "", "warp-cycles waiting for an MIO result (shared memory, MUFU)"},
    {"smsp__warps_issue_stalled_sleeping.sum", "", "warp-cycles in nanosleep"},
    {"smsp__warps_issue_stalled_tex_throttle.sum", "", "warp-cycles waiting for the TEX queue"},
    {"smsp__warps_issue_stalled_wait.sum", "", "warp-cycles waiting on a fixed-latency dependency"},
    // Hits and misses: global loads in L1, SM requests in L2 (hit rate = hit / (hit + miss)).
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "", "global load sectors that hit in L1"},
    {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", "", "global load sectors that missed in L1"},
    {"lts__t_sectors_srcunit_tex_lookup_hit.sum", "", "L2 sectors requested by the SMs that hit"},
    {"lts__t_sectors_srcunit_tex_lookup_miss.sum", "", "L2 sectors requested by the SMs that missed"},
    // Lines the SMs' stores write (an L2 request is one line's sectors): a store instruction whose
    // lanes are on lines of their own sends one per lane, which the SM's path to L2 passes at a
    // per-SM rate (bench key scattered_store_sm_gops).
    {"lts__t_requests_srcunit_tex_op_write.sum", "", "L2 write requests of the SMs (one per line stored to)"},
    // Local memory (register spills, stack arrays), SASS-patched: they share the software pass.
    {"smsp__sass_inst_executed_op_local_ld.sum", "inst_executed_local_loads", "local-memory load warp instructions"},
    {"smsp__sass_inst_executed_op_local_st.sum", "inst_executed_local_stores", "local-memory store warp instructions"},
    // Atomics: requests at L1 and at the L2, the extra L1 cycles of lanes that hit the same
    // address (they are sent one by one), and contention: the busiest L2 slice's atomic-unit
    // cycles against the L2 cycles elapsed (measured on an H100: same-address reductions keep
    // one slice's atomic unit busy ~80 % of the kernel; docs/profiler.md, "Latency group").
    // .max and .avg are per launch (over slices), summed over launches like the counts.
    {"l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "", "L1 requests of global atomics"},
    {"l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", "", "L1 requests of global reductions"},
    {"l1tex__t_set_conflicts_pipe_lsu_mem_global_op_atom.sum", "", "extra L1 cycles of global atomics (same-address lanes serialized)"},
    {"l1tex__t_set_conflicts_pipe_lsu_mem_global_op_red.sum", "", "extra L1 cycles of global reductions (same-address lanes serialized)"},
    {"lts__t_requests_srcunit_tex_op_atom.sum", "", "L2 requests of SM atomics"},
    {"lts__t_requests_srcunit_tex_op_red.sum", "", "L2 requests of SM reductions"},
    {"lts__d_atomic_input_cycles_active.max", "", "busiest L2 slice's atomic-unit input cycles (per launch, summed)"},
    {"lts__cycles_elapsed.avg", "", "L2 cycles elapsed (per launch, summed)"},
    // Bulk copies (TMA, cp.async.bulk): instructions (SASS-patched) and the bytes the TMA unit
    // moved between L2 and shared memory.
    {"smsp__sass_inst_executed_op_tma_ld.sum", "", "bulk-copy load warp instructions (UTMALDG, UBLKCP.S.G)"},
    {"smsp__sass_inst_executed_op_tma_st.sum", "", "bulk-copy store warp instructions (UTMASTG, UBLKCP.G.S)"},
    {"l1tex__m_xbar2l1tex_read_bytes_pipe_tma.sum", "", "bytes the TMA unit read from L2 into shared memory"},
    {"l1tex__m_l1tex2xbar_write_bytes_pipe_tma.sum", "", "bytes the TMA unit wrote from shared memory to L2"},
}};

}  // namespace

std::span<const MetricInfo> thesis_metrics() { return thesis_table(); }
std::span<const MetricInfo> extension_metrics() { return kExtension; }
std::span<const MetricInfo> pipes_metrics() { return kPipes; }
std::span<const MetricInfo> latency_metrics() { return kLatency; }

std::vector<std::string> metric_names(MetricSetName set) {
  std::vector<std::string> names;
  for (const auto& metric : thesis_table()) names.emplace_back(metric.name);
  if (set == MetricSetName::full) {
    for (const auto& metric : kExtension) names.emplace_back(metric.name);
    for (const auto& metric : kPipes) names.emplace_back(metric.name);
    for (const auto& metric : kLatency) names.emplace_back(metric.name);
  }
  return names;
}

bool parse_metric_set_name(std::string_view text, MetricSetName& set) {
  if (text == "thesis") set = MetricSetName::thesis;
  else if (text == "full") set = MetricSetName::full;
  else return false;
  return true;
}

const MetricInfo* find_metric(std::string_view name) {
  for (const auto& metric : thesis_table())
    if (metric.name == name) return &metric;
  for (const auto& metric : kExtension)
    if (metric.name == name) return &metric;
  for (const auto& metric : kPipes)
    if (metric.name == name) return &metric;
  for (const auto& metric : kLatency)
    if (metric.name == name) return &metric;
  return nullptr;
}

}  // namespace roofcast::profiler
