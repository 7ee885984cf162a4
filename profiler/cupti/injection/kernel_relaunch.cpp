#include "kernel_relaunch.hpp"

#include <stdexcept>

#include "driver_status.hpp"

namespace roofcast::profiler {

namespace {

bool is_per_thread_variant(CUpti_CallbackId cbid) {
  return cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz || cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz ||
         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz;
}

}  // namespace

KernelRelaunch::KernelRelaunch(CUpti_CallbackId cbid, const void* function_params) {
  // The _ptsz parameter structs have the same layout as the plain ones.
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchKernel_params*>(function_params);
      function_ = p->f;
      grid_ = {p->gridDimX, p->gridDimY, p->gridDimZ};
      block_ = {p->blockDimX, p->blockDimY, p->blockDimZ};
      shared_bytes_ = p->sharedMemBytes;
      stream_ = p->hStream;
      arguments_ = p->kernelParams;
      extra_ = p->extra;
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
      const auto* p = static_cast<const cuLaunchKernelEx_params*>(function_params);
      if (p->config == nullptr) throw std::runtime_error("cuLaunchKernelEx without a launch configuration");
      kind_ = Kind::extended;
      config_ = p->config;
      function_ = p->f;
      grid_ = {p->config->gridDimX, p->config->gridDimY, p->config->gridDimZ};
      block_ = {p->config->blockDimX, p->config->blockDimY, p->config->blockDimZ};
      shared_bytes_ = p->config->sharedMemBytes;
      stream_ = p->config->hStream;
      arguments_ = p->kernelParams;
      extra_ = p->extra;
      break;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
      const auto* p = static_cast<const cuLaunchCooperativeKernel_params*>(function_params);
      kind_ = Kind::cooperative;
      function_ = p->f;
      grid_ = {p->gridDimX, p->gridDimY, p->gridDimZ};
      block_ = {p->blockDimX, p->blockDimY, p->blockDimZ};
      shared_bytes_ = p->sharedMemBytes;
      stream_ = p->hStream;
      arguments_ = p->kernelParams;
      break;
    }
    default:
      throw std::runtime_error("not a kernel launch callback");
  }
  // The _ptsz entry points read the null stream as the calling thread's default stream; the
  // plain ones (which we call) read it as the legacy default stream.
  if (stream_ == nullptr && is_per_thread_variant(cbid)) stream_ = CU_STREAM_PER_THREAD;
}

KernelRelaunch::KernelRelaunch(const CUDA_KERNEL_NODE_PARAMS& node, CUstream stream)
    : function_(node.func),
      grid_{node.gridDimX, node.gridDimY, node.gridDimZ},
      block_{node.blockDimX, node.blockDimY, node.blockDimZ},
      shared_bytes_(node.sharedMemBytes),
      stream_(stream),
      arguments_(node.kernelParams),
      extra_(node.extra) {
  if (function_ == nullptr && node.kern != nullptr)
    check_driver(cuKernelGetFunction(&function_, node.kern), "cuKernelGetFunction (graph kernel node)");
  if (function_ == nullptr) throw std::runtime_error("graph kernel node without a function");
}

std::vector<int> KernelRelaunch::attribute_ids() const {
  std::vector<int> ids;
  if (config_ != nullptr)
    for (unsigned i = 0; i < config_->numAttrs; ++i) ids.push_back(static_cast<int>(config_->attrs[i].id));
  return ids;
}

bool KernelRelaunch::stream_is_capturing() const {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  const CUresult result = cuStreamIsCapturing(stream_, &status);
  // The legacy stream cannot be asked while another stream captures in global mode; a launch
  // on it would be refused then anyway.
  if (result == CUDA_ERROR_STREAM_CAPTURE_IMPLICIT) return true;
  return result == CUDA_SUCCESS && status != CU_STREAM_CAPTURE_STATUS_NONE;
}

void KernelRelaunch::launch() const {
  switch (kind_) {
    case Kind::plain:
      check_driver(cuLaunchKernel(function_, grid_[0], grid_[1], grid_[2], block_[0], block_[1], block_[2],
                                  shared_bytes_, stream_, arguments_, extra_),
                   "cuLaunchKernel (replaying the application's launch)");
      return;
    case Kind::extended: {
      CUlaunchConfig config = *config_;
      config.hStream = stream_;
      check_driver(cuLaunchKernelEx(&config, function_, arguments_, extra_),
                   "cuLaunchKernelEx (replaying the application's launch)");
      return;
    }
    case Kind::cooperative:
      check_driver(cuLaunchCooperativeKernel(function_, grid_[0], grid_[1], grid_[2], block_[0], block_[1], block_[2],
                                             shared_bytes_, stream_, arguments_),
                   "cuLaunchCooperativeKernel (replaying the application's launch)");
      return;
  }
}

}  // namespace roofcast::profiler
