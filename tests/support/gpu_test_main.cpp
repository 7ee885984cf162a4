// Catch2 main for tests that need a GPU: when none is present the whole program
// reports SKIP to CTest (exit code 77, see SKIP_RETURN_CODE) instead of passing. Built with
// ROOFCAST_GPU_TEST_NEEDS_PYTORCH (roofcast_add_gpu_test's NEEDS_PYTORCH), it also skips where
// python3 has no PyTorch that sees a GPU.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>

#include <cuda_runtime_api.h>

int main(int argc, char** argv) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::printf("SKIP: no CUDA GPU here (%s)\n", status == cudaSuccess ? "0 devices" : cudaGetErrorString(status));
    return 77;
  }
#ifdef ROOFCAST_GPU_TEST_NEEDS_PYTORCH
  // Tests of PyTorch programs: SKIP too where the python3 on the PATH has no PyTorch that sees a GPU.
  if (std::system("python3 -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)' "
                  ">/dev/null 2>&1") != 0) {
    std::printf("SKIP: python3 has no PyTorch that sees a CUDA GPU\n");
    return 77;
  }
#endif
  return Catch::Session().run(argc, argv);
}
