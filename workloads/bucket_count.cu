// Issue 28, class (d): bucket counting with integer dependency chains. Each thread walks its
// keys (grid-stride, one at a time: `#pragma unroll 1`, so that no two keys' chains overlap
// in one thread), computes each key's bucket by R dependent rounds of an integer mixer
// (shift, xor, multiply: each instruction waits for the one before it) and counts it with a
// shared-memory atomic; each block then writes its counts (a sample sort's counting pass).
// Few warps per scheduler (fixed grids of 2 to 4 warps per scheduler on a 132-SM GPU), so
// the chains are exposed. Four kernels: R and the bucket count are template parameters
// (workloads/latency_classes.json says which half each belongs to).
#include <algorithm>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

// One round of a 32-bit mixer (lowbias32): seven instructions, each on the last one's result.
__host__ __device__ inline unsigned mix_round(unsigned h) {
  h ^= h >> 16;
  h *= 0x7FEB352Du;
  h ^= h >> 15;
  h *= 0x846CA68Bu;
  h ^= h >> 16;
  return h;
}

template <unsigned kRounds, unsigned kBucketBits>
__host__ __device__ inline unsigned bucket_of(unsigned key) {
  unsigned h = key;
  for (unsigned r = 0; r < kRounds; ++r) h = mix_round(h + r);
  return h >> (32 - kBucketBits);
}

template <unsigned kRounds, unsigned kBucketBits>
__device__ void bucket_count_body(unsigned* __restrict__ block_counts, const unsigned* __restrict__ keys, size_t n) {
  constexpr unsigned kBuckets = 1u << kBucketBits;
  __shared__ unsigned counts[kBuckets];
  for (unsigned b = threadIdx.x; b < kBuckets; b += blockDim.x) counts[b] = 0;
  __syncthreads();
#pragma unroll 1
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x)
    atomicAdd(&counts[bucket_of<kRounds, kBucketBits>(keys[i])], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < kBuckets; b += blockDim.x) block_counts[size_t{blockIdx.x} * kBuckets + b] = counts[b];
}

#define BUCKET_COUNT_KERNEL(name, rounds, bucket_bits)                                                       \
  __global__ void name(unsigned* __restrict__ block_counts, const unsigned* __restrict__ keys, size_t n) {   \
    bucket_count_body<rounds, bucket_bits>(block_counts, keys, n);                                           \
  }
BUCKET_COUNT_KERNEL(bucket_count_r8_b256, 8, 8)
BUCKET_COUNT_KERNEL(bucket_count_r16_b1024, 16, 10)
BUCKET_COUNT_KERNEL(bucket_count_r12_b4096, 12, 12)
BUCKET_COUNT_KERNEL(bucket_count_r6_b64, 6, 6)

namespace {

using CountKernel = void (*)(unsigned*, const unsigned*, size_t);
using BucketFunction = unsigned (*)(unsigned);

struct Configuration {
  const char* name;
  CountKernel kernel;
  BucketFunction bucket;
  unsigned bucket_bits, blocks, threads;
};

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "bucket_count", "bucket counting: dependent integer mixing rounds per key");
  const size_t n = options.small ? (size_t{1} << 16) : (size_t{1} << 25);
  print_header("bucket_count", std::to_string(n) + " keys, 6-16 mixing rounds each, 64-4096 buckets");
  std::vector<std::uint32_t> keys(n);
  fill_bits(keys, fresh_seed());
  DeviceBuffer<unsigned> keys_d(n);
  keys_d.upload(keys);

  // Fixed grids, whatever the GPU: 2 to 4 warps per scheduler where a 132-SM GPU holds them.
  const Configuration configurations[] = {
      {"bucket_count_r8_b256", bucket_count_r8_b256, bucket_of<8, 8>, 8, 264, 128},
      {"bucket_count_r16_b1024", bucket_count_r16_b1024, bucket_of<16, 10>, 10, 132, 256},
      {"bucket_count_r12_b4096", bucket_count_r12_b4096, bucket_of<12, 12>, 12, 528, 64},
      {"bucket_count_r6_b64", bucket_count_r6_b64, bucket_of<6, 6>, 6, 66, 512},
  };
  bool ok = true;
  for (const Configuration& c : configurations) {
    const unsigned buckets = 1u << c.bucket_bits;
    DeviceBuffer<unsigned> counts_d(size_t{c.blocks} * buckets);
    auto launch = [&] { c.kernel<<<c.blocks, c.threads>>>(counts_d.get(), keys_d.get(), n); };
    counts_d.poison();
    launch();
    ROOFCAST_CHECK_LAUNCH();
    const std::vector<unsigned> got = counts_d.download();
    // Every block's counts add up to its keys; sampled blocks' counts are recounted exactly.
    const size_t stride = size_t{c.blocks} * c.threads;
    size_t wrong_totals = 0, wrong_counts = 0;
    for (unsigned block = 0; block < c.blocks; ++block) {
      size_t total = 0, assigned = 0;
      for (unsigned b = 0; b < buckets; ++b) total += got[size_t{block} * buckets + b];
      for (size_t first = size_t{block} * c.threads; first < n; first += stride) assigned += std::min<size_t>(c.threads, n - first);
      wrong_totals += total != assigned;
    }
    const std::vector<size_t> sampled = elements_to_check(c.blocks, 8);
    for (const size_t block : sampled) {
      std::vector<unsigned> want(buckets, 0);
      for (size_t first = block * c.threads; first < n; first += stride)
        for (size_t i = first; i < std::min(n, first + c.threads); ++i) ++want[c.bucket(keys[i])];
      for (unsigned b = 0; b < buckets; ++b) wrong_counts += got[block * buckets + b] != want[b];
    }
    ok = report_check(c.name, wrong_totals == 0 && wrong_counts == 0,
                      std::to_string(wrong_totals) + " of " + std::to_string(c.blocks) +
                          " blocks' totals differ from their keys; " + std::to_string(wrong_counts) +
                          " bucket counts differ from host in " + std::to_string(sampled.size()) + " sampled blocks") &&
         ok;
    time_kernel(c.name, options, launch);
  }
  return ok ? 0 : 1;
}
