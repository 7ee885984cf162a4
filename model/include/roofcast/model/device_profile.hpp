#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "roofcast/model/transfers.hpp"

namespace roofcast {

// The six throughputs of the thesis' device characterization (model.md).
struct DeviceThroughput {
  double fp32_gflops = 0;       // T_SP: single-precision FMA throughput, an FMA counts 2 ops
  double fp64_gflops = 0;       // T_DP
  double int32_mad_giops = 0;   // T_int: 32-bit integer multiply-add, counted 2 ops
  double int32_add_giops = 0;   // T_add: 32-bit integer add
  double shared_ldst_gops = 0;  // T_ldst: shared-memory load/store instructions x 32 threads
  double dram_gbps = 0;         // B_mem: mean of read-only, write-only and copy bandwidth
};

// One point of a mixbench-style roofline sweep.
struct RooflinePoint {
  std::string precision;  // "fp32", "fp64", "half2", "int32"
  double iterations = 0;
  double ops_per_byte = 0;
  double time_ms = 0;
  double gops = 0;
  double gbps = 0;
};

// What limits how many blocks of a kernel an SM holds at once (device attributes that
// `roofcast bench` records). A zero field is unknown; occupancy is then not computed.
struct OccupancyLimits {
  double max_threads_per_sm = 0;
  double max_blocks_per_sm = 0;
  double registers_per_sm = 0;
  double register_allocation_unit = 0;  // registers, allocated per warp in units of this
  double shared_bytes_per_sm = 0;
  double reserved_shared_bytes_per_block = 0;
  double shared_allocation_unit = 0;  // bytes
  bool known() const {
    return max_threads_per_sm > 0 && max_blocks_per_sm > 0 && registers_per_sm > 0 && shared_bytes_per_sm > 0;
  }
};

// Where a device profile that was not measured comes from: the published specifications of
// `spec_id` (data/specs/gpus.json) with the achieved/peak of the measured profile `fractions_from`
// (docs/derived-devices.md). Read from and written to the JSON's `provenance.derived`.
struct DeviceDerivation {
  std::string spec_id;         // "a100-sxm-80gb"
  std::string fractions_from;  // "h100-sxm"
  std::string relation;        // "the same GPU", "the same architecture (sm_90)", ...
};

struct DeviceProfile {
  std::string name;
  // Where it was read from: the file as given, or data/devices/ID.json for a bundled device;
  // "" when made in memory. Messages that say how to complete the profile name it.
  std::string source;
  // What tells this profile from others of the same name, as --device takes it: its file's name
  // without .json ("h100-sxm") or a bundled device's id ("thesis-gtx-660"); "" when not known.
  // Outputs show it beside the name (device_id); the model never reads it.
  std::string id;
  DeviceThroughput throughput;
  int sm_count = 0;  // streaming multiprocessors available to kernels; 0 when unknown
  double sm_clock_mhz = 0;  // the SM clock the benchmarks ran at; 0 when unknown
  double l2_bytes = 0;      // the L2 cache's capacity (the whole GPU's, also under MPS); 0 when unknown
  OccupancyLimits occupancy;
  // Further measured peaks beside the six (fp16, tensor, L2, L1, launch overhead...),
  // keyed as in the device-profile JSON `throughput` object.
  std::map<std::string, double> extra_throughput;
  std::vector<RooflinePoint> roofline_sweep;
  // Copy costs keyed by transfer_key(): "h2d_pinned", "d2h_pageable", "d2d"...
  std::map<std::string, TransferFit> transfers;
  // Set when the profile is derived from a spec sheet rather than measured.
  std::optional<DeviceDerivation> derivation;
};

}  // namespace roofcast

#include <optional>

namespace roofcast {

// Why these throughputs cannot describe a device (naming the field), or nullopt.
std::optional<std::string> find_problem(const DeviceThroughput& throughput);

}  // namespace roofcast
