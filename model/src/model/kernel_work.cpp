#include "roofcast/model/kernel_work.hpp"

#include <algorithm>
#include <array>
#include <utility>
#include <string_view>

namespace roofcast {

namespace {

constexpr double kSectorBytes = 32;
constexpr double kWarpSize = 32;

// Counter names as CUPTI/ncu spell them on sm_70 and later; where a chip names a pipe
// otherwise (GH100: fp16 work is pipe_fma_type_fp16), the alternatives follow.
constexpr std::array<std::pair<std::string_view, std::string_view>, 8> kPipeCounters{{
    {"fmaheavy", "smsp__inst_executed_pipe_fmaheavy.sum"},
    {"alu", "smsp__inst_executed_pipe_alu.sum"},
    {"fp64", "smsp__inst_executed_pipe_fp64.sum"},
    {"fp16", "smsp__inst_executed_pipe_fp16.sum"},
    {"fp16", "smsp__inst_executed_pipe_fma_type_fp16.sum"},
    {"xu", "smsp__inst_executed_pipe_xu.sum"},
    {"lsu", "smsp__inst_executed_pipe_lsu.sum"},
    {"fma", "smsp__inst_executed_pipe_fma.sum"},
}};
constexpr std::string_view kTensorOpsPrefix = "sm__ops_path_tensor_src_";
constexpr std::string_view kStallPrefix = "smsp__warps_issue_stalled_";

// The counter `name`, or null. A std::map<std::string, ...> finds only by std::string: the key is
// built in storage each thread keeps, not allocated for each of a kernel's ~100 lookups.
const double* find_counter(const std::map<std::string, double>& extra, std::string_view name) {
  thread_local std::string key;
  key.assign(name);
  const auto it = extra.find(key);
  return it == extra.end() ? nullptr : &it->second;
}

double value_or(const std::map<std::string, double>& extra, std::string_view name, double fallback = 0) {
  const double* value = find_counter(extra, name);
  return value ? *value : fallback;
}

bool has(const std::map<std::string, double>& extra, std::string_view name) {
  return find_counter(extra, name) != nullptr;
}

// "sm__ops_path_tensor_src_bf16_dst_fp32.sum" -> "bf16".
std::string tensor_source_type(std::string_view counter) {
  std::string_view rest = counter.substr(kTensorOpsPrefix.size());
  const auto end = rest.find_first_of("_.");
  return std::string(rest.substr(0, end));
}

void add_measured_counters(const KernelCounters& counters, KernelWork& work) {
  const auto& extra = counters.extra;
  for (const auto& [pipe, counter] : kPipeCounters)
    if (has(extra, counter)) work.pipe_instructions[std::string(pipe)] = value_or(extra, counter);
  // The FMA pipe is its two halves; the collector records the halves, not their sum.
  if (!work.pipe_instructions.contains("fma") && has(extra, "smsp__inst_executed_pipe_fmaheavy.sum") &&
      has(extra, "smsp__inst_executed_pipe_fmalite.sum"))
    work.pipe_instructions["fma"] =
        value_or(extra, "smsp__inst_executed_pipe_fmaheavy.sum") + value_or(extra, "smsp__inst_executed_pipe_fmalite.sum");
  for (const auto& [name, value] : extra)
    if (name.starts_with(kTensorOpsPrefix) && name.ends_with(".sum")) work.tensor_ops[tensor_source_type(name)] += value;
  // HMMA also counts the HFMA2.MMA moves the compiler uses for constants: not tensor work.
  const double mma_sync = value_or(extra, "smsp__inst_executed_pipe_tensor_op_hmma.sum") -
                          value_or(extra, "smsp__inst_executed_pipe_tensor_op_hmma_type_hfma2.sum") +
                          value_or(extra, "smsp__inst_executed_pipe_tensor_op_imma.sum") +
                          value_or(extra, "smsp__inst_executed_pipe_tensor_op_dmma.sum");
  work.tensor_via_wgmma = value_or(extra, "smsp__inst_executed_pipe_tensor_op_gmma.sum") > mma_sync;
  work.shared_wavefronts = value_or(extra, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") +
                           value_or(extra, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum");
  // Hardware counters where the chip has them, else the SASS-patched ones (GH100). (Counter
  // names are spelled whole: a name built per kernel is a string allocated per kernel.)
  struct AtomicCounters {
    const char* global_atom;
    const char* global_red;
    const char* shared_atom;
  };
  for (const auto& names : {AtomicCounters{"smsp__inst_executed_op_global_atom.sum", "smsp__inst_executed_op_global_red.sum",
                                           "smsp__inst_executed_op_shared_atom.sum"},
                            AtomicCounters{"smsp__sass_inst_executed_op_global_atom.sum",
                                           "smsp__sass_inst_executed_op_global_red.sum",
                                           "smsp__sass_inst_executed_op_shared_atom.sum"}}) {
    if (work.global_atomic_instructions == 0)
      work.global_atomic_instructions = value_or(extra, names.global_atom) + value_or(extra, names.global_red);
    if (work.shared_atomic_instructions == 0) work.shared_atomic_instructions = value_or(extra, names.shared_atom);
  }
  // Only the SMs' requests to L2 (what the L2 characterizer measures), not the L2's own
  // fills and evictions that lts__t_bytes also counts.
  const auto l2_sector_bytes = [&](std::string_view counter) { return kSectorBytes * value_or(extra, counter); };
  const double l2_read = l2_sector_bytes("lts__t_sectors_srcunit_tex_op_read.sum");
  const double l2_write = l2_sector_bytes("lts__t_sectors_srcunit_tex_op_write.sum");
  const double l2_atom = l2_sector_bytes("lts__t_sectors_srcunit_tex_op_atom.sum");
  const double l2_red = l2_sector_bytes("lts__t_sectors_srcunit_tex_op_red.sum");
  work.l2_bytes = l2_read + l2_write + l2_atom + l2_red;
  work.global_atomic_l2_sectors = (l2_atom + l2_red) / kSectorBytes;
  work.global_atomic_l2_requests =
      value_or(extra, "lts__t_requests_srcunit_tex_op_atom.sum") + value_or(extra, "lts__t_requests_srcunit_tex_op_red.sum");
  work.l2_to_sm_bytes = l2_read + l2_atom;
  work.l2_from_sm_bytes = l2_write + l2_atom + l2_red;
  work.l2_store_bytes = l2_write;
  work.l1_bytes = value_or(extra, "l1tex__t_bytes.sum");
  work.global_load_instructions = value_or(extra, "smsp__inst_executed_op_global_ld.sum");
  work.global_store_instructions = value_or(extra, "smsp__inst_executed_op_global_st.sum");
  const double global_instructions = work.global_load_instructions + work.global_store_instructions;
  if (global_instructions > 0) work.bytes_per_global_instruction = work.l1_bytes / global_instructions;
  work.achieved_occupancy = value_or(extra, "sm__warps_active.avg.pct_of_peak_sustained_active") / 100;
  // Per-launch maximum over the L2 slices, summed over the launches.
  work.atomic_busiest_l2_slice_cycles = value_or(extra, "lts__d_atomic_input_cycles_active.max");
  work.bulk_copy_bytes = value_or(extra, "l1tex__m_xbar2l1tex_read_bytes_pipe_tma.sum") +
                         value_or(extra, "l1tex__m_l1tex2xbar_write_bytes_pipe_tma.sum");
}

// hit / (hit + miss), or -1 when neither was recorded.
double hit_share(const std::map<std::string, double>& extra, std::string_view hit_counter,
                 std::string_view miss_counter) {
  const double hit = value_or(extra, hit_counter), miss = value_or(extra, miss_counter);
  return hit + miss > 0 ? hit / (hit + miss) : -1;
}

// Lines one global load touches, from its sectors and the kernel's mean access width: a full
// warp's coalesced access needs 32 x width bytes, in sectors of 32 bytes and lines of four; the
// sectors beyond that are each on a line of their own (lanes scattered). 0 without the counters.
double lines_per_global_load(const std::map<std::string, double>& extra, double sectors) {
  constexpr std::array<std::pair<const char*, double>, 5> widths{{{"smsp__sass_inst_executed_op_memory_8b.sum", 1},
                                                                  {"smsp__sass_inst_executed_op_memory_16b.sum", 2},
                                                                  {"smsp__sass_inst_executed_op_memory_32b.sum", 4},
                                                                  {"smsp__sass_inst_executed_op_memory_64b.sum", 8},
                                                                  {"smsp__sass_inst_executed_op_memory_128b.sum", 16}}};
  double instructions = 0, bytes = 0;
  for (const auto& [counter, width] : widths) {
    instructions += value_or(extra, counter);
    bytes += width * value_or(extra, counter);
  }
  if (instructions <= 0 || sectors <= 0) return 0;
  const double coalesced_sectors = std::max(1.0, 32 * bytes / instructions / 32);
  return std::min(sectors, std::max(1.0, std::min(coalesced_sectors, sectors) / 4) + std::max(0.0, sectors - coalesced_sectors));
}

void add_wait_counters(const KernelCounters& counters, KernelWork& work) {
  const auto& extra = counters.extra;
  WarpWaits& waits = work.waits;
  waits.warps_launched = value_or(extra, "sm__warps_launched.sum");
  for (const auto& [name, value] : extra) {
    if (!name.starts_with(kStallPrefix) || !name.ends_with(".sum")) continue;
    const std::string reason = name.substr(kStallPrefix.size(), name.size() - kStallPrefix.size() - 4);
    if (reason.find('.') == std::string::npos) waits.stall_cycles[reason] = value;
  }
  waits.reference_clock_mhz = value_or(extra, "sm__cycles_elapsed.avg.per_second") * 1e-6;
  waits.memory_load_instructions = value_or(extra, "smsp__inst_executed_op_global_ld.sum") +
                                   value_or(extra, "smsp__sass_inst_executed_op_local_ld.sum") +
                                   value_or(extra, "smsp__sass_inst_executed_op_global_atom.sum");
  waits.shared_load_instructions = value_or(extra, "smsp__inst_executed_op_shared_ld.sum", -1);
  waits.l1_hit_share = hit_share(extra, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
                                 "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum");
  const double global_loads = value_or(extra, "smsp__inst_executed_op_global_ld.sum");
  if (global_loads > 0)
    waits.sectors_per_global_load = (value_or(extra, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum") +
                                     value_or(extra, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum")) /
                                    global_loads;
  waits.l2_hit_share =
      hit_share(extra, "lts__t_sectors_srcunit_tex_lookup_hit.sum", "lts__t_sectors_srcunit_tex_lookup_miss.sum");
  waits.lines_per_global_load = lines_per_global_load(extra, waits.sectors_per_global_load);
  // The reads' own L2 hit share: stores allocate in L2 and count as lookup hits, which a load
  // never waits for. (The profile's replay starts with a flushed L2: its misses are a cold launch's.)
  const double l2_read_sectors = value_or(extra, "lts__t_sectors_srcunit_tex_op_read.sum");
  if (l2_read_sectors > 0)
    waits.l2_read_hit_share = std::clamp(1 - counters.thesis.dram_read_transactions / l2_read_sectors, 0.0, 1.0);
}

// Without pipe counters: each thesis instruction class goes to the pipe that executes it
// on sm_70 and later, at the warp-level share of the thread-level counts.
void derive_pipes_from_thesis_counters(const ThesisCounters& c, KernelWork& work) {
  const double thread_instructions = c.inst_fp_32 + c.inst_fp_64 + c.inst_integer + c.inst_compute_ld_st;
  const double warps_per_thread_instruction = thread_instructions > 0 ? c.inst_executed / thread_instructions : 0;
  work.pipe_instructions["fma"] = c.inst_fp_32 * warps_per_thread_instruction;
  work.pipe_instructions["fp64"] = c.inst_fp_64 * warps_per_thread_instruction;
  work.pipe_instructions["alu"] = c.inst_integer * warps_per_thread_instruction;
  work.pipe_instructions["lsu"] = c.inst_compute_ld_st * warps_per_thread_instruction;
  work.notes.push_back("no pipe counters: pipes derived from the thesis' instruction classes");
}

// From published thesis parameters: operations of the kernel's type, load/stores and the rest
// (costed as integer ALU work), as full warps.
void derive_work_from_parameters(const KernelParameters& p, KernelWork& work) {
  const double type_instructions = p.E_mix > 0 ? p.W_comp / (2 * p.E_mix) : 0;
  const double thread_instructions = p.D_ops > 0 ? type_instructions / p.D_ops : 0;
  const double warps = thread_instructions / kWarpSize;
  const char* type_pipe = p.type == KernelType::fp64 ? "fp64" : p.type == KernelType::fp32 ? "fma" : "alu";
  work.pipe_instructions[type_pipe] += warps * p.D_ops;
  work.pipe_instructions["lsu"] += warps * p.D_ldst;
  work.pipe_instructions["alu"] += warps * p.D_other();
  work.warp_instructions = warps;
  work.dram_read_bytes = p.W_traf / 2;  // the split is not published: only the sum is used
  work.dram_write_bytes = p.W_traf / 2;
  work.dram_direction_known = false;
  work.notes.push_back("published parameters: pipes derived from K_type, D_ops and D_ldst; DRAM direction unknown");
}

}  // namespace

KernelWork kernel_work_of(const KernelRecord& kernel) {
  KernelWork work;
  if (const auto* counters = std::get_if<KernelCounters>(&kernel.description)) {
    const ThesisCounters& c = counters->thesis;
    work.warp_instructions = c.inst_executed;
    work.dram_read_bytes = c.dram_read_transactions * kSectorBytes;
    work.dram_write_bytes = c.dram_write_transactions * kSectorBytes;
    add_measured_counters(*counters, work);
    add_wait_counters(*counters, work);
    work.measured_pipes = !work.pipe_instructions.empty();
    if (!work.measured_pipes) derive_pipes_from_thesis_counters(c, work);
  } else {
    derive_work_from_parameters(std::get<KernelParameters>(kernel.description), work);
  }
  return work;
}

}  // namespace roofcast
