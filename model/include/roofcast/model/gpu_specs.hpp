#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "roofcast/model/device_profile.hpp"

namespace roofcast {

// The published specifications roofcast derives device profiles from (data/specs/gpus.json,
// docs/derived-devices.md): per architecture what one SM (AMD: compute unit) does per clock,
// per GPU its size, clock, memory and datasheet peaks. Units are in the names.

struct ArchitectureSpec {
  std::string arch;    // "sm_90", "gfx942"
  std::string family;  // "Hopper (GH100)"
  std::string vendor;  // "nvidia", "amd"
  int compute_capability = 0;  // 90 for sm_90; 0 for AMD
  // Thread-level results per clock per SM: fp32_fma, fp64_fma, fp16 (half results), int32_mad, int32_add.
  std::map<std::string, double> lanes_per_clock;
  // Warp instructions (32 lanes) per clock per SM, by pipe: fma, alu, fmaheavy, fp64, fp16, xu, lsu, issue.
  std::map<std::string, double> pipe_warp_instructions_per_clock;
  double shared_bytes_per_clock = 0;
  double l1_bytes_per_clock = 0;
  // The instruction that reaches the datasheet's dense tensor rate: "mma.sync", "wgmma", "tcgen05", "mfma".
  std::string tensor_full_rate_instruction;
  OccupancyLimits occupancy;
  double register_file_bytes_per_sm = 0;
  double l1_shared_bytes_per_sm = 0;
};

struct GpuSpec {
  std::string id;    // "a100-sxm-80gb": what --device spec:ID takes
  std::string name;  // "NVIDIA A100 SXM4 80GB"
  std::vector<std::string> device_names;  // how the driver names it: matches measured profiles to the table
  std::string arch;
  int sm_count = 0;
  double boost_clock_mhz = 0;
  double memory_gb = 0;
  std::string memory_type;
  double memory_gbps = 0;
  double l2_bytes = 0;
  std::string host_link;       // "PCIe 5.0 x16"
  double host_link_gbps = 0;   // one direction
  double peer_link_gbps = 0;   // NVLink / Infinity Fabric, all links both ways; 0 when none
  std::map<std::string, double> vector_tflops;  // fp32, fp64
  std::map<std::string, double> tensor_tflops;  // dense: fp16, bf16, tf32, fp64 (TFLOP/s), int8 (TOP/s)
};

struct GpuSpecTable {
  std::string source;  // the file, for messages
  std::vector<ArchitectureSpec> architectures;
  std::vector<GpuSpec> gpus;

  const GpuSpec* find_gpu(std::string_view id) const;  // by id, device_name_key rule
  const ArchitectureSpec* find_architecture(std::string_view arch) const;
  const ArchitectureSpec& architecture_of(const GpuSpec& gpu) const;  // throws std::logic_error if unknown
  // The GPU a driver-reported device name ("NVIDIA H100 80GB HBM3") is; nullptr when none.
  const GpuSpec* gpu_of_device_name(std::string_view device_name) const;
};

// The SM count of an MPS partition of `percentage` % of `sm_count` SMs: NVIDIA gives a
// partition whole TPCs (two SMs), rounding down, at least one: 66 of 132 at 50 %, 32 at 25 %
// (as our measured partitions have). 100 % is the whole GPU.
int mps_partition_sm_count(int sm_count, double percentage);

}  // namespace roofcast
