// A merge sort of 2^23 random 32-bit keys written by us. bitonic_sort_tiles sorts tiles of
// 2048 keys in shared memory (one block of 1024 threads each: 66 compare-exchange stages
// between barriers). merge_pass then merges pairs of sorted runs, doubling their width
// each launch (12 launches): every thread places one key by a binary search in the other
// run, a chain of dependent loads (log2 of the width) at scattered positions.
#include <algorithm>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr unsigned kTile = 2048;
constexpr unsigned kTileThreads = kTile / 2;  // one compare-exchange pair per thread and stage
constexpr unsigned kMergeThreads = 256;

__global__ void bitonic_sort_tiles(unsigned* __restrict__ out, const unsigned* __restrict__ in) {
  __shared__ unsigned tile[kTile];
  const size_t base = blockIdx.x * size_t{kTile};
  for (unsigned j = threadIdx.x; j < kTile; j += blockDim.x) tile[j] = in[base + j];
  __syncthreads();
  for (unsigned size = 2; size <= kTile; size <<= 1) {
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      const unsigned t = threadIdx.x;
      const unsigned low = 2 * stride * (t / stride) + t % stride;
      const bool ascending = (low & size) == 0;
      const unsigned a = tile[low], b = tile[low + stride];
      if ((a > b) == ascending) {
        tile[low] = b;
        tile[low + stride] = a;
      }
      __syncthreads();
    }
  }
  for (unsigned j = threadIdx.x; j < kTile; j += blockDim.x) out[base + j] = tile[j];
}

// How many of run[0..length) are below `key` (or, with `or_equal`, at most `key`).
__device__ unsigned rank_in(const unsigned* run, unsigned length, unsigned key, bool or_equal) {
  unsigned low = 0, high = length;
  while (low < high) {
    const unsigned middle = (low + high) / 2;
    const unsigned value = run[middle];
    if (value < key || (or_equal && value == key)) low = middle + 1;
    else high = middle;
  }
  return low;
}

// Merges runs [2kw, 2kw + w) and [2kw + w, 2kw + 2w) of src into dst; n is a multiple of 2w.
// A key of the left run goes after the right run's smaller keys, one of the right run after
// the left run's keys up to its own: stable, and every position is written once.
__global__ void merge_pass(unsigned* __restrict__ dst, const unsigned* __restrict__ src, unsigned n, unsigned width) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const unsigned pair = i / (2 * width) * (2 * width);
  const unsigned key = src[i];
  const unsigned offset = i - pair;
  const unsigned rank = offset < width ? offset + rank_in(src + pair + width, width, key, false)
                                       : offset - width + rank_in(src + pair, width, key, true);
  dst[pair + rank] = key;
}

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "merge_sort", "bitonic tiles in shared memory, then merge passes");
  const unsigned n = options.small ? (1u << 16) : (1u << 23);
  print_header("merge_sort", std::to_string(n) + " uint32 keys");

  std::vector<std::uint32_t> keys(n);
  fill_bits(keys, fresh_seed());
  for (size_t i = 0; i < n; i += 7) keys[i] &= 0xFFFF;  // some duplicates among the small keys
  DeviceBuffer<unsigned> keys_d(n), tiles_d(n), ping(n), pong(n);
  keys_d.upload(keys);
  auto sort_tiles = [&] { bitonic_sort_tiles<<<n / kTile, kTileThreads>>>(tiles_d.get(), keys_d.get()); };
  auto merge = [&](const DeviceBuffer<unsigned>& from, DeviceBuffer<unsigned>& to, unsigned width) {
    merge_pass<<<blocks_for(n, kMergeThreads), kMergeThreads>>>(to.get(), from.get(), n, width);
  };

  sort_tiles();
  ROOFCAST_CUDA(cudaMemcpy(ping.get(), tiles_d.get(), n * sizeof(unsigned), cudaMemcpyDeviceToDevice));
  bool in_ping = true;
  for (unsigned width = kTile; width < n; width *= 2, in_ping = !in_ping)
    in_ping ? merge(ping, pong, width) : merge(pong, ping, width);
  ROOFCAST_CHECK_LAUNCH();
  const std::vector<unsigned> got = (in_ping ? ping : pong).download();
  std::vector<unsigned> want(keys.begin(), keys.end());
  std::sort(want.begin(), want.end());
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) wrong += got[i] != want[i];
  const bool ok = report_check("merge_sort", wrong == 0,
                               std::to_string(wrong) + " of " + std::to_string(n) + " keys out of place after " +
                                   std::to_string(n / kTile) + " tiles and merge passes up to width " +
                                   std::to_string(n / 2));

  time_kernel("bitonic_sort_tiles", options, sort_tiles);
  // A first-level merge of the sorted tiles: the same data every time.
  time_kernel("merge_pass", options, [&] { merge(tiles_d, pong, kTile); });
  return ok ? 0 : 1;
}
