#pragma once
// Each characterizer measures one family of device parameters (see docs/bench.md).

#include <functional>
#include <string>
#include <vector>

#include "context.hpp"
#include "roofcast/microbench/suite_result.hpp"

namespace roofcast::gpu {

using microbench::Measurement;
using microbench::SweepPoint;

// FP32/FP64/half2 FMA chains, int32 multiply-add, int32 add.
std::vector<Measurement> characterize_compute(const Context& context);
// Conflict-free shared-memory loads and stores of 32, 64 and 128 bits.
std::vector<Measurement> characterize_shared_memory(const Context& context);
// Issue rate of each pipe (FMA, ALU, FMA-heavy, FP64, FP16, XU, LSU) and the dispatch limit.
std::vector<Measurement> characterize_pipes(const Context& context);
// 32-bit atomicAdd throughput: global distinct words, global same words, shared.
std::vector<Measurement> characterize_atomics(const Context& context);
// WMMA fp16 and bf16 with fp32 accumulation; mma.sync tf32, fp64 and int8 (CUDA only).
std::vector<Measurement> characterize_tensor_cores(const Context& context);
// wgmma fp16, bf16, tf32 and int8 on compute capability 9.0 (tensor_wgmma.cu, built only for
// sm_90a: ROOFCAST_HAVE_WGMMA). Failures go to `problems`, the other precisions still report.
std::vector<Measurement> characterize_wgmma_tensor_cores(const Context& context, std::vector<std::string>& problems);
// L1 and L2 read bandwidth.
std::vector<Measurement> characterize_caches(const Context& context);
// DRAM read-only, write-only and copy kernels, and the runtime's device-to-device copy.
std::vector<Measurement> characterize_dram(const Context& context);
// DRAM latency as streaming kernels see it (Little's law), for the pipes model.
std::vector<Measurement> characterize_memory_parallelism(const Context& context);
// Random 32-byte-sector gathers over a buffer past L2 and one L2 holds.
std::vector<Measurement> characterize_gathers(const Context& context);
// Stores whose lanes each write a line of their own (2 KiB apart), past L2.
std::vector<Measurement> characterize_scattered_stores(const Context& context);
// Dependent-issue latency of FFMA, DFMA, IMAD, HFMA2 and MUFU, and one warp's issue interval.
std::vector<Measurement> characterize_arithmetic_latency(const Context& context);
// Unloaded latencies of shared-memory, L1-hit, L2-hit and DRAM loads and of global and shared
// atomics, one thread.
std::vector<Measurement> characterize_memory_latency(const Context& context);
// Empty-kernel launch rate, the time of one tiny kernel and the kernel floor in a graph.
std::vector<Measurement> characterize_launch(const Context& context);
// Rates measured earlier, used to size each sweep point's launch to about target_ms.
struct RooflineRates {
  double dram_gbps = 0;
  double fp32_gflops = 0;
  double fp64_gflops = 0;
  double half2_gflops = 0;
  double int32_mad_giops = 0;
};
// The mixbench roofline sweep; `progress` is called after each point.
std::vector<SweepPoint> characterize_roofline(const Context& context, const RooflineRates& rates,
                                              const std::function<void()>& progress);
int roofline_point_count(const Context& context);

// Copies host to device and device to host (pinned and pageable host memory) and device to
// device, each over a size sweep; the points only (the suite fits them).
std::vector<microbench::TransferSweep> characterize_transfers(const Context& context);

// Distinct SM ids seen running blocks of a kernel that fills the device.
int count_running_sms(const Context& context);

}  // namespace roofcast::gpu
