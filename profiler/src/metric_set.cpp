#include "roofcast/profiler/metric_set.hpp"

#include <array>

namespace roofcast::profiler {

namespace {

// The thesis' nine, in model.md's order (cupti-notes.md section 3.1; counter_names.cpp).
constexpr std::array<MetricInfo, 9> kThesis{{
    {"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "flop_count_sp_fma", "FP32 FMA thread instructions"},
    {"smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", "flop_count_dp_fma", "FP64 FMA thread instructions"},
    {"smsp__sass_thread_inst_executed_op_memory_pred_on.sum", "inst_compute_ld_st", "load/store thread instructions"},
    {"smsp__inst_executed.sum", "inst_executed", "warp instructions executed"},
    {"smsp__sass_thread_inst_executed_op_fp32_pred_on.sum", "inst_fp_32", "FP32 thread instructions"},
    {"smsp__sass_thread_inst_executed_op_fp64_pred_on.sum", "inst_fp_64", "FP64 thread instructions"},
    {"smsp__sass_thread_inst_executed_op_integer_pred_on.sum", "inst_integer", "integer thread instructions"},
    {"dram__sectors_read.sum", "dram_read_transactions", "32-byte DRAM read sectors"},
    {"dram__sectors_write.sum", "dram_write_transactions", "32-byte DRAM write sectors"},
}};

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

}  // namespace

std::span<const MetricInfo> thesis_metrics() { return kThesis; }
std::span<const MetricInfo> extension_metrics() { return kExtension; }

std::vector<std::string> metric_names(MetricSetName set) {
  std::vector<std::string> names;
  for (const auto& metric : kThesis) names.emplace_back(metric.name);
  if (set == MetricSetName::full)
    for (const auto& metric : kExtension) names.emplace_back(metric.name);
  return names;
}

bool parse_metric_set_name(std::string_view text, MetricSetName& set) {
  if (text == "thesis") set = MetricSetName::thesis;
  else if (text == "full") set = MetricSetName::full;
  else return false;
  return true;
}

const MetricInfo* find_metric(std::string_view name) {
  for (const auto& metric : kThesis)
    if (metric.name == name) return &metric;
  for (const auto& metric : kExtension)
    if (metric.name == name) return &metric;
  return nullptr;
}

}  // namespace roofcast::profiler
