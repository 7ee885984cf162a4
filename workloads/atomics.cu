// Atomics. histogram_shared: a byte histogram with 256 bins per block in shared memory
// (ATOMS), merged into the global bins once per block. scatter_add_*: 2^20 threads each add
// their value 16 times (global reductions, REDG) into a table at hashed positions, with the
// table's size setting the contention: 2^20, 2^16, 2^10, 32 or 1 distinct addresses. The
// five kernels run the same code and differ only in that size (a runtime argument, so that
// the compiler cannot see a uniform address); their names keep them apart in profiles.
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr unsigned kBins = 256;
constexpr unsigned kHistogramThreads = 512;
constexpr unsigned kHistogramBlocks = 528;  // grid-stride, a fixed grid: 4 blocks per SM of a 132-SM GPU
constexpr unsigned kScatterThreads = 256;
constexpr unsigned kAddsPerThread = 16;

__global__ void histogram_shared(unsigned* __restrict__ bins, const unsigned* __restrict__ words, size_t n) {
  __shared__ unsigned block_bins[kBins];
  for (unsigned b = threadIdx.x; b < kBins; b += blockDim.x) block_bins[b] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x) {
    const unsigned word = words[i];
    for (int byte = 0; byte < 4; ++byte) atomicAdd(&block_bins[(word >> (8 * byte)) & 0xFF], 1u);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < kBins; b += blockDim.x) atomicAdd(&bins[b], block_bins[b]);
}

// The position of thread i's k-th add: a hash (the murmur3 finalizer) masked to the table.
__host__ __device__ inline unsigned scatter_position(unsigned i, unsigned k, unsigned mask) {
  unsigned h = i * kAddsPerThread + k;
  h ^= h >> 16;
  h *= 0x85EBCA6Bu;
  h ^= h >> 13;
  h *= 0xC2B2AE35u;
  h ^= h >> 16;
  return h & mask;
}

__device__ void scatter_add_body(unsigned* table, const unsigned* values, unsigned mask) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned value = values[i];
  for (unsigned k = 0; k < kAddsPerThread; ++k) atomicAdd(&table[scatter_position(i, k, mask)], value);
}

__global__ void scatter_add_distinct_1m(unsigned* table, const unsigned* values, unsigned mask) {
  scatter_add_body(table, values, mask);
}
__global__ void scatter_add_distinct_64k(unsigned* table, const unsigned* values, unsigned mask) {
  scatter_add_body(table, values, mask);
}
__global__ void scatter_add_distinct_1k(unsigned* table, const unsigned* values, unsigned mask) {
  scatter_add_body(table, values, mask);
}
__global__ void scatter_add_distinct_32(unsigned* table, const unsigned* values, unsigned mask) {
  scatter_add_body(table, values, mask);
}
__global__ void scatter_add_distinct_1(unsigned* table, const unsigned* values, unsigned mask) {
  scatter_add_body(table, values, mask);
}

namespace {

bool run_histogram(const Options& options) {
  const size_t n = options.small ? (size_t{1} << 18) : (size_t{1} << 26);  // 4-byte words: 256 MiB
  std::vector<std::uint32_t> words(n);
  fill_bits(words, fresh_seed());
  DeviceBuffer<unsigned> words_d(n), bins_d(kBins);
  words_d.upload(words);
  auto launch = [&] { histogram_shared<<<kHistogramBlocks, kHistogramThreads>>>(bins_d.get(), words_d.get(), n); };
  ROOFCAST_CUDA(cudaMemset(bins_d.get(), 0, kBins * sizeof(unsigned)));
  launch();
  ROOFCAST_CHECK_LAUNCH();
  const std::vector<unsigned> got = bins_d.download();
  std::vector<unsigned> want(kBins, 0);
  for (const auto word : words)
    for (int byte = 0; byte < 4; ++byte) ++want[(word >> (8 * byte)) & 0xFF];
  size_t wrong = 0;
  for (unsigned b = 0; b < kBins; ++b) wrong += got[b] != want[b];
  const bool ok = report_check("histogram_shared", wrong == 0,
                               std::to_string(wrong) + " of 256 bins differ from host over " + std::to_string(n) +
                                   " words");
  time_kernel("histogram_shared", options, launch);
  return ok;
}

using ScatterKernel = void (*)(unsigned*, const unsigned*, unsigned);

bool run_scatter(const char* name, ScatterKernel kernel, unsigned distinct, const std::vector<unsigned>& values,
                 const DeviceBuffer<unsigned>& values_d, const Options& options) {
  const unsigned threads = static_cast<unsigned>(values.size());
  const unsigned mask = distinct - 1;
  DeviceBuffer<unsigned> table_d(distinct);
  ROOFCAST_CUDA(cudaMemset(table_d.get(), 0, distinct * sizeof(unsigned)));
  auto launch = [&] { kernel<<<threads / kScatterThreads, kScatterThreads>>>(table_d.get(), values_d.get(), mask); };
  launch();
  ROOFCAST_CHECK_LAUNCH();
  const std::vector<unsigned> got = table_d.download();
  std::vector<unsigned> want(distinct, 0);  // unsigned sums wrap alike on both sides: exact
  for (unsigned i = 0; i < threads; ++i)
    for (unsigned k = 0; k < kAddsPerThread; ++k) want[scatter_position(i, k, mask)] += values[i];
  size_t wrong = 0;
  for (unsigned d = 0; d < distinct; ++d) wrong += got[d] != want[d];
  const bool ok = report_check(name, wrong == 0,
                               std::to_string(wrong) + " of " + std::to_string(distinct) +
                                   " sums differ from host");
  time_kernel(name, options, launch);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "atomics", "shared-atomic histogram, global scatter-add at 5 contention levels");
  const unsigned threads = options.small ? (1u << 14) : (1u << 20);
  print_header("atomics", std::to_string(threads) + " threads x " + std::to_string(kAddsPerThread) +
                              " adds onto 2^20 .. 1 addresses; histogram of " + (options.small ? "2^18" : "2^26") +
                              " words");
  bool ok = run_histogram(options);

  std::vector<std::uint32_t> values(threads);
  fill_bits(values, fresh_seed());
  for (auto& v : values) v = 1 + (v & 0xFFFF);  // non-zero
  DeviceBuffer<unsigned> values_d(threads);
  values_d.upload(values);
  ok = run_scatter("scatter_add_distinct_1m", scatter_add_distinct_1m, 1u << 20, values, values_d, options) && ok;
  ok = run_scatter("scatter_add_distinct_64k", scatter_add_distinct_64k, 1u << 16, values, values_d, options) && ok;
  ok = run_scatter("scatter_add_distinct_1k", scatter_add_distinct_1k, 1u << 10, values, values_d, options) && ok;
  ok = run_scatter("scatter_add_distinct_32", scatter_add_distinct_32, 32, values, values_d, options) && ok;
  ok = run_scatter("scatter_add_distinct_1", scatter_add_distinct_1, 1, values, values_d, options) && ok;
  return ok ? 0 : 1;
}
