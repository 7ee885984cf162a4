#pragma once

#include <array>
#include <vector>

#include <cuda.h>
#include <cupti.h>

namespace roofcast::profiler {

// What the collector needs to run a kernel launch again: the same function, shape, shared
// memory, arguments and stream. Built from a launch callback (for the callbacks
// is_kernel_launch() accepts; valid until the callback returns) or from a graph's kernel node.
class KernelRelaunch {
 public:
  KernelRelaunch(CUpti_CallbackId cbid, const void* function_params);
  KernelRelaunch(const CUDA_KERNEL_NODE_PARAMS& node, CUstream stream);

  // The stream the launch runs on, with the per-thread default stream spelled out.
  CUstream stream() const { return stream_; }
  CUfunction function() const { return function_; }
  std::array<unsigned, 3> grid() const { return grid_; }
  std::array<unsigned, 3> block() const { return block_; }
  unsigned dynamic_shared_bytes() const { return shared_bytes_; }
  // cuLaunchKernelEx: the ids of its launch attributes (CUlaunchAttributeID), for diagnosis.
  std::vector<int> attribute_ids() const;

  // True while the stream is being captured into a graph: the launch does not run now.
  bool stream_is_capturing() const;

  // Launches the kernel again (asynchronously, on stream()); throws on failure.
  void launch() const;

 private:
  enum class Kind { plain, extended, cooperative };
  Kind kind_ = Kind::plain;
  CUfunction function_ = nullptr;
  std::array<unsigned, 3> grid_{};
  std::array<unsigned, 3> block_{};
  unsigned shared_bytes_ = 0;
  CUstream stream_ = nullptr;
  void** arguments_ = nullptr;
  void** extra_ = nullptr;
  const CUlaunchConfig* config_ = nullptr;  // Kind::extended: its attributes
};

}  // namespace roofcast::profiler
