// A short kernel: SAXPY over 32 Ki floats runs for a few microseconds, far under the
// thesis' 0.5 ms limit, so launch overhead and latency dominate its time.
#include <cmath>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr unsigned kThreads = 256;

__global__ void short_saxpy(float* __restrict__ y, const float* __restrict__ x, float alpha, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = alpha * x[i] + y[i];
}

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "short_kernel", "SAXPY over 32 Ki floats (< 0.1 ms)");
  const int n = 1 << 15;  // the point is its shortness: the same size with --small
  print_header("short_kernel", std::to_string(n) + " floats");

  std::vector<float> x(n), y(n);
  fill_uniform(x, -1.0f, 1.0f, fresh_seed());
  fill_uniform(y, -1.0f, 1.0f, fresh_seed() + 5);
  const float alpha = 0.75f;
  DeviceBuffer<float> x_d(n), y_d(n);
  x_d.upload(x);
  y_d.upload(y);
  const unsigned blocks = blocks_for(n, kThreads);
  auto launch = [&] { short_saxpy<<<blocks, kThreads>>>(y_d.get(), x_d.get(), alpha, n); };

  launch();
  ROOFCAST_CHECK_LAUNCH();
  const std::vector<float> got = y_d.download();
  size_t wrong = 0;
  for (int i = 0; i < n; ++i) {
    const float want = std::fma(alpha, x[i], y[i]);
    wrong += !(std::abs(got[i] - want) <= 1e-6f * std::max(1.0f, std::abs(want)));
  }
  const bool ok = report_check("short_saxpy", wrong == 0,
                               std::to_string(wrong) + " of " + std::to_string(n) + " elements differ from host");

  time_kernel("short_saxpy", options, launch);
  return ok ? 0 : 1;
}
