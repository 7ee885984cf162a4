#pragma once

#include <cstddef>

#include <cuda.h>

namespace roofcast::profiler {

// Empties a GPU's L2 cache before a profiled pass, as Nsight Compute does by default
// (`--cache-control all`), so DRAM and L2 counters do not depend on what ran before.
// Two kernels over a scratch buffer three times the L2: the first writes every line of it,
// which evicts (and writes back) whatever the application left in the L2; the second
// discards those lines (PTX `discard.global.L2`: invalidated, not written back). The L2 is
// then empty and clean, and the next kernel's traffic is its own. The kernels are PTX,
// compiled by the driver for whichever GPU runs them (sm_80 and newer).
class L2Flush {
 public:
  // Loads the kernels into `context` and allocates the scratch buffer; throws on failure.
  L2Flush(CUcontext context, CUdevice device);
  ~L2Flush();
  L2Flush(const L2Flush&) = delete;
  L2Flush& operator=(const L2Flush&) = delete;

  // Runs both kernels on `stream` and waits for them; throws on failure.
  void run(CUstream stream);

 private:
  CUcontext context_ = nullptr;
  CUmodule module_ = nullptr;
  CUfunction fill_ = nullptr;
  CUfunction discard_ = nullptr;
  CUdeviceptr scratch_ = 0;
  size_t bytes_ = 0;
  unsigned blocks_ = 0;
};

}  // namespace roofcast::profiler
