// Catch2 main for tests that need a GPU: when none is present the whole program
// reports SKIP to CTest (exit code 77, see SKIP_RETURN_CODE) instead of passing.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>

#include <cuda_runtime_api.h>

int main(int argc, char** argv) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::printf("SKIP: no CUDA GPU here (%s)\n", status == cudaSuccess ? "0 devices" : cudaGetErrorString(status));
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
