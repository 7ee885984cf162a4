// Issue 28, class (c): a 1024-bin histogram in shared memory with atomics. Every 32-bit word
// holds three 10-bit bin numbers; each block counts its words' bins with shared-memory
// atomics, then adds its 1024 counts to the global histogram. Two inputs: 2^26 words of
// uniform bins, and 2^25 of skewed ones (bin = 1024 u^4: bin 0 takes 18 %, so the lanes of
// a warp often hit the same bin and their atomics serialize); each with 256- and 1024-thread blocks
// on a fixed grid (8 or 2 blocks per SM of a 132-SM GPU). Four kernels of the same code
// (workloads/latency_classes.json says which half each belongs to).
#include <algorithm>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr unsigned kBins = 1024;
constexpr unsigned kBinBits = 10;

__device__ void histogram1024_body(unsigned* __restrict__ bins, const unsigned* __restrict__ words, size_t n) {
  __shared__ unsigned block_bins[kBins];
  for (unsigned b = threadIdx.x; b < kBins; b += blockDim.x) block_bins[b] = 0;
  __syncthreads();
  for (size_t i = blockIdx.x * size_t{blockDim.x} + threadIdx.x; i < n; i += size_t{gridDim.x} * blockDim.x) {
    const unsigned word = words[i];
    atomicAdd(&block_bins[word & (kBins - 1)], 1u);
    atomicAdd(&block_bins[(word >> kBinBits) & (kBins - 1)], 1u);
    atomicAdd(&block_bins[(word >> (2 * kBinBits)) & (kBins - 1)], 1u);
  }
  __syncthreads();
  for (unsigned b = threadIdx.x; b < kBins; b += blockDim.x) atomicAdd(&bins[b], block_bins[b]);
}

#define HISTOGRAM1024_KERNEL(name)                                                                         \
  __global__ void name(unsigned* __restrict__ bins, const unsigned* __restrict__ words, size_t n) {       \
    histogram1024_body(bins, words, n);                                                                    \
  }
HISTOGRAM1024_KERNEL(histogram1024_uniform_t256)
HISTOGRAM1024_KERNEL(histogram1024_skewed_t1024)
HISTOGRAM1024_KERNEL(histogram1024_uniform_t1024)
HISTOGRAM1024_KERNEL(histogram1024_skewed_t256)

namespace {

using HistogramKernel = void (*)(unsigned*, const unsigned*, size_t);

// Words of three uniform bins, or of three bins drawn as 1024 u^4 (u uniform in [0, 1)).
std::vector<unsigned> words_of(size_t n, bool skewed, std::uint64_t seed) {
  std::vector<std::uint32_t> words(n);
  fill_bits(words, seed);
  if (!skewed) return words;
  std::vector<std::uint32_t> draws(3 * 4096);  // a chunk of words' draws at a time
  for (size_t first = 0; first < n; first += 4096) {
    fill_bits(draws, seed + 1 + first);
    for (size_t i = first; i < std::min(n, first + 4096); ++i) {
      unsigned word = 0;
      for (unsigned field = 0; field < 3; ++field) {
        const double u = draws[3 * (i - first) + field] * 0x1.0p-32;
        word |= std::min(kBins - 1, static_cast<unsigned>(kBins * u * u * u * u)) << (kBinBits * field);
      }
      words[i] = word;
    }
  }
  return words;
}

std::vector<unsigned> host_histogram(const std::vector<unsigned>& words) {
  std::vector<unsigned> bins(kBins, 0);
  for (const unsigned word : words)
    for (unsigned field = 0; field < 3; ++field) ++bins[(word >> (kBinBits * field)) & (kBins - 1)];
  return bins;
}

bool run(const char* name, HistogramKernel kernel, unsigned blocks, unsigned threads,
         const DeviceBuffer<unsigned>& words_d, const std::vector<unsigned>& want, const Options& options) {
  DeviceBuffer<unsigned> bins_d(kBins);
  const size_t n = words_d.count();
  auto launch = [&] { kernel<<<blocks, threads>>>(bins_d.get(), words_d.get(), n); };
  ROOFCAST_CUDA(cudaMemset(bins_d.get(), 0, kBins * sizeof(unsigned)));  // the kernel adds onto it
  launch();
  ROOFCAST_CHECK_LAUNCH();
  const std::vector<unsigned> got = bins_d.download();
  size_t wrong = 0;
  for (unsigned b = 0; b < kBins; ++b) wrong += got[b] != want[b];
  const bool ok = report_check(name, wrong == 0,
                               std::to_string(wrong) + " of 1024 bins differ from host over " + std::to_string(n) +
                                   " words (3 bins each)");
  time_kernel(name, options, launch);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "histogram1024", "1024-bin shared-memory histograms, uniform and skewed bins");
  // Uniform bins: 2^26 words; skewed ones, slower per word (their atomics collide): 2^25.
  const size_t n_uniform = options.small ? (size_t{1} << 16) : (size_t{1} << 26), n_skewed = n_uniform / 2;
  print_header("histogram1024", std::to_string(n_uniform) + " words of 3 uniform bins each, " +
                                    std::to_string(n_skewed) + " of 3 skewed bins");
  const std::uint64_t seed = fresh_seed();
  bool ok = true;
  for (const bool skewed : {false, true}) {
    const size_t n = skewed ? n_skewed : n_uniform;
    const std::vector<unsigned> words = words_of(n, skewed, seed + (skewed ? 2 : 0));
    const std::vector<unsigned> want = host_histogram(words);
    DeviceBuffer<unsigned> words_d(n);
    words_d.upload(words);
    // A fixed grid, whatever the GPU: 8 blocks of 256 or 2 of 1024 threads per SM of 132.
    if (!skewed) {
      ok = run("histogram1024_uniform_t256", histogram1024_uniform_t256, 1056, 256, words_d, want, options) && ok;
      ok = run("histogram1024_uniform_t1024", histogram1024_uniform_t1024, 264, 1024, words_d, want, options) && ok;
    } else {
      ok = run("histogram1024_skewed_t1024", histogram1024_skewed_t1024, 264, 1024, words_d, want, options) && ok;
      ok = run("histogram1024_skewed_t256", histogram1024_skewed_t256, 1056, 256, words_d, want, options) && ok;
    }
  }
  return ok ? 0 : 1;
}
