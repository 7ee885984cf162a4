// A process tree for `roofcast profile`'s multi-process and fault handling (issue 15): the
// program forks CHILDREN children before any CUDA call (CUDA state does not survive fork), and
// every process, rank r = 0 (the parent), 1, 2, ..., sets ROOFCAST_TEST_RANK=r and launches
// tree_step LAUNCHES times on a grid of 4 + r blocks, then tree_sum once.
//   --children N    (default 2)     --launches N    (default 40)
//   --grow          launch i of tree_step takes i more steps: its work grows over the run
//   --kill-child    the last child kills itself (SIGKILL) 0.6 s after its kernels
//   --interrupt     the parent sends itself SIGINT after its kernels
// Exit status: 0, or 3 when a child did not exit with 0.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

__global__ void tree_step(float* values, float factor, int extra_steps) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  float value = values[i] * factor + 1.0f;
  for (int step = 0; step < extra_steps; ++step) value = value * factor + 1.0f;
  values[i] = value;
}

__global__ void tree_sum(const float* values, unsigned n, float* sum) {
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
      std::fprintf(stderr, "fork_tree: %s: %s\n", #call, cudaGetErrorString(status));       \
      std::exit(2);                                                                          \
    }                                                                                        \
  } while (0)

int run_kernels(int rank, int launches, bool grow) {
  const unsigned blocks = 4 + static_cast<unsigned>(rank), threads = 128, n = blocks * threads;
  float* values = nullptr;
  float* sum = nullptr;
  CHECK(cudaMalloc(&values, n * sizeof(float)));
  CHECK(cudaMalloc(&sum, sizeof(float)));
  CHECK(cudaMemset(values, 0, n * sizeof(float)));
  for (int i = 0; i < launches; ++i) tree_step<<<blocks, threads>>>(values, 0.5f, grow ? i : 0);
  tree_sum<<<1, 32>>>(values, n, sum);
  float host = 0;
  CHECK(cudaMemcpy(&host, sum, sizeof host, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(values));
  CHECK(cudaFree(sum));
  // Every value converges to 2 (x -> x / 2 + 1 from 0): 2 - 2^(1 - launches) each.
  std::printf("rank %d: %u values, sum %.3f\n", rank, n, host);
  return 0;
}

int main(int argc, char** argv) {
  int children = 2, launches = 40;
  bool kill_child = false, interrupt = false, grow = false;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--children") && i + 1 < argc) children = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--launches") && i + 1 < argc) launches = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--kill-child")) kill_child = true;
    else if (!std::strcmp(argv[i], "--interrupt")) interrupt = true;
    else if (!std::strcmp(argv[i], "--grow")) grow = true;
    else {
      std::fprintf(stderr, "usage: %s [--children N] [--launches N] [--grow] [--kill-child] [--interrupt]\n",
                   argv[0]);
      return 2;
    }
  }
  std::vector<pid_t> pids;
  for (int rank = 1; rank <= children; ++rank) {
    const pid_t pid = fork();
    if (pid == 0) {
      setenv("ROOFCAST_TEST_RANK", std::to_string(rank).c_str(), 1);
      run_kernels(rank, launches, grow);
      if (kill_child && rank == children) {
        usleep(600000);  // past the collector's periodic flush: what ran is on disk
        raise(SIGKILL);
      }
      std::exit(0);  // not _exit: a process that skips exit handlers loses its last quarter second of records
    }
    pids.push_back(pid);
  }
  setenv("ROOFCAST_TEST_RANK", "0", 1);
  run_kernels(0, launches, grow);
  int failed = 0;
  for (const pid_t pid : pids) {
    int status = 0;
    waitpid(pid, &status, 0);
    failed += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  if (interrupt) {
    std::fflush(stdout);
    usleep(600000);
    raise(SIGINT);
  }
  return failed ? 3 : 0;
}
