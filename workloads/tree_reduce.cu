// Issue 28, class (b): a tree reduction with a barrier at each step and one block per row.
// Each block sums one row of a 2^26-float matrix: every thread adds its strided share of the
// row, then the block halves its partial sums in shared memory, log2(threads) steps with a
// __syncthreads() after each (no warp shuffles), and thread 0 writes the row's sum. Four
// shapes of the same code (rows of 512 to 4096 floats, blocks of 128 to 1024 threads), each
// its own kernel name (workloads/latency_classes.json says which half each belongs to).
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

template <unsigned kThreads>
__device__ void tree_reduce_body(float* __restrict__ sums, const float* __restrict__ matrix, unsigned columns) {
  __shared__ float partial[kThreads];
  const float* row = matrix + size_t{blockIdx.x} * columns;
  float sum = 0.0f;
  for (unsigned j = threadIdx.x; j < columns; j += kThreads) sum += row[j];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (unsigned stride = kThreads / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = partial[0];
}

__global__ void tree_reduce_t1024_c2048(float* __restrict__ sums, const float* __restrict__ matrix, unsigned columns) {
  tree_reduce_body<1024>(sums, matrix, columns);
}
__global__ void tree_reduce_t256_c1024(float* __restrict__ sums, const float* __restrict__ matrix, unsigned columns) {
  tree_reduce_body<256>(sums, matrix, columns);
}
__global__ void tree_reduce_t512_c512(float* __restrict__ sums, const float* __restrict__ matrix, unsigned columns) {
  tree_reduce_body<512>(sums, matrix, columns);
}
__global__ void tree_reduce_t128_c4096(float* __restrict__ sums, const float* __restrict__ matrix, unsigned columns) {
  tree_reduce_body<128>(sums, matrix, columns);
}

namespace {

using ReduceKernel = void (*)(float*, const float*, unsigned);

struct Configuration {
  const char* name;
  ReduceKernel kernel;
  unsigned threads, columns;
};

// The kernel's sum of one row, in its order of float additions: bit-exact.
float host_row_sum(const float* row, unsigned columns, unsigned threads) {
  std::vector<float> partial(threads, 0.0f);
  for (unsigned t = 0; t < threads; ++t)
    for (unsigned j = t; j < columns; j += threads) partial[t] += row[j];
  for (unsigned stride = threads / 2; stride > 0; stride /= 2)
    for (unsigned t = 0; t < stride; ++t) partial[t] += partial[t + stride];
  return partial[0];
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "tree_reduce", "row sums by barrier-per-step tree reductions, one block per row");
  const size_t n = options.small ? (size_t{1} << 18) : (size_t{1} << 26);
  print_header("tree_reduce", std::to_string(n) + " floats as rows of 512-4096");

  std::vector<float> matrix(n);
  fill_uniform(matrix, 0.5f, 1.5f, fresh_seed());
  DeviceBuffer<float> matrix_d(n);
  matrix_d.upload(matrix);

  const Configuration configurations[] = {
      {"tree_reduce_t1024_c2048", tree_reduce_t1024_c2048, 1024, 2048},
      {"tree_reduce_t256_c1024", tree_reduce_t256_c1024, 256, 1024},
      {"tree_reduce_t512_c512", tree_reduce_t512_c512, 512, 512},
      {"tree_reduce_t128_c4096", tree_reduce_t128_c4096, 128, 4096},
  };
  bool ok = true;
  for (const Configuration& c : configurations) {
    const unsigned rows = static_cast<unsigned>(n / c.columns);
    DeviceBuffer<float> sums_d(rows);
    auto launch = [&] { c.kernel<<<rows, c.threads>>>(sums_d.get(), matrix_d.get(), c.columns); };
    sums_d.poison();
    launch();
    ROOFCAST_CHECK_LAUNCH();
    const std::vector<float> got = sums_d.download();
    size_t wrong = 0;
    for (unsigned r = 0; r < rows; ++r)
      wrong += got[r] != host_row_sum(matrix.data() + size_t{r} * c.columns, c.columns, c.threads);
    ok = report_check(c.name, wrong == 0,
                      std::to_string(wrong) + " of " + std::to_string(rows) +
                          " row sums differ from the host's sums in the same order (bit-exact)") &&
         ok;
    time_kernel(c.name, options, launch);
  }
  return ok ? 0 : 1;
}
