#pragma once

#include <optional>
#include <string>
#include <vector>

#include "roofcast/microbench/statistics.hpp"

namespace roofcast::microbench {

// One characterized quantity (a peak throughput, a bandwidth or a latency).
struct Measurement {
  std::string key;    // its key in the device profile's `throughput` object, e.g. "fp32_gflops"
  std::string label;  // for people, e.g. "FP32 FMA"
  std::string unit;   // "GFLOP/s", "GIOP/s", "G/s", "GB/s" or "us"
  Summary value;      // one value per timed repetition
  Summary time_ms;    // time of one launch
  double work_per_launch = 0;  // operations or bytes one launch does, as the characterizer declares
  double sm_clock_mhz = 0;     // SM clock measured inside the timed kernels (0: not measured)
  std::optional<double> theoretical;  // the peak at that clock, from the architecture table
  bool verified = false;              // every output checked on the host
  std::string details;                // launch configuration, for the report
};

// One point of a mixbench roofline sweep (compute iterations per loaded element).
struct SweepPoint {
  std::string precision;  // "fp32", "fp64", "half2", "int32"
  int iterations = 0;
  double ops_per_byte = 0;
  double elements = 0;     // elements loaded by one launch
  Summary time_ms;         // one launch
  double gops = 0;         // at the median time
  double gbps = 0;         // at the median time
  bool verified = false;
};

// One size of a copy sweep.
struct TransferPoint {
  double bytes = 0;   // one copy
  Summary time_ms;    // one copy, over the timed repetitions
  bool verified = false;
  double gbps() const { return time_ms.median > 0 ? bytes / time_ms.median / 1e6 : 0; }
};

// A copy direction and host-memory kind swept over sizes, and its straight-line fit
// time = latency + bytes / bandwidth (microbench/src/transfer_fit.cpp).
struct TransferSweep {
  std::string key;    // the device profile's `transfers` key: "h2d_pinned", "d2h_pageable", "d2d"...
  std::string label;  // "Host to device, pinned"
  std::vector<TransferPoint> points;
  double bandwidth_gbps = 0;  // bytes copied (counted once) per second / 1e9
  double latency_us = 0;
  double worst_relative_residual = 0;  // of the fit over the points
};

// Per-SM resource limits that decide how many blocks fit on an SM (waves). From runtime
// attributes, or from the CUDA occupancy calculator's per-architecture constants
// (cuda_occupancy.h) where no attribute exists; 0 = unknown (left out of the profile).
// MPS does not change them: it limits the SM count only.
struct Occupancy {
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  int registers_per_sm = 0;
  int max_registers_per_thread = 0;
  int register_allocation_unit = 0;  // registers, allocated per warp
  int shared_bytes_per_sm = 0;
  int max_shared_bytes_per_block_optin = 0;
  int reserved_shared_bytes_per_block = 0;
  int shared_allocation_unit = 0;    // bytes
};

struct DeviceInfo {
  std::string name;             // as the runtime reports it
  std::string backend;          // "cuda" or "hip"
  std::string arch;             // "sm_90", "gfx90a"
  std::string pci_bus_id;
  int sm_count = 0;             // multiprocessors the runtime gives this process (MPS limits it)
  int sm_count_observed = 0;    // distinct SM ids seen by a kernel that fills the device
  int warp_size = 0;
  double l2_bytes = 0;
  double memory_bytes = 0;
  int memory_bus_bits = 0;
  double memory_clock_mhz_attribute = 0;  // the runtime's peak memory clock
  double sm_clock_mhz_attribute = 0;      // the runtime's peak SM clock (0 when it has none)
  std::string driver_version;
  std::string runtime_version;
  std::string mps_active_thread_percentage;  // the environment variable, empty when unset
  Occupancy occupancy;
};

// The SMs this process can use: what the runtime reports, or fewer if fewer were seen working.
inline int effective_sm_count(const DeviceInfo& device) {
  if (device.sm_count_observed > 0 && device.sm_count_observed < device.sm_count) return device.sm_count_observed;
  return device.sm_count;
}

// Clocks read while the suite ran.
struct ClockLog {
  double sm_clock_mhz_in_kernel = 0;  // median over the compute-bound kernels' in-kernel measurements
  bool nvml_available = false;
  std::string nvml_problem;           // why NVML readings are missing
  Summary nvml_sm_clock_mhz;          // sampled during the whole suite
  Summary nvml_memory_clock_mhz;
  double nvml_max_sm_clock_mhz = 0;
  double nvml_max_memory_clock_mhz = 0;

  // The memory clock used for the theoretical DRAM bandwidth.
  double memory_clock_mhz(const DeviceInfo& device) const {
    return nvml_available && nvml_memory_clock_mhz.count > 0 ? nvml_memory_clock_mhz.median
                                                             : device.memory_clock_mhz_attribute;
  }
};

struct SuiteResult {
  DeviceInfo device;
  ClockLog clocks;
  std::vector<Measurement> measurements;
  std::vector<SweepPoint> sweep;
  std::vector<TransferSweep> transfers;  // fitted ones only
  bool quick = false;
  double wall_seconds = 0;
  // Characterizers that failed ("tensor cores: ..."): their results are missing.
  std::vector<std::string> problems;

  const Measurement* find(const std::string& key) const {
    for (const auto& m : measurements)
      if (m.key == key) return &m;
    return nullptr;
  }
};

}  // namespace roofcast::microbench
