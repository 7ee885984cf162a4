#pragma once
// Test data for the bandwidth kernels: word w of a buffer holds w * kPatternStep + seed
// (mod 2^32): never all zero, different in every word, and with a closed-form sum.

#include <cstdint>

#include "device_buffer.hpp"

namespace roofcast::gpu {

inline constexpr uint32_t kPatternStep = 0x9E3779B9u;

__host__ __device__ inline uint4 pattern_vector(size_t vector_index, uint32_t seed) {
  const uint32_t w = static_cast<uint32_t>(vector_index * 4);
  return {w * kPatternStep + seed, (w + 1) * kPatternStep + seed, (w + 2) * kPatternStep + seed,
          (w + 3) * kPatternStep + seed};
}

// Sum mod 2^32 of the first `words` pattern words.
inline uint32_t pattern_sum(uint64_t words, uint32_t seed) {
  const uint64_t pairs = words % 2 == 0 ? (words / 2) * (words - 1) : words * ((words - 1) / 2);
  return static_cast<uint32_t>(pairs) * kPatternStep + static_cast<uint32_t>(words) * seed;
}

// Fills `buffer` with the pattern.
void fill_pattern(DeviceBuffer<uint4>& buffer, uint32_t seed);

// Number of vectors of `buffer` that differ from the pattern.
unsigned long long count_pattern_mismatches(const DeviceBuffer<uint4>& buffer, uint32_t seed);
// Number of the first `vectors` vectors at `data` (device memory) that differ from the pattern.
unsigned long long count_pattern_mismatches(const uint4* data, size_t vectors, uint32_t seed);

// Sum mod 2^32 of a vector's four words.
__host__ __device__ inline uint32_t word_sum(uint4 v) { return v.x + v.y + v.z + v.w; }

// Sums `value` over the block; thread 0 gets the total.
__device__ inline uint32_t block_sum(uint32_t value) {
  __shared__ uint32_t partial[32];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) value += shuffle_xor(value, offset);
  const int warp = threadIdx.x / warpSize, lane = threadIdx.x % warpSize;
  if (lane == 0) partial[warp] = value;
  __syncthreads();
  uint32_t total = 0;
  if (threadIdx.x == 0)
    for (int w = 0; w < static_cast<int>((blockDim.x + warpSize - 1) / warpSize); ++w) total += partial[w];
  return total;
}

}  // namespace roofcast::gpu
