// What the device is: names, sizes, clocks the runtime reports, and the SMs a kernel
// actually runs on (under MPS a process gets only part of the GPU).
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <set>

#include "device_query.hpp"
#include "roofcast/microbench/pipe_rates.hpp"

namespace roofcast::gpu {

namespace {

__global__ void record_sm_kernel(unsigned* sm_ids, long long spin_ticks) {
  const long long start = timer_ticks();
  while (timer_ticks() - start < spin_ticks) {
  }
  if (threadIdx.x == 0) sm_ids[blockIdx.x] = sm_id();
}

int attribute(
#if ROOFCAST_BACKEND_HIP
    hipDeviceAttribute_t which,
#else
    cudaDeviceAttr which,
#endif
    int device) {
  int value = 0;
#if ROOFCAST_BACKEND_HIP
  ROOFCAST_GPU_CHECK(hipDeviceGetAttribute(&value, which, device));
#else
  ROOFCAST_GPU_CHECK(cudaDeviceGetAttribute(&value, which, device));
#endif
  return value;
}

}  // namespace

int count_running_sms(const Context& context) {
  // Several blocks per SM, each spinning long enough that all are resident together.
  const int blocks = context.sm_count * 8;
  DeviceBuffer<unsigned> ids(blocks);
  record_sm_kernel<<<blocks, 64>>>(ids.data(), static_cast<long long>(20000 * kTimerTicksPerNanosecond));
  ROOFCAST_GPU_CHECK_LAUNCH("record_sm_kernel");
  ROOFCAST_GPU_CHECK(device_synchronize());
  const auto host = ids.to_host();
  return static_cast<int>(std::set<unsigned>(host.begin(), host.end()).size());
}

microbench::DeviceInfo query_device(int device) {
  microbench::DeviceInfo info;
  info.backend = ROOFCAST_BACKEND_NAME;
  char pci[64] = {};
  int runtime = 0, driver = 0;
#if ROOFCAST_BACKEND_HIP
  hipDeviceProp_t prop{};
  ROOFCAST_GPU_CHECK(hipGetDeviceProperties(&prop, device));
  info.name = prop.name;
  info.arch = prop.gcnArchName;
  info.sm_count = attribute(hipDeviceAttributeMultiprocessorCount, device);
  info.warp_size = attribute(hipDeviceAttributeWarpSize, device);
  info.l2_bytes = attribute(hipDeviceAttributeL2CacheSize, device);
  info.memory_bus_bits = attribute(hipDeviceAttributeMemoryBusWidth, device);
  info.memory_clock_mhz_attribute = attribute(hipDeviceAttributeMemoryClockRate, device) / 1000.0;
  info.sm_clock_mhz_attribute = attribute(hipDeviceAttributeClockRate, device) / 1000.0;
  info.memory_bytes = static_cast<double>(prop.totalGlobalMem);
  ROOFCAST_GPU_CHECK(hipDeviceGetPCIBusId(pci, sizeof pci, device));
  ROOFCAST_GPU_CHECK(hipRuntimeGetVersion(&runtime));
  ROOFCAST_GPU_CHECK(hipDriverGetVersion(&driver));
  info.occupancy.max_threads_per_sm = attribute(hipDeviceAttributeMaxThreadsPerMultiProcessor, device);
  info.occupancy.shared_bytes_per_sm = attribute(hipDeviceAttributeMaxSharedMemoryPerMultiprocessor, device);
  info.runtime_version = fmt::format("HIP {}", runtime);
  info.driver_version = fmt::format("HIP driver {}", driver);
#else
  cudaDeviceProp prop{};
  ROOFCAST_GPU_CHECK(cudaGetDeviceProperties(&prop, device));
  info.name = prop.name;
  const int major = attribute(cudaDevAttrComputeCapabilityMajor, device);
  const int minor = attribute(cudaDevAttrComputeCapabilityMinor, device);
  info.arch = fmt::format("sm_{}{}", major, minor);
  info.sm_count = attribute(cudaDevAttrMultiProcessorCount, device);
  info.warp_size = attribute(cudaDevAttrWarpSize, device);
  info.l2_bytes = attribute(cudaDevAttrL2CacheSize, device);
  info.memory_bus_bits = attribute(cudaDevAttrGlobalMemoryBusWidth, device);
  info.memory_clock_mhz_attribute = attribute(cudaDevAttrMemoryClockRate, device) / 1000.0;
  info.sm_clock_mhz_attribute = attribute(cudaDevAttrClockRate, device) / 1000.0;
  info.memory_bytes = static_cast<double>(prop.totalGlobalMem);
  ROOFCAST_GPU_CHECK(cudaDeviceGetPCIBusId(pci, sizeof pci, device));
  ROOFCAST_GPU_CHECK(cudaRuntimeGetVersion(&runtime));
  ROOFCAST_GPU_CHECK(cudaDriverGetVersion(&driver));
  microbench::Occupancy& o = info.occupancy;
  o.max_threads_per_sm = attribute(cudaDevAttrMaxThreadsPerMultiProcessor, device);
  o.max_blocks_per_sm = attribute(cudaDevAttrMaxBlocksPerMultiprocessor, device);
  o.registers_per_sm = attribute(cudaDevAttrMaxRegistersPerMultiprocessor, device);
  o.shared_bytes_per_sm = attribute(cudaDevAttrMaxSharedMemoryPerMultiprocessor, device);
  o.max_shared_bytes_per_block_optin = attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
  o.reserved_shared_bytes_per_block = attribute(cudaDevAttrReservedSharedMemoryPerBlock, device);
  if (const auto units = microbench::allocation_units(major)) {
    o.max_registers_per_thread = units->max_registers_per_thread;
    o.register_allocation_unit = units->register_allocation_unit;
    o.shared_allocation_unit = units->shared_allocation_unit;
  }
  info.runtime_version = fmt::format("CUDA runtime {}.{}", runtime / 1000, runtime % 1000 / 10);
  info.driver_version = fmt::format("CUDA driver API {}.{}", driver / 1000, driver % 1000 / 10);
#endif
  info.pci_bus_id = pci;
  if (const char* mps = std::getenv("CUDA_MPS_ACTIVE_THREAD_PERCENTAGE")) info.mps_active_thread_percentage = mps;
  return info;
}

int compute_capability_major(int device) {
#if ROOFCAST_BACKEND_HIP
  (void)device;
  return 0;
#else
  return attribute(cudaDevAttrComputeCapabilityMajor, device);
#endif
}

}  // namespace roofcast::gpu
