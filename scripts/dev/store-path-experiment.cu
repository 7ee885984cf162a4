// How scattered stores and a chain of dependent loads share an SM (issue 28, merge_chains and
// pack_pairs): a synthetic kernel in which each thread walks a chain of dependent loads (one new
// sector per step, read through L2 with ld.global.cg) and, each step, stores one 4-byte word to a
// region of its own (lanes `steps` words apart: 32 lines per store instruction, successive steps
// fill each line, as a merge's output does). Modes: the chain alone, the stores alone (the same
// addresses, no loads), both; and both with coalesced stores (lanes on adjacent words) as a
// control. Blocks are held to a chosen number per SM by their dynamic shared memory, so that the
// busy SMs and the warps per SM are known. The chain's data is past L2 or within it.
// Prints one markdown row per configuration: median ms of 5 launches after one warm-up (CUDA
// events), the SM cycles per step and the scattered stores per busy SM per cycle.
// Usage: store-path-experiment TARGET_LABEL [MAX_BUSY_SMS]
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK(call)                                                                            \
  do {                                                                                         \
    cudaError_t e = (call);                                                                    \
    if (e != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e)); \
      std::exit(1);                                                                            \
    }                                                                                          \
  } while (0)

constexpr int kSteps = 512;
constexpr uint32_t kSectorWords = 8;
enum Mode { kChain = 1, kStores = 2, kBoth = 3, kBothCoalesced = 7 };

// next[i] holds the index of the thread's following sector (a cycle of `window` sectors).
__global__ void chain_store_kernel(const uint32_t* __restrict__ next, uint32_t* out, int mode, uint32_t window) {
  extern __shared__ uint32_t unused[];
  const uint32_t thread = blockIdx.x * blockDim.x + threadIdx.x;
  const uint32_t threads = gridDim.x * blockDim.x;
  uint32_t index = thread * window * kSectorWords;
  const bool loads = mode & 1, stores = mode & 2, coalesced = mode & 4;
  uint32_t* mine = coalesced ? out + thread : out + size_t(thread) * kSteps;
  const uint32_t stride = coalesced ? threads : 1;
#pragma unroll 1
  for (int s = 0; s < kSteps; ++s) {
    if (loads) index = __ldcg(next + index);
    else index += kSectorWords;
    if (stores) mine[size_t(s) * stride] = index;
  }
  if (!stores && index == 0xffffffffu) out[thread] = index + unused[0];
}

int main(int argc, char** argv) {
  const std::string target = argc > 1 ? argv[1] : "GPU";
  int device = 0, sms = 0, clock_khz = 0, smem_per_sm = 0, l2 = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device));
  CHECK(cudaDeviceGetAttribute(&smem_per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device));
  CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  const int max_busy = argc > 2 ? std::atoi(argv[2]) : sms;
  CHECK(cudaFuncSetAttribute(chain_store_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_per_sm - 2048));
  const double ghz = clock_khz / 1e6;

  const size_t max_threads = size_t(max_busy) * 2048;
  const uint32_t dram_window = kSteps, l2_window = std::max<uint32_t>(2, uint32_t(l2 / 3 / 32 / max_threads));
  std::vector<uint32_t> host(max_threads * dram_window * kSectorWords, 1u);
  auto fill = [&](uint32_t window) {
    for (size_t t = 0; t < max_threads; ++t)
      for (uint32_t w = 0; w < window; ++w)
        host[(t * window + w) * kSectorWords] = uint32_t((t * window + (w + 1) % window) * kSectorWords);
  };
  uint32_t *next_dram, *next_l2, *out;
  CHECK(cudaMalloc(&next_dram, host.size() * 4));
  CHECK(cudaMalloc(&next_l2, max_threads * l2_window * kSectorWords * 4));
  CHECK(cudaMalloc(&out, max_threads * kSteps * 4));
  fill(dram_window);
  CHECK(cudaMemcpy(next_dram, host.data(), host.size() * 4, cudaMemcpyHostToDevice));
  fill(l2_window);
  CHECK(cudaMemcpy(next_l2, host.data(), max_threads * l2_window * kSectorWords * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0x5a, max_threads * kSteps * 4));

  cudaEvent_t start, stop;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  std::printf("| target | threads/block | blocks/SM | warps/SM | busy SMs | chain data | mode | median ms | "
              "cycles/step | scattered stores /SM/cycle |\n|---|---:|---:|---:|---:|---|---|---:|---:|---:|\n");
  const std::vector<int> busy_counts = {8, 16, 32, 64, 132};
  for (int threads : {256, 512, 1024})
    for (int per_sm : {1, 2})
      for (int busy : busy_counts) {
        if (busy > max_busy) continue;
        const int blocks = busy * per_sm;
        const size_t smem = size_t(smem_per_sm) / per_sm - 2048;
        int active = 0;
        CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, chain_store_kernel, threads, smem));
        if (active != per_sm) continue;  // 2 x 1024 threads does not fit: the SM's limit is 2048
        for (const bool in_l2 : {false, true})
          for (const int mode : {kChain, kStores, kBoth, kBothCoalesced}) {
            if (in_l2 && mode == kStores) continue;
            const uint32_t* next = in_l2 ? next_l2 : next_dram;
            const uint32_t window = in_l2 ? l2_window : dram_window;
            std::vector<float> times;
            for (int r = 0; r < 6; ++r) {
              CHECK(cudaEventRecord(start));
              chain_store_kernel<<<blocks, threads, smem>>>(next, out, mode, window);
              CHECK(cudaGetLastError());
              CHECK(cudaEventRecord(stop));
              CHECK(cudaEventSynchronize(stop));
              float ms = 0;
              CHECK(cudaEventElapsedTime(&ms, start, stop));
              if (r > 0) times.push_back(ms);
            }
            std::sort(times.begin(), times.end());
            const double ms = times[times.size() / 2];
            const double cycles_per_step = ms * 1e6 * ghz / kSteps;
            const double stores_per_sm = (mode & 2) && !(mode & 4) ? double(blocks) * threads * kSteps / busy / (ms * 1e6 * ghz) : 0;
            const char* names[] = {"", "chain", "stores", "both", "", "", "", "both, coalesced stores"};
            std::printf("| %s | %d | %d | %d | %d | %s | %s | %.4f | %.0f | %.3f |\n", target.c_str(), threads, per_sm,
                        threads / 32 * per_sm, busy, in_l2 ? "L2" : "DRAM", names[mode], ms, cycles_per_step,
                        stores_per_sm);
          }
      }
  return 0;
}
