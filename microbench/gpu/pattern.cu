#include "pattern.hpp"

namespace roofcast::gpu {

namespace {

__global__ void fill_pattern_kernel(uint4* data, size_t vectors, uint32_t seed) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < vectors; i += stride)
    data[i] = pattern_vector(i, seed);
}

__global__ void count_mismatches_kernel(const uint4* data, size_t vectors, uint32_t seed,
                                        unsigned long long* mismatches) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  unsigned long long count = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < vectors; i += stride) {
    const uint4 v = data[i], e = pattern_vector(i, seed);
    count += v.x != e.x || v.y != e.y || v.z != e.z || v.w != e.w;
  }
  if (count) atomicAdd(mismatches, count);
}

constexpr int kBlocks = 4096, kThreads = 256;

}  // namespace

void fill_pattern(DeviceBuffer<uint4>& buffer, uint32_t seed) {
  fill_pattern_kernel<<<kBlocks, kThreads>>>(buffer.data(), buffer.size(), seed);
  ROOFCAST_GPU_CHECK_LAUNCH("fill_pattern_kernel");
  ROOFCAST_GPU_CHECK(device_synchronize());
}

unsigned long long count_pattern_mismatches(const DeviceBuffer<uint4>& buffer, uint32_t seed) {
  return count_pattern_mismatches(buffer.data(), buffer.size(), seed);
}

unsigned long long count_pattern_mismatches(const uint4* data, size_t vectors, uint32_t seed) {
  DeviceBuffer<unsigned long long> count(1);
  ROOFCAST_GPU_CHECK(memset_bytes(count.data(), 0, sizeof(unsigned long long)));
  count_mismatches_kernel<<<kBlocks, kThreads>>>(data, vectors, seed, count.data());
  ROOFCAST_GPU_CHECK_LAUNCH("count_mismatches_kernel");
  return count.to_host()[0];
}

}  // namespace roofcast::gpu
