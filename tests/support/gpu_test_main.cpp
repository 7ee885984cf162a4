// Catch2 main for tests that need a GPU. CTest reads its exit status (SKIP_RETURN_CODE 77):
// - no GPU here: SKIP, before any test runs;
// - a GPU whose driver does not work: FAIL, with CUDA's message;
// - a test that could not run some of its checks (skip_checks, gpu_skip.hpp): SKIP, unless a
//   check failed.
// Built with ROOFCAST_GPU_TEST_NEEDS_PYTORCH (roofcast_add_gpu_test's NEEDS_PYTORCH), it also
// skips where python3 has no PyTorch that sees a GPU.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "gpu_skip.hpp"

namespace {

constexpr int kSkip = 77;

std::vector<std::string>& skipped() {
  static std::vector<std::string> reasons;
  return reasons;
}

// Whether this process can see an NVIDIA GPU's device node (/dev/nvidia0, /dev/nvidia1, ...):
// the kernel driver made it, and a container was given it. /dev/nvidiactl alone (no GPU) and
// the host's /proc/driver/nvidia or PCI list, which a container without the GPU also sees, do
// not count.
bool gpu_device_node_present() {
  std::error_code error;
  const std::regex gpu_node("nvidia[0-9]+");
  for (const auto& entry : std::filesystem::directory_iterator("/dev", error))
    if (std::regex_match(entry.path().filename().string(), gpu_node)) return true;
  return false;
}

}  // namespace

namespace roofcast::testing {

void skip_checks(const std::string& reason) {
  skipped().push_back(reason);
  std::printf("SKIP: %s\n", reason.c_str());
}

}  // namespace roofcast::testing

int main(int argc, char** argv) {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status == cudaSuccess && devices == 0) {
    std::printf("SKIP: no CUDA GPU here (0 devices)\n");
    return kSkip;
  }
  if (status != cudaSuccess) {
    // Only "no GPU" skips. CUDA says cudaErrorNoDevice where a driver finds none, but a machine
    // with no NVIDIA driver at all (CI) gets cudaErrorInsufficientDriver, as does a GPU whose
    // driver is older than this runtime; so the error alone does not tell them apart, and the
    // device node does: without one there is no GPU this process could use (SKIP); with one,
    // any error is a broken or mismatched driver (FAIL).
    const char* what = cudaGetErrorString(status);
    if (status == cudaErrorNoDevice) {
      std::printf("SKIP: no CUDA GPU here (%s)\n", what);
      return kSkip;
    }
    if (!gpu_device_node_present()) {
      std::printf("SKIP: no CUDA GPU here (no /dev/nvidia0, /dev/nvidia1, ...; CUDA says: %s)\n", what);
      return kSkip;
    }
    std::fprintf(stderr, "FAIL: an NVIDIA GPU is present (/dev/nvidia*) but CUDA cannot use it: cudaGetDeviceCount: %s (%s)\n",
                 cudaGetErrorName(status), what);
    return 1;
  }
#ifdef ROOFCAST_GPU_TEST_NEEDS_PYTORCH
  // Tests of PyTorch programs: SKIP too where the python3 on the PATH has no PyTorch that sees a GPU.
  if (std::system("python3 -c 'import sys, torch; sys.exit(0 if torch.cuda.is_available() else 1)' "
                  ">/dev/null 2>&1") != 0) {
    std::printf("SKIP: python3 has no PyTorch that sees a CUDA GPU\n");
    return kSkip;
  }
#endif
  const int failed = Catch::Session().run(argc, argv);
  if (failed != 0 || skipped().empty()) return failed;
  std::printf("SKIP: %zu check(s) not run here; every check that ran passed:\n", skipped().size());
  for (const auto& reason : skipped()) std::printf("  %s\n", reason.c_str());
  return kSkip;
}
