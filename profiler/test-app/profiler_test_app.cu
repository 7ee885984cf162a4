// A CUDA program of our own for checking the collector against Nsight Compute: kernels with
// known instruction mixes (fp32, fp64, integer, shared memory, a memory-bound stream; and for
// the pipes group, pipe_kernels.cuh: MUFU, atomics, HFMA2, mma.sync of five types), each
// launched several times; and a CUDA graph of two kernel nodes, launched twice. Options
// exercise the collector's robustness:
//   --exit N     leave through exit(N) after the kernels
//   --abort      leave through abort()
//   --spawn      also run this program as a child process (fork + exec) that launches kernels
//   --small      small problem sizes (quick runs)
#include <unistd.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(call)                                                                              \
  do {                                                                                           \
    cudaError_t status_ = (call);                                                                \
    if (status_ != cudaSuccess) {                                                                \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(status_)); \
      std::exit(2);                                                                              \
    }                                                                                            \
  } while (0)

#include "pipe_kernels.cuh"

__global__ void fp32_fma_kernel(float* out, const float* in, int iterations) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = in[i], b = a * 0.5f + 1.0f, c = a + 2.0f, d = b - 1.0f;
  for (int k = 0; k < iterations; ++k) {
    a = fmaf(a, 0.999f, 0.001f);
    b = fmaf(b, 0.999f, 0.002f);
    c = fmaf(c, 0.999f, 0.003f);
    d = fmaf(d, 0.999f, 0.004f);
  }
  out[i] = a + b + c + d;
}

__global__ void fp64_fma_kernel(double* out, const double* in, int iterations) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  double a = in[i], b = a * 0.5 + 1.0;
  for (int k = 0; k < iterations; ++k) {
    a = fma(a, 0.999, 0.001);
    b = fma(b, 0.999, 0.002);
  }
  out[i] = a + b;
}

__global__ void int_mad_kernel(int* out, const int* in, int iterations) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int a = in[i], b = a ^ 0x5bd1e995, c = a + 7;
  for (int k = 0; k < iterations; ++k) {
    a = a * 1664525 + 1013904223;
    b = b * 22695477 + c;
    c = c * 69069 + a;
  }
  out[i] = a ^ b ^ c;
}

// Swaps values between shared-memory slots, conflict free (thesis T_ldst micro-benchmark style).
__global__ void shared_swap_kernel(float* out, const float* in, int iterations) {
  __shared__ float slots[2][256];
  const int t = threadIdx.x;
  const int i = blockIdx.x * blockDim.x + t;
  slots[0][t] = in[i];
  slots[1][t] = in[i] * 2.0f;
  __syncthreads();
  for (int k = 0; k < iterations; ++k) {
    const float x = slots[0][t];
    const float y = slots[1][t];
    slots[0][t] = y;
    slots[1][t] = x;
    __threadfence_block();
  }
  __syncthreads();
  out[i] = slots[0][t] + slots[1][t];
}

__global__ void stream_triad_kernel(float* a, const float* b, const float* c, float scalar, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    a[i] = b[i] + scalar * c[i];
}

__global__ void affine_kernel(float* x, float scale, float offset, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    x[i] = scale * x[i] + offset;
}

// Two affine_kernel nodes captured from a stream (x -> 3x + 1), the graph destroyed once
// instantiated (the collector must keep its own copy), the instance launched twice: 1 -> 4 -> 13.
int run_graph(int blocks, int threads, size_t n) {
  float* x = nullptr;
  CHECK(cudaMalloc(&x, n * sizeof(float)));
  affine_kernel<<<blocks, threads>>>(x, 0.0f, 1.0f, n);
  cudaStream_t stream;
  CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph;
  cudaGraphExec_t instance;
  CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  affine_kernel<<<blocks, threads, 0, stream>>>(x, 3.0f, 0.0f, n);
  affine_kernel<<<blocks / 2, threads * 2, 0, stream>>>(x, 1.0f, 1.0f, n);
  CHECK(cudaStreamEndCapture(stream, &graph));
  CHECK(cudaGraphInstantiate(&instance, graph, 0));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaDeviceSynchronize());
  for (int launch = 0; launch < 2; ++launch) CHECK(cudaGraphLaunch(instance, stream));
  CHECK(cudaStreamSynchronize(stream));
  float value = 0;
  CHECK(cudaMemcpy(&value, x + n / 3, sizeof value, cudaMemcpyDeviceToHost));
  CHECK(cudaGraphExecDestroy(instance));
  CHECK(cudaStreamDestroy(stream));
  CHECK(cudaFree(x));
  if (value != 13.0f) {
    std::fprintf(stderr, "graph result %f, expected 13\n", value);
    return 1;
  }
  return 0;
}

__global__ void fill_kernel(float* x, size_t n, float base) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n; i += size_t(gridDim.x) * blockDim.x)
    x[i] = base + float(i % 1000) * 1e-3f;
}

template <typename T>
std::vector<T> ramp(size_t n, T base) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = base + T(i % 97);
  return v;
}

int run_kernels(bool small) {
  const int blocks = small ? 264 : 1056, threads = 256;  // multiples of the 132 SMs
  const size_t n = size_t(blocks) * threads;
  const size_t stream_n = small ? (size_t(1) << 22) : (size_t(1) << 27);  // 16 MB or 512 MB per array
  const int iterations = small ? 64 : 1024;

  float *f_in, *f_out, *a, *b, *c;
  double *d_in, *d_out;
  int *i_in, *i_out;
  CHECK(cudaMalloc(&f_in, n * sizeof(float)));
  CHECK(cudaMalloc(&f_out, n * sizeof(float)));
  CHECK(cudaMalloc(&d_in, n * sizeof(double)));
  CHECK(cudaMalloc(&d_out, n * sizeof(double)));
  CHECK(cudaMalloc(&i_in, n * sizeof(int)));
  CHECK(cudaMalloc(&i_out, n * sizeof(int)));
  CHECK(cudaMalloc(&a, stream_n * sizeof(float)));
  CHECK(cudaMalloc(&b, stream_n * sizeof(float)));
  CHECK(cudaMalloc(&c, stream_n * sizeof(float)));
  const auto hf = ramp<float>(n, 1.0f);
  const auto hd = ramp<double>(n, 1.0);
  const auto hi = ramp<int>(n, 3);
  CHECK(cudaMemcpy(f_in, hf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_in, hd.data(), n * sizeof(double), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(i_in, hi.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  // Copies of known sizes for the collector's copy records (tests/profiler/profile_gpu_test.cpp):
  // pinned host to device, device to device (f_in gets its own contents back), a memset, and
  // pinned device to host after the kernels.
  float* pinned = nullptr;
  CHECK(cudaMallocHost(&pinned, n * sizeof(float)));
  std::copy(hf.begin(), hf.end(), pinned);
  CHECK(cudaMemcpy(f_out, pinned, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(f_in, f_out, n * sizeof(float), cudaMemcpyDeviceToDevice));
  CHECK(cudaMemset(i_out, 0, n * sizeof(int)));
  fill_kernel<<<1056, 256>>>(b, stream_n, 1.0f);
  fill_kernel<<<1056, 256>>>(c, stream_n, 2.0f);
  CHECK(cudaGetLastError());

  for (int repeat = 0; repeat < 3; ++repeat) {
    fp32_fma_kernel<<<blocks, threads>>>(f_out, f_in, iterations);
    fp64_fma_kernel<<<blocks, threads>>>(d_out, d_in, iterations / 4);
    int_mad_kernel<<<blocks, threads>>>(i_out, i_in, iterations);
    shared_swap_kernel<<<blocks, threads>>>(f_out, f_in, iterations / 4);
    stream_triad_kernel<<<1056, 256>>>(a, b, c, 3.0f, stream_n);
    CHECK(cudaGetLastError());
  }
  // A second launch shape of one kernel.
  stream_triad_kernel<<<528, 512>>>(a, b, c, 3.0f, stream_n);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  // The pipes group's kernels, checked on the host (their read-backs are pageable copies of
  // n floats each: 1 mufu, 1 atomics tickets, 1 hfma2, 5 mma; plus 65 words of atomic counts).
  if (run_pipe_kernels(blocks, threads, iterations, f_in, i_in, hf, hi) != 0) return 1;
  if (run_graph(blocks, threads, n) != 0) return 1;

  CHECK(cudaMemcpy(pinned, f_out, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFreeHost(pinned));
  float check = 0;
  CHECK(cudaMemcpy(&check, a + 12345, sizeof check, cudaMemcpyDeviceToHost));
  const float expected = (1.0f + 0.345f) + 3.0f * (2.0f + 0.345f);
  if (check < expected - 1e-3f || check > expected + 1e-3f) {
    std::fprintf(stderr, "stream triad result %f, expected %f\n", check, expected);
    return 1;
  }
  for (void* p : {(void*)f_in, (void*)f_out, (void*)d_in, (void*)d_out, (void*)i_in, (void*)i_out, (void*)a, (void*)b, (void*)c})
    CHECK(cudaFree(p));
  return 0;
}

int main(int argc, char** argv) {
  bool small = false, abort_at_end = false, spawn = false;
  int exit_code = -1;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--small")) small = true;
    else if (!std::strcmp(argv[i], "--abort")) abort_at_end = true;
    else if (!std::strcmp(argv[i], "--spawn")) spawn = true;
    else if (!std::strcmp(argv[i], "--exit") && i + 1 < argc) exit_code = std::atoi(argv[++i]);
    else {
      std::fprintf(stderr, "usage: %s [--small] [--exit N] [--abort] [--spawn]\n", argv[0]);
      return 2;
    }
  }
  pid_t child = -1;
  if (spawn) {  // before any CUDA call: CUDA state does not survive fork, so the child execs
    child = fork();
    if (child == 0) {
      execl("/proc/self/exe", argv[0], "--small", (char*)nullptr);
      _exit(127);
    }
  }
  const int status = run_kernels(small);
  std::printf("profiler test app: kernels done (%s)\n", status == 0 ? "results ok" : "WRONG RESULTS");
  if (child > 0) {
    int child_status = 0;
    waitpid(child, &child_status, 0);
    if (!WIFEXITED(child_status) || WEXITSTATUS(child_status) != 0) return 1;
  }
  std::fflush(stdout);
  if (abort_at_end) std::abort();
  if (exit_code >= 0) std::exit(exit_code);
  return status;
}
