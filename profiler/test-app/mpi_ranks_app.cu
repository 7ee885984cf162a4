// An MPI + CUDA program for `roofcast profile -- mpirun -np N ...` (issue 15): every rank r
// takes GPU r modulo the GPUs it sees (as MPI programs spread ranks over a node's GPUs),
// launches rank_step LAUNCHES times on a grid of 4 + r blocks of 128 threads, then rank_sum
// once, and the ranks add their sums with MPI_Allreduce (host buffers: no CUDA-aware MPI needed).
//   --launches N    (default 30)
// Exit status: 0, 2 on a CUDA error, 4 when the reduced sum is not the expected one.
#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <cuda_runtime_api.h>

__global__ void rank_step(float* values, float factor) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  values[i] = values[i] * factor + 1.0f;
}

__global__ void rank_sum(const float* values, unsigned n, float* sum) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    float total = 0;
    for (unsigned i = 0; i < n; ++i) total += values[i];
    *sum = total;
  }
}

#define CHECK(call)                                                                          \
  do {                                                                                       \
    const cudaError_t status = (call);                                                       \
    if (status != cudaSuccess) {                                                             \
      std::fprintf(stderr, "mpi_ranks: %s: %s\n", #call, cudaGetErrorString(status));       \
      MPI_Abort(MPI_COMM_WORLD, 2);                                                          \
    }                                                                                        \
  } while (0)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int launches = 30;
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--launches") == 0 && i + 1 < argc) launches = std::atoi(argv[++i]);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int devices = 0;
  CHECK(cudaGetDeviceCount(&devices));
  const int device = devices > 0 ? rank % devices : 0;
  CHECK(cudaSetDevice(device));

  const unsigned blocks = 4 + static_cast<unsigned>(rank), threads = 128, n = blocks * threads;
  float* values = nullptr;
  float* sum = nullptr;
  CHECK(cudaMalloc(&values, n * sizeof(float)));
  CHECK(cudaMalloc(&sum, sizeof(float)));
  CHECK(cudaMemset(values, 0, n * sizeof(float)));
  for (int i = 0; i < launches; ++i) rank_step<<<blocks, threads>>>(values, 0.5f);
  rank_sum<<<1, 32>>>(values, n, sum);
  CHECK(cudaGetLastError());
  float local = 0;
  CHECK(cudaMemcpy(&local, sum, sizeof local, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(values));
  CHECK(cudaFree(sum));

  double total = 0, mine = local;
  MPI_Allreduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  // Every value converges to 2 (x -> x / 2 + 1 from 0): 2 - 2^(1 - launches) each.
  double expected = 0;
  for (int r = 0; r < size; ++r) expected += (4.0 + r) * threads * (2.0 - std::ldexp(1.0, 1 - launches));
  const bool ok = std::fabs(total - expected) <= 1e-3 * expected;
  std::printf("rank %d of %d on device %d of %d: %u values, local sum %.3f, all ranks %.3f (%s)\n", rank, size,
              device, devices, n, local, total, ok ? "ok" : "WRONG");
  MPI_Finalize();
  return ok ? 0 : 4;
}
