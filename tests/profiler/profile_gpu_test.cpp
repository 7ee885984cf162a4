// `roofcast profile` end to end on a GPU, on profiler/test-app (kernels with known
// instruction counts). Skips (exit 77) where there is no GPU.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofcast/formats/files.hpp"
#include "roofcast/formats/measured_json.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "profile_files.hpp"
#include "run_command.hpp"

using roofcast::testing::run_roofcast;

namespace {

const std::string kApp = std::string(ROOFCAST_BINARY_DIR) + "/roofcast-profiler-test-app";

std::string output_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("roofcast-gpu-test-" + std::to_string(getpid()) + "-" + name)).string();
}

}  // namespace

TEST_CASE("roofcast profile collects exact instruction counts of the test program") {
  const std::string out = output_path("profile.json");
  const auto result = run_roofcast({"profile", "--per-launch", "--sample", "all", "-o", out, "--", kApp, "--small"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(result.out.find("kernels done (results ok)") != std::string::npos);  // app output passes through
  const std::string text = roofcast::read_text_file(out);
  roofcast::parse_kernel_profile(text, out);
  const auto profile = nlohmann::json::parse(text);
  CHECK(profile["collector"]["replay_passes"] == 19);
  CHECK(profile["collector"]["cache_control"] == "all");
  auto kernels = kernels_by_short_name(profile);

  // affine_kernel: one plain launch, then two graph launches of two kernel nodes (two shapes);
  // each of its threads loads and stores one float per element it owns.
  const auto& affine = kernels.at("affine_kernel");
  CHECK(affine["invocations"] == 5);
  CHECK(affine["launch_shapes"].size() == 2);
  CHECK(affine["counters"]["smsp__inst_executed_op_global_ld.sum"] == 5 * 264.0 * 256 / 32);
  CHECK(affine["counters"]["smsp__inst_executed_op_global_st.sum"] == 5 * 264.0 * 256 / 32);

  const double threads = 264.0 * 256;  // --small: 264 blocks of 256
  const auto& fp32 = kernels.at("fp32_fma_kernel");
  CHECK(fp32["invocations"] == 3);
  // 64 iterations x 4 dependent FMAs per thread, plus at most a few outside the loop.
  const double ffma = fp32["counters"]["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"];
  CHECK(ffma >= 3 * threads * 256);
  CHECK(ffma <= 3 * threads * 260);
  CHECK(fp32["counters"]["smsp__sass_thread_inst_executed_op_dfma_pred_on.sum"] == 0);

  const auto& fp64 = kernels.at("fp64_fma_kernel");
  const double dfma = fp64["counters"]["smsp__sass_thread_inst_executed_op_dfma_pred_on.sum"];
  CHECK(dfma >= 3 * threads * 32);
  CHECK(dfma <= 3 * threads * 34);

  // Grid-stride triad over 2^22 floats: two 32-bit global loads and one store per element.
  const auto& triad = kernels.at("stream_triad_kernel");
  CHECK(triad["invocations"] == 4);
  CHECK(triad["launch_shapes"].size() == 2);
  const double elements = 4.0 * (1 << 22);
  CHECK(triad["counters"]["smsp__inst_executed_op_global_ld.sum"] == 2 * elements / 32);
  CHECK(triad["counters"]["smsp__inst_executed_op_global_st.sum"] == elements / 32);
  CHECK(triad["launches"].size() == 4);
  for (const auto& launch : triad["launches"]) CHECK(launch["duration_ms"] > 0);

  const auto& shared = kernels.at("shared_swap_kernel");
  CHECK(shared["counters"]["smsp__inst_executed_op_shared_ld.sum"] > 0);
  CHECK(shared["counters"]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] == 0);
  CHECK(kernels.at("int_mad_kernel")["counters"]["smsp__sass_thread_inst_executed_op_integer_pred_on.sum"] >
        3 * threads * 64 * 3);

  // The pipes group (pipe_kernels.cuh, --small: iterations 64). Each kernel's own pipe counts
  // what its loop issues: one instruction class per iteration and warp, three launches.
  const double warps = threads / 32;
  const auto counter = [&](const char* kernel, const char* metric) -> double {
    INFO(kernel << " " << metric);
    return kernels.at(kernel)["counters"].at(metric);
  };
  CHECK(counter("mufu_kernel", "smsp__inst_executed_pipe_xu.sum") >= 3 * warps * 16 * 3);  // sin, ex2, rsq
  CHECK(counter("fp32_fma_kernel", "smsp__inst_executed_pipe_xu.sum") == 0);
  CHECK(counter("atomics_kernel", "smsp__sass_inst_executed_op_shared_atom.sum") == 3 * warps * 4);
  CHECK(counter("atomics_kernel", "smsp__sass_inst_executed_op_global_red.sum") == 3 * 264 * 2);  // 64 bins: 2 warps a block
  CHECK(counter("atomics_kernel", "smsp__sass_inst_executed_op_global_atom.sum") == 3 * warps);  // one ticket a warp
  CHECK(counter("hfma2_kernel", "smsp__inst_executed_pipe_fma_type_fp16.sum") >= 3 * warps * 64 * 4);
  CHECK(counter("fp64_fma_kernel", "smsp__inst_executed_pipe_fp64.sum") >= 3 * warps * 16 * 2);
  // mma.sync: 16 per warp and launch; tensor ops by source type only in the matching kernel.
  for (const auto& [kernel, instructions, ops] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
           {"fp16", "smsp__inst_executed_pipe_tensor_op_hmma.sum", "sm__ops_path_tensor_src_fp16.sum"},
           {"bf16", "smsp__inst_executed_pipe_tensor_op_hmma.sum", "sm__ops_path_tensor_src_bf16_dst_fp32.sum"},
           {"tf32", "smsp__inst_executed_pipe_tensor_op_hmma.sum", "sm__ops_path_tensor_src_tf32_dst_fp32.sum"},
           {"int8", "smsp__inst_executed_pipe_tensor_op_imma.sum", "sm__ops_path_tensor_src_int8.sum"},
           {"fp64", "smsp__inst_executed_pipe_tensor_op_dmma.sum", "sm__ops_path_tensor_src_fp64.sum"}}) {
    // The demangled name spells the template argument as MmaType::fp16 or (MmaType)0.
    const std::vector<std::string> types = {"fp16", "bf16", "tf32", "int8", "fp64"};
    const auto index = std::find(types.begin(), types.end(), kernel) - types.begin();
    const nlohmann::json* found = nullptr;
    for (const auto& value : profile["kernels"]) {
      const std::string name = value["name"];
      if (name.find("mma_kernel<") != std::string::npos &&
          (name.find("MmaType::" + kernel) != std::string::npos ||
           name.find(fmt::format("(MmaType){}", index)) != std::string::npos))
        found = &value;
    }
    INFO("mma_kernel " << kernel);
    REQUIRE(found != nullptr);
    CHECK((*found)["counters"][instructions] >= 3 * warps * 16);
    CHECK((*found)["counters"][ops] > 0);
    CHECK(counter("fp32_fma_kernel", ops.c_str()) == 0);
  }

  // The latency group (issue 13): warps launched as the launch shape says; every resident
  // warp-cycle is in exactly one stall reason (`selected` included), so the reasons add up to
  // smsp__warps_active; reductions reach the L2 as requests.
  CHECK(counter("fp32_fma_kernel", "sm__warps_launched.sum") == 3 * warps);
  for (const char* kernel : {"fp32_fma_kernel", "stream_triad_kernel", "atomics_kernel"}) {
    double stalled = 0;
    for (const auto& [name, value] : kernels.at(kernel)["counters"].items())
      if (name.rfind("smsp__warps_issue_stalled_", 0) == 0) stalled += value.get<double>();
    INFO(kernel);
    // The reasons come from several replay passes and warps_active from another: a kernel whose
    // warps contend for atomics runs a few percent longer or shorter from pass to pass (seen:
    // 5.2 % and 5.6 % on atomics_kernel), so the sum is checked to 10 %.
    CHECK(stalled == Approx(counter(kernel, "smsp__warps_active.sum")).epsilon(0.10));
    CHECK(counter(kernel, "smsp__warps_issue_stalled_selected.sum") ==
          Approx(counter(kernel, "smsp__inst_executed.sum")).epsilon(0.05));
  }
  CHECK(counter("atomics_kernel", "lts__t_requests_srcunit_tex_op_red.sum") > 0);
  CHECK(counter("atomics_kernel", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum") ==
        counter("atomics_kernel", "smsp__sass_inst_executed_op_global_red.sum"));
  CHECK(counter("fp32_fma_kernel", "lts__t_requests_srcunit_tex_op_red.sum") == 0);
  CHECK(counter("atomics_kernel", "lts__d_atomic_input_cycles_active.max") > 0);
  CHECK(counter("atomics_kernel", "lts__d_atomic_input_cycles_active.max") <
        counter("atomics_kernel", "lts__cycles_elapsed.avg"));
  CHECK(counter("fp32_fma_kernel", "lts__d_atomic_input_cycles_active.max") == 0);

  // The test app's copies (--small: n = 264 x 256 elements): pageable host to device of n
  // floats, n doubles and n ints; pinned host to device, device to device and pinned device
  // to host of n floats each; one pageable 4-byte read back; a memset of n ints.
  const double n = threads;
  std::map<std::string, nlohmann::json> transfers;
  for (const auto& t : profile["transfers"])
    transfers[fmt::format("{}_{}", t["kind"].get<std::string>(), t["pinned"].get<bool>() ? "pinned" : "pageable")] = t;
  INFO(profile["transfers"].dump());
  CHECK(transfers.at("h2d_pageable")["bytes"] == n * (4 + 8 + 4));
  CHECK(transfers.at("h2d_pageable")["count"] >= 3);
  CHECK(transfers.at("h2d_pinned")["bytes"] == n * 4);
  CHECK(transfers.at("h2d_pinned")["count"] == 1);
  CHECK(transfers.at("d2d_pinned")["bytes"] == n * 4);
  CHECK(transfers.at("d2h_pinned")["bytes"] == n * 4);
  // Pageable reads back: the triad check (4 B), the pipe kernels' results (8 x n floats), the
  // atomic counts (65 words) and the graph check (4 B).
  CHECK(transfers.at("d2h_pageable")["bytes"] == 4 + 8 * 4 * n + 65 * 4 + 4);
  CHECK(transfers.size() == 5);
  for (const auto& [key, t] : transfers) CHECK(t["measured_ms"] > 0);
  CHECK(profile["memsets"]["bytes"] == n * 4);
  const auto parsed = roofcast::parse_kernel_profile(text, out);
  double h2d_bytes = 0, d2h_bytes = 0;
  for (const auto& t : parsed.transfers) {
    if (t.kind == roofcast::TransferKind::host_to_device) h2d_bytes += t.bytes;
    if (t.kind == roofcast::TransferKind::device_to_host) d2h_bytes += t.bytes;
  }
  CHECK(h2d_bytes == n * (4 + 8 + 4) + n * 4);
  CHECK(d2h_bytes == n * 4 + 4 + 8 * 4 * n + 65 * 4 + 4);
  CHECK(profile["copies"].size() >= 8);  // --per-launch: every copy and memset
  std::filesystem::remove(out);
}

TEST_CASE("timing only writes a measured-time file, exit status and filters pass through") {
  const std::string out = output_path("measured.json");
  const auto timed = run_roofcast({"profile", "--timing-only", "-k", "fp64", "-o", out, "--", kApp, "--small", "--exit", "3"});
  INFO(timed.err);
  CHECK(timed.exit_code == 3);
  const auto times = roofcast::parse_measured_times(roofcast::read_text_file(out), out);
  REQUIRE(times.kernels.size() == 1);
  CHECK(times.kernels[0].invocations == 3);
  CHECK(times.kernels[0].measured_ms > 0);
  CHECK(times.device.find("NVIDIA") != std::string::npos);
  std::filesystem::remove(out);
}
