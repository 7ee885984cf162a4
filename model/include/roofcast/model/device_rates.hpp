#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "roofcast/model/device_profile.hpp"

namespace roofcast {

// The device side of the multi-pipeline model: what each part of the GPU sustains, whole
// device, from `roofcast bench` (docs/pipes-model.md). A rate of 0 is unknown; that term is
// then not costed. Where a profile predates the pipe characterizers, rates are derived from
// the thesis' six throughputs and `notes` says which. The keys read are bench_keys.hpp's list;
// `notes` names those the profile lacks.
struct DeviceRates {
  std::map<std::string, double> pipe_gwips;     // billions of warp instructions per second, per pipe
  double issue_gwips = 0;                       // the schedulers' issue limit
  std::map<std::string, double> tensor_gops;    // tensor-core operations per second (G), by source type: mma.sync
  std::map<std::string, double> tensor_wgmma_gops;  // the same through Hopper wgmma, where measured
  double shared_wavefronts_gps = 0;             // billions of shared-memory wavefronts per second
  double global_atomics_gops = 0;               // thread-level atomics per second (G), distinct addresses
  // The same with every warp of the grid on one 128-byte line: the rate one L2 line takes them.
  double global_atomics_same_address_gops = 0;
  // Optional (0 when not measured): every lane on a scattered line of its own, one L2 sector per
  // atomic; and lane 0 of every warp on one word (integer, float), one word's read-modify-writes.
  double global_atomics_scattered_gops = 0;
  double global_atomics_same_word_gops = 0, global_atomics_same_word_f32_gops = 0;
  double shared_atomics_gops = 0;
  double dram_read_gbps = 0, dram_write_gbps = 0, dram_copy_gbps = 0;
  double dram_elementwise_add_gbps = 0;         // c = a + b: two thirds of the bytes read; 0 when not measured
  double dram_mean_gbps = 0;                    // B_mem: mean of the three
  double l2_gbps = 0;
  double l1_gbps = 0;
  double kernel_floor_us = 0;                   // GPU time of a kernel that does nothing
  double block_dispatch_gblocks = 0;            // one-warp blocks the GPU starts and retires per second (G)
  // Effective DRAM latency under streaming load: an SM with W warps, each with b bytes of
  // loads and stores in flight, draws at most W x b / latency.
  double dram_latency_ns = 0;
  double dram_probe_gbps = 0;                   // the bandwidth of the probe that measured it; 0 when not recorded
  double warps_per_sm = 0;                      // warp slots of an SM
  // Latencies of one warp alone, unloaded (`latency_*_ns`, docs/bench.md), and the SM clock
  // they were measured at; 0 when the device profile predates them.
  double sm_clock_mhz = 0;
  double warp_issue_interval_ns = 0;  // between two independent instructions of one warp
  double latency_ffma_ns = 0, latency_dfma_ns = 0, latency_imad_ns = 0, latency_hfma2_ns = 0, latency_mufu_ns = 0;
  double latency_shared_load_ns = 0;
  double latency_l1_hit_ns = 0, latency_l2_hit_ns = 0, latency_dram_ns = 0;  // global loads, pointer chase
  double latency_dram_warp_ns = 0;  // the DRAM chase with every lane of a warp on its own line; 0 when not measured
  std::vector<std::string> notes;
  // `notes` as device_rates_of left them, shared by the predictions on this device.
  std::shared_ptr<const std::vector<std::string>> shared_notes;
};

DeviceRates device_rates_of(const DeviceProfile& device);

// Sustained DRAM bandwidth for a traffic mix with this share of bytes read (0..1), linearly
// between the measured mixes: write-only (0), copy (1/2), elementwise add (2/3, when measured)
// and read-only (1); B_mem when the first three are unknown. On a small MPS partition a mix of
// reads and writes moves more than either alone, so the add's point matters there.
double dram_gbps_for_read_share(const DeviceRates& rates, double read_share);

}  // namespace roofcast
