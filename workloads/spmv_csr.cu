// Held-out (docs/validation/heldout): sparse matrix-vector product y = A x in CSR form, fp64,
// the two classic kernels (Bell and Garland, "Efficient Sparse Matrix-Vector Multiplication on
// CUDA", 2008). The scalar kernel gives each row to one thread: a warp's lanes walk 32 rows at
// once, so every load is spread over 32 lines. The vector kernel gives each row to one warp: the
// lanes read the row's entries side by side and sum them with shuffles. Rows hold 1 to 47
// entries (24 on average) at random columns; x (8 MiB) stays in L2, the matrix streams from DRAM.
#include <functional>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr unsigned kThreads = 256;
constexpr unsigned kWarpsPerBlock = kThreads / 32;
constexpr unsigned kMaxRowLength = 47;

__global__ void spmv_csr_scalar(double* __restrict__ y, const unsigned* __restrict__ row_start,
                                const unsigned* __restrict__ columns, const double* __restrict__ values,
                                const double* __restrict__ x, unsigned rows) {
  const unsigned row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= rows) return;
  double sum = 0;
  for (unsigned e = row_start[row]; e < row_start[row + 1]; ++e) sum += values[e] * x[columns[e]];
  y[row] = sum;
}

__global__ void spmv_csr_vector(double* __restrict__ y, const unsigned* __restrict__ row_start,
                                const unsigned* __restrict__ columns, const double* __restrict__ values,
                                const double* __restrict__ x, unsigned rows) {
  const unsigned row = blockIdx.x * kWarpsPerBlock + threadIdx.x / 32;
  const unsigned lane = threadIdx.x % 32;
  if (row >= rows) return;  // a whole warp leaves together
  double sum = 0;
  for (unsigned e = row_start[row] + lane; e < row_start[row + 1]; e += 32) sum += values[e] * x[columns[e]];
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xFFFFFFFFu, sum, offset);
  if (lane == 0) y[row] = sum;
}

namespace {

struct CsrMatrix {
  std::vector<unsigned> row_start;  // rows + 1 offsets into columns and values
  std::vector<unsigned> columns;
  std::vector<double> values;
};

CsrMatrix random_matrix(unsigned rows, std::uint64_t seed) {
  std::vector<std::uint32_t> lengths(rows);
  fill_bits(lengths, seed);
  CsrMatrix a;
  a.row_start.resize(rows + 1);
  a.row_start[0] = 0;
  for (unsigned r = 0; r < rows; ++r) a.row_start[r + 1] = a.row_start[r] + 1 + lengths[r] % kMaxRowLength;
  const size_t entries = a.row_start[rows];
  a.columns.resize(entries);
  fill_bits(a.columns, seed + 1);
  for (auto& c : a.columns) c %= rows;
  a.values.resize(entries);
  fill_uniform(a.values, 0.5, 1.5, seed + 2);  // positive: no row sums near zero
  return a;
}

std::vector<double> host_product(const CsrMatrix& a, const std::vector<double>& x) {
  const size_t rows = a.row_start.size() - 1;
  std::vector<double> y(rows);
  for (size_t r = 0; r < rows; ++r) {
    double sum = 0;
    for (unsigned e = a.row_start[r]; e < a.row_start[r + 1]; ++e) sum += a.values[e] * x[a.columns[e]];
    y[r] = sum;
  }
  return y;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "spmv_csr", "sparse matrix-vector product in CSR, fp64");
  const unsigned rows = options.small ? (1u << 14) : (1u << 20);
  const CsrMatrix a = random_matrix(rows, fresh_seed());
  const size_t entries = a.columns.size();
  print_header("spmv_csr", std::to_string(rows) + " x " + std::to_string(rows) + ", " + std::to_string(entries) +
                               " non-zeros");

  std::vector<double> x(rows);
  fill_uniform(x, 0.5, 1.5, fresh_seed() + 3);
  DeviceBuffer<unsigned> row_start_d(rows + 1), columns_d(entries);
  DeviceBuffer<double> values_d(entries), x_d(rows), y_d(rows);
  row_start_d.upload(a.row_start);
  columns_d.upload(a.columns);
  values_d.upload(a.values);
  x_d.upload(x);

  auto launch_scalar = [&] {
    spmv_csr_scalar<<<blocks_for(rows, kThreads), kThreads>>>(y_d.get(), row_start_d.get(), columns_d.get(),
                                                              values_d.get(), x_d.get(), rows);
  };
  auto launch_vector = [&] {
    spmv_csr_vector<<<blocks_for(rows, kWarpsPerBlock), kThreads>>>(y_d.get(), row_start_d.get(), columns_d.get(),
                                                                    values_d.get(), x_d.get(), rows);
  };

  // Each kernel from a poisoned y, against the host's product on every row.
  const std::vector<double> want = host_product(a, x);
  auto check = [&](const std::string& name, const std::function<void()>& launch) {
    y_d.poison();
    launch();
    ROOFCAST_CHECK_LAUNCH();
    const double error = max_relative_error(y_d.download(), want);
    return report_check(name, error < 1e-13, "max relative error " + scientific(error) + " vs host, every row");
  };
  bool ok = check("spmv_csr_scalar", launch_scalar);
  ok &= check("spmv_csr_vector", launch_vector);

  time_kernel("spmv_csr_scalar", options, launch_scalar);
  time_kernel("spmv_csr_vector", options, launch_vector);
  return ok ? 0 : 1;
}
