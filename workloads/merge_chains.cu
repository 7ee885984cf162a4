// Issue 28, class (a): a merge pass with few large blocks, each thread looping over a long
// chain of dependent global loads. Two sorted runs of 2^25 keys in all are merged into one;
// each thread produces a contiguous stretch of the output (merge path): a binary search on
// its diagonal, then a sequential merge in which the next key is loaded from whichever run
// the last comparison took from, so every load waits for the one before it. 16 to 64
// blocks of 512 to 1024 threads on a 132-SM GPU: most SMs idle, each thread's chain of 256
// to 2048 loads exposed. Four configurations of the same code, each its own kernel name
// (workloads/latency_classes.json says which half each belongs to).
#include <algorithm>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

// Merges a[0..na) and b[0..nb) into out: this thread writes out[begin..begin + items).
// Ties go to `a` first, as std::merge does.
__device__ void merge_chains_body(unsigned* __restrict__ out, const unsigned* __restrict__ a, unsigned na,
                                  const unsigned* __restrict__ b, unsigned nb, unsigned items) {
  const unsigned total = na + nb;
  const unsigned long long first = (blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x) * items;
  if (first >= total) return;
  const unsigned begin = static_cast<unsigned>(first);
  const unsigned end = static_cast<unsigned>(min(first + items, static_cast<unsigned long long>(total)));
  // Merge path: how many keys of `a` are among the first `begin` outputs.
  unsigned low = begin > nb ? begin - nb : 0, high = min(begin, na);
  while (low < high) {
    const unsigned middle = (low + high) / 2;
    if (a[middle] <= b[begin - 1 - middle]) low = middle + 1;
    else high = middle;
  }
  unsigned i = low, j = begin - low;
  unsigned next_a = i < na ? a[i] : 0, next_b = j < nb ? b[j] : 0;
  for (unsigned k = begin; k < end; ++k) {
    if (j >= nb || (i < na && next_a <= next_b)) {
      out[k] = next_a;
      ++i;
      next_a = i < na ? a[i] : 0;
    } else {
      out[k] = next_b;
      ++j;
      next_b = j < nb ? b[j] : 0;
    }
  }
}

#define MERGE_CHAINS_KERNEL(name)                                                                              \
  __global__ void name(unsigned* __restrict__ out, const unsigned* __restrict__ a, unsigned na,                 \
                       const unsigned* __restrict__ b, unsigned nb, unsigned items) {                           \
    merge_chains_body(out, a, na, b, nb, items);                                                                \
  }
MERGE_CHAINS_KERNEL(merge_chains_b32_t512)
MERGE_CHAINS_KERNEL(merge_chains_b64_t1024)
MERGE_CHAINS_KERNEL(merge_chains_b48_t768)
MERGE_CHAINS_KERNEL(merge_chains_b16_t1024)

namespace {

using MergeKernel = void (*)(unsigned*, const unsigned*, unsigned, const unsigned*, unsigned, unsigned);

struct Configuration {
  const char* name;
  MergeKernel kernel;
  unsigned blocks, threads;
};

// A sorted run of n keys: random steps of 0 to `max_step` (0: a duplicate) from a random start.
std::vector<unsigned> sorted_run(size_t n, unsigned max_step, std::uint64_t seed) {
  std::vector<std::uint32_t> steps(n);
  fill_bits(steps, seed);
  std::vector<unsigned> run(n);
  unsigned key = steps[0] % 1024;
  for (size_t i = 0; i < n; ++i) run[i] = key += steps[i] % (max_step + 1);
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "merge_chains", "merge passes of few large blocks: dependent load chains");
  const unsigned total = options.small ? (1u << 16) : (1u << 25);
  const unsigned na = total / 16 * 9, nb = total - na;  // unequal runs: the diagonals' splits vary
  print_header("merge_chains", std::to_string(na) + " + " + std::to_string(nb) + " uint32 keys, 16-64 blocks");

  const std::uint64_t seed = fresh_seed();
  const std::vector<unsigned> a = sorted_run(na, 7, seed), b = sorted_run(nb, 5, seed + 1);
  std::vector<unsigned> want(total);
  std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
  DeviceBuffer<unsigned> a_d(na), b_d(nb), out_d(total);
  a_d.upload(a);
  b_d.upload(b);

  const Configuration configurations[] = {
      {"merge_chains_b32_t512", merge_chains_b32_t512, 32, 512},
      {"merge_chains_b64_t1024", merge_chains_b64_t1024, 64, 1024},
      {"merge_chains_b48_t768", merge_chains_b48_t768, 48, 768},
      {"merge_chains_b16_t1024", merge_chains_b16_t1024, 16, 1024},
  };
  bool ok = true;
  for (const Configuration& c : configurations) {
    const unsigned threads = c.blocks * c.threads;
    const unsigned items = (total + threads - 1) / threads;
    auto launch = [&] { c.kernel<<<c.blocks, c.threads>>>(out_d.get(), a_d.get(), na, b_d.get(), nb, items); };
    out_d.poison();
    launch();
    ROOFCAST_CHECK_LAUNCH();
    const std::vector<unsigned> got = out_d.download();
    size_t wrong = 0;
    for (size_t k = 0; k < total; ++k) wrong += got[k] != want[k];
    ok = report_check(c.name, wrong == 0,
                      std::to_string(wrong) + " of " + std::to_string(total) + " merged keys differ from std::merge (" +
                          std::to_string(items) + " dependent loads per thread)") &&
         ok;
    time_kernel(c.name, options, launch);
  }
  return ok ? 0 : 1;
}
