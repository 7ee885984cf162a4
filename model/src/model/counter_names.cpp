#include "roofcast/model/counter_names.hpp"

#include <array>

namespace roofcast {

namespace {
// cupti-notes.md section 3.1: the CUDA 13 names of the thesis' nvprof metrics on sm_70 and later.
constexpr std::array<ThesisCounterName, 9> kThesisCounters{{
    {"flop_count_sp_fma", "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum", "FP32 FMA thread instructions"},
    {"flop_count_dp_fma", "smsp__sass_thread_inst_executed_op_dfma_pred_on.sum", "FP64 FMA thread instructions"},
    {"inst_compute_ld_st", "smsp__sass_thread_inst_executed_op_memory_pred_on.sum", "load/store thread instructions"},
    {"inst_executed", "smsp__inst_executed.sum", "warp instructions executed"},
    {"inst_fp_32", "smsp__sass_thread_inst_executed_op_fp32_pred_on.sum", "FP32 thread instructions"},
    {"inst_fp_64", "smsp__sass_thread_inst_executed_op_fp64_pred_on.sum", "FP64 thread instructions"},
    {"inst_integer", "smsp__sass_thread_inst_executed_op_integer_pred_on.sum", "integer thread instructions"},
    {"dram_read_transactions", "dram__sectors_read.sum", "32-byte DRAM read sectors"},
    {"dram_write_transactions", "dram__sectors_write.sum", "32-byte DRAM write sectors"},
}};
}  // namespace

std::span<const ThesisCounterName> thesis_counter_names() { return kThesisCounters; }

bool is_total_counter(std::string_view name) {
  return name.ends_with(".sum") || name == "lts__d_atomic_input_cycles_active.max";
}

std::optional<std::string_view> canonical_thesis_counter(std::string_view name) {
  for (const auto& counter : kThesisCounters) {
    if (name == counter.nvprof || name == counter.cupti) return counter.nvprof;
  }
  return std::nullopt;
}

}  // namespace roofcast
