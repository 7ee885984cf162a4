// Issue 28, class (j): block dispatch. Kernels of trivial work (y = a x + b, one element per
// thread) launched with hundreds of thousands of tiny blocks: 262,144 blocks of 16 threads,
// 524,288 of 8, 131,072 of 32, and a 1024 x 1024 grid of 4-thread blocks. Each block's work
// takes a few hundred nanoseconds, so the time is the GPU's rate of starting blocks
// (`block_dispatch_gblocks` of `roofcast bench`), not its bandwidth or its arithmetic
// (workloads/latency_classes.json says which half each kernel belongs to).
#include <cmath>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

__device__ void dispatch_body(float* __restrict__ out, const float* __restrict__ in, float a, float b) {
  const unsigned i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  out[i] = fmaf(in[i], a, b);
}

#define BLOCK_DISPATCH_KERNEL(name)                                                                   \
  __global__ void name(float* __restrict__ out, const float* __restrict__ in, float a, float b) {     \
    dispatch_body(out, in, a, b);                                                                     \
  }
BLOCK_DISPATCH_KERNEL(block_dispatch_t16)
BLOCK_DISPATCH_KERNEL(block_dispatch_t8)
BLOCK_DISPATCH_KERNEL(block_dispatch_t32)
BLOCK_DISPATCH_KERNEL(block_dispatch_t4_2d)

namespace {

using DispatchKernel = void (*)(float*, const float*, float, float);

struct Configuration {
  const char* name;
  DispatchKernel kernel;
  dim3 grid;
  unsigned threads;
};

constexpr float kScale = 1.5f, kShift = -0.25f;

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "block_dispatch", "trivial kernels of many tiny blocks: the block dispatch rate");
  const unsigned shrink = options.small ? 64 : 1;  // --small: 64 times fewer blocks
  print_header("block_dispatch", std::to_string(262144 / shrink) + " to " + std::to_string(1048576 / shrink) +
                                     " blocks of 4 to 32 threads, one y = a x + b each");
  const Configuration configurations[] = {
      {"block_dispatch_t16", block_dispatch_t16, dim3(262144 / shrink), 16},
      {"block_dispatch_t8", block_dispatch_t8, dim3(524288 / shrink), 8},
      {"block_dispatch_t32", block_dispatch_t32, dim3(131072 / shrink), 32},
      {"block_dispatch_t4_2d", block_dispatch_t4_2d, dim3(1024, 1024 / shrink), 4},
  };
  const size_t n = size_t{4} << 20;  // every configuration covers at most 4 M elements
  std::vector<float> in(n);
  fill_uniform(in, -1.0f, 1.0f, fresh_seed());
  DeviceBuffer<float> in_d(n), out_d(n);
  in_d.upload(in);
  bool ok = true;
  for (const Configuration& c : configurations) {
    const size_t count = size_t{c.grid.x} * c.grid.y * c.threads;
    auto launch = [&] { c.kernel<<<c.grid, c.threads>>>(out_d.get(), in_d.get(), kScale, kShift); };
    out_d.poison();
    launch();
    ROOFCAST_CHECK_LAUNCH();
    const std::vector<float> out = out_d.download();
    size_t wrong = 0;
    for (size_t i = 0; i < count; ++i) wrong += out[i] != std::fma(in[i], kScale, kShift);  // one rounding each side
    ok = report_check(c.name, wrong == 0,
                      std::to_string(wrong) + " of " + std::to_string(count) + " elements differ from host (" +
                          std::to_string(size_t{c.grid.x} * c.grid.y) + " blocks of " + std::to_string(c.threads) +
                          ", bit-exact)") &&
         ok;
    time_kernel(c.name, options, launch);
  }
  return ok ? 0 : 1;
}
