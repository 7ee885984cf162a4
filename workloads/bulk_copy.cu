// A bulk-copy kernel on Hopper (sm_90): y = alpha * x over 2^27 floats with all global
// memory moved by the tensor memory accelerator (cp.async.bulk), none by per-thread loads
// or stores. Each block takes 32 KiB tiles in turn: one thread starts the bulk load into
// shared memory and the block waits on an mbarrier for its bytes; the threads scale the
// tile in shared memory; one thread bulk-stores it back and waits until the store has read
// shared memory before the next tile. Built for sm_90 only; skipped on older GPUs.
#include <cstdint>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr unsigned kTileFloats = 8192;  // 32 KiB: up to 7 blocks per SM
constexpr unsigned kTileBytes = kTileFloats * sizeof(float);
constexpr unsigned kThreads = 256;
constexpr unsigned kBlocks = 132 * 4;  // grid-stride over the tiles, a fixed grid

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
namespace {

__device__ unsigned shared_address(const void* pointer) {
  return static_cast<unsigned>(__cvta_generic_to_shared(pointer));
}

__device__ void mbarrier_init(std::uint64_t* barrier, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(barrier)), "r"(arrivals) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

// The calling thread arrives and announces `bytes` of transactions, then starts the bulk
// load of `bytes` from global `source` to shared `destination`; the mbarrier's phase ends
// when they have all landed.
__device__ void bulk_load(void* destination, const void* source, unsigned bytes, std::uint64_t* barrier) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(barrier)), "r"(bytes)
               : "memory");
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   shared_address(destination)),
               "l"(source), "r"(bytes), "r"(shared_address(barrier))
               : "memory");
}

__device__ void wait_for_phase(std::uint64_t* barrier, unsigned parity) {
  unsigned done = 0;
  while (!done)
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}"
        : "=r"(done)
        : "r"(shared_address(barrier)), "r"(parity)
        : "memory");
}

// Bulk store of `bytes` from shared `source` to global `destination`; returns once the copy
// has read shared memory (the tile may then be overwritten).
__device__ void bulk_store(void* destination, const void* source, unsigned bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(destination),
               "r"(shared_address(source)), "r"(bytes)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

}  // namespace
#endif

__global__ void bulk_copy_scale(float* __restrict__ y, const float* __restrict__ x, float alpha, size_t tiles) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ alignas(128) float tile[kTileFloats];
  __shared__ std::uint64_t loaded;
  if (threadIdx.x == 0) mbarrier_init(&loaded, 1);
  __syncthreads();
  unsigned parity = 0;
  for (size_t t = blockIdx.x; t < tiles; t += gridDim.x, parity ^= 1) {
    if (threadIdx.x == 0) bulk_load(tile, x + t * kTileFloats, kTileBytes, &loaded);
    wait_for_phase(&loaded, parity);
    for (unsigned j = threadIdx.x; j < kTileFloats; j += blockDim.x) tile[j] *= alpha;
    // Make the threads' shared-memory writes visible to the bulk copy (the async proxy).
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    if (threadIdx.x == 0) {
      bulk_store(y + t * kTileFloats, tile, kTileBytes);
      asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");  // the tile is in global memory
    }
    __syncthreads();
  }
#else
  __trap();  // built for sm_90 only (workloads/CMakeLists.txt); main() skips older GPUs
#endif
}

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "bulk_copy", "y = alpha x moved by TMA bulk copies (sm_90)");
  int device = 0, major = 0, minor = 0;
  ROOFCAST_CUDA(cudaGetDevice(&device));
  ROOFCAST_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  ROOFCAST_CUDA(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  if (major < 9) {
    std::printf("skip bulk_copy: needs compute capability 9.0 (Hopper) for cp.async.bulk, this GPU has %d.%d\n", major,
                minor);
    return 0;
  }
  const size_t n = options.small ? (size_t{1} << 20) : (size_t{1} << 27);  // 512 MiB per array
  const size_t tiles = n / kTileFloats;
  print_header("bulk_copy", std::to_string(n) + " floats in " + std::to_string(tiles) + " tiles of 32 KiB");

  std::vector<float> x(n);
  fill_uniform(x, -1.0f, 1.0f, fresh_seed());
  const float alpha = 1.5f;
  DeviceBuffer<float> x_d(n), y_d(n);
  x_d.upload(x);
  y_d.poison();
  auto launch = [&] { bulk_copy_scale<<<kBlocks, kThreads>>>(y_d.get(), x_d.get(), alpha, tiles); };
  launch();
  ROOFCAST_CHECK_LAUNCH();
  const std::vector<float> y = y_d.download();
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) wrong += y[i] != alpha * x[i];  // one rounding on both sides
  const bool ok = report_check("bulk_copy_scale", wrong == 0,
                               std::to_string(wrong) + " of " + std::to_string(n) + " elements differ from host");
  time_kernel("bulk_copy_scale", options, launch);
  return ok ? 0 : 1;
}
