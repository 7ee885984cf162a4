// The four STREAM kernels in double precision (McCalpin's copy, scale, add, triad): pure
// DRAM streams, one element per thread, arrays far larger than the L2 cache.
#include <algorithm>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr double kScalar = 3.0;
constexpr unsigned kThreads = 256;

__global__ void stream_copy(double* __restrict__ c, const double* __restrict__ a, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i];
}
__global__ void stream_scale(double* __restrict__ b, const double* __restrict__ c, size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) b[i] = kScalar * c[i];
}
__global__ void stream_add(double* __restrict__ c, const double* __restrict__ a, const double* __restrict__ b,
                           size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void stream_triad(double* __restrict__ a, const double* __restrict__ b, const double* __restrict__ c,
                             size_t n) {
  const size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) a[i] = b[i] + kScalar * c[i];
}

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "stream", "STREAM copy, scale, add, triad in fp64");
  const size_t n = options.small ? (size_t{1} << 20) : (size_t{1} << 26);
  print_header("stream", std::to_string(n) + " doubles per array (" + std::to_string(n * 8 >> 20) + " MiB)");

  std::vector<double> a(n), b(n), c(n);
  fill_uniform(a, 0.5, 1.5, fresh_seed());
  fill_uniform(b, 0.5, 1.5, fresh_seed() + 1);
  fill_uniform(c, 0.5, 1.5, fresh_seed() + 2);
  DeviceBuffer<double> a_d(n), b_d(n), c_d(n);
  a_d.upload(a);
  b_d.upload(b);
  c_d.upload(c);

  const unsigned blocks = blocks_for(n, kThreads);
  auto copy = [&] { stream_copy<<<blocks, kThreads>>>(c_d.get(), a_d.get(), n); };
  auto scale = [&] { stream_scale<<<blocks, kThreads>>>(b_d.get(), c_d.get(), n); };
  auto add = [&] { stream_add<<<blocks, kThreads>>>(c_d.get(), a_d.get(), b_d.get(), n); };
  auto triad = [&] { stream_triad<<<blocks, kThreads>>>(a_d.get(), b_d.get(), c_d.get(), n); };

  // One round of the four, on the device and on the host, from fresh random arrays.
  copy();
  ROOFCAST_CHECK_LAUNCH();
  scale();
  ROOFCAST_CHECK_LAUNCH();
  add();
  ROOFCAST_CHECK_LAUNCH();
  triad();
  ROOFCAST_CHECK_LAUNCH();
  for (size_t i = 0; i < n; ++i) {
    c[i] = a[i];
    b[i] = kScalar * c[i];
    c[i] = a[i] + b[i];
    a[i] = b[i] + kScalar * c[i];
  }
  const double error = std::max({max_relative_error(a_d.download(), a), max_relative_error(b_d.download(), b),
                                 max_relative_error(c_d.download(), c)});
  const bool ok = report_check("stream", error < 1e-14, "max relative error " + scientific(error) + " vs host");

  time_kernel("stream_copy", options, copy);
  time_kernel("stream_scale", options, scale);
  time_kernel("stream_add", options, add);
  time_kernel("stream_triad", options, triad);
  return ok ? 0 : 1;
}
