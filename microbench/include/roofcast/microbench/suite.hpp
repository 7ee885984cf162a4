#pragma once
// Runs every characterizer on one GPU. Implemented by the CUDA and the HIP build of
// microbench/gpu; callers need no GPU headers.

#include <functional>
#include <string>
#include <vector>

#include "roofcast/microbench/suite_result.hpp"

namespace roofcast::microbench {

struct SuiteOptions {
  int device = 0;
  bool quick = false;  // smaller buffers, shorter launches, fewer sweep points
  // The groups to run (bench_groups() names; `roofcast bench --complete`); empty: all of them.
  std::vector<std::string> groups;
  // Called with the GPU before any characterizer runs; throws to refuse it (--complete: a
  // profile of another GPU). Null: any GPU.
  std::function<void(const DeviceInfo&)> check_device;
};

// Called before each step and once at the end (done == total).
using ProgressCallback = std::function<void(int done, int total, const std::string& step)>;

// Throws std::runtime_error naming the call or kernel at fault (no GPU, a failed runtime
// call, a kernel whose outputs are wrong).
SuiteResult run_suite(const SuiteOptions& options, const ProgressCallback& progress);

}  // namespace roofcast::microbench
