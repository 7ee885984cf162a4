// A divergent kernel: each thread takes one of four paths at random (8, 16, 32 or 64
// dependent single-precision FMAs), so every warp runs all four paths one after another
// with most of its lanes idle.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr unsigned kThreads = 256;

__host__ __device__ inline float fma_chain(float x, int steps, float scale, float shift) {
  for (int s = 0; s < steps; ++s) x = fmaf(x, scale, shift);
  return x;
}

// The path of each selector value; scales below 1 keep values bounded.
__host__ __device__ inline float divergent_path(float x, std::uint32_t selector) {
  switch (selector & 3u) {
    case 0: return fma_chain(x, 8, 0.99f, 0.01f);
    case 1: return fma_chain(x, 16, 0.98f, 0.02f);
    case 2: return fma_chain(x, 32, 0.97f, 0.03f);
    default: return fma_chain(x, 64, 0.96f, 0.04f);
  }
}

__global__ void divergent_branches(const float* __restrict__ in, const std::uint32_t* __restrict__ selector,
                                   float* __restrict__ out, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = divergent_path(in[i], selector[i]);
}

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "divergent", "four-way divergent FMA chains");
  const size_t n = options.small ? (size_t{1} << 16) : (size_t{1} << 25);
  print_header("divergent", std::to_string(n) + " floats, 4 random paths");

  std::vector<float> in(n);
  std::vector<std::uint32_t> selector(n);
  fill_uniform(in, -1.0f, 1.0f, fresh_seed());
  fill_bits(selector, fresh_seed() + 3);
  DeviceBuffer<float> in_d(n), out_d(n);
  DeviceBuffer<std::uint32_t> selector_d(n);
  in_d.upload(in);
  selector_d.upload(selector);
  const unsigned blocks = blocks_for(n, kThreads);
  auto launch = [&] { divergent_branches<<<blocks, kThreads>>>(in_d.get(), selector_d.get(), out_d.get(), n); };

  out_d.poison();
  launch();
  ROOFCAST_CHECK_LAUNCH();
  const std::vector<float> out = out_d.download();
  const auto checked = elements_to_check(n, size_t{1} << 20);
  // Every element is checked for having been written (the poison is NaN), a sample against the host.
  size_t wrong = static_cast<size_t>(std::count_if(out.begin(), out.end(), [](float v) { return std::isnan(v); }));
  for (const size_t i : checked) {
    const float want = divergent_path(in[i], selector[i]);
    wrong += !(std::abs(out[i] - want) <= 1e-6f * std::max(1.0f, std::abs(want)));
  }
  const bool ok = report_check("divergent_branches", wrong == 0,
                               std::to_string(wrong) + " of " + std::to_string(checked.size()) +
                                   " checked elements differ from host");

  time_kernel("divergent_branches", options, launch);
  return ok ? 0 : 1;
}
