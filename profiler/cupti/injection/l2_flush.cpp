#include "l2_flush.hpp"

#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#include "driver_status.hpp"

namespace roofcast::profiler {

namespace {

// fill(buffer, count): buffer[i] = i for every 16-byte element i (grid-stride loop).
// discard(buffer, lines): discard.global.L2 on every 128-byte line of the buffer.
constexpr const char* kFlushPtx = R"(
.version 7.4
.target sm_80
.address_size 64

.visible .entry roofcast_l2_fill(.param .u64 buffer, .param .u64 count)
{
  .reg .pred %p;
  .reg .b32 %r<5>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [buffer];
  ld.param.u64 %rd2, [count];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %nctaid.x;
  mul.wide.u32 %rd3, %r1, %r2;
  cvt.u64.u32 %rd4, %r3;
  add.u64 %rd3, %rd3, %rd4;
  mul.wide.u32 %rd5, %r4, %r2;
FILL:
  setp.ge.u64 %p, %rd3, %rd2;
  @%p bra FILL_DONE;
  shl.b64 %rd6, %rd3, 4;
  add.u64 %rd7, %rd1, %rd6;
  cvt.u32.u64 %r1, %rd3;
  st.global.v4.u32 [%rd7], {%r1, %r1, %r1, %r1};
  add.u64 %rd3, %rd3, %rd5;
  bra FILL;
FILL_DONE:
  ret;
}

.visible .entry roofcast_l2_discard(.param .u64 buffer, .param .u64 lines)
{
  .reg .pred %p;
  .reg .b32 %r<5>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [buffer];
  ld.param.u64 %rd2, [lines];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %tid.x;
  mov.u32 %r4, %nctaid.x;
  mul.wide.u32 %rd3, %r1, %r2;
  cvt.u64.u32 %rd4, %r3;
  add.u64 %rd3, %rd3, %rd4;
  mul.wide.u32 %rd5, %r4, %r2;
DISCARD:
  setp.ge.u64 %p, %rd3, %rd2;
  @%p bra DISCARD_DONE;
  shl.b64 %rd6, %rd3, 7;
  add.u64 %rd7, %rd1, %rd6;
  discard.global.L2 [%rd7], 128;
  add.u64 %rd3, %rd3, %rd5;
  bra DISCARD;
DISCARD_DONE:
  ret;
}
)";

constexpr unsigned kThreads = 256;

int attribute(CUdevice device, CUdevice_attribute which, const char* name) {
  int value = 0;
  check_driver(cuDeviceGetAttribute(&value, which, device), name);
  return value;
}

// Makes `context` current for the lifetime of this object (callbacks may run with another one).
class CurrentContext {
 public:
  explicit CurrentContext(CUcontext context) {
    check_driver(cuCtxGetCurrent(&previous_), "cuCtxGetCurrent");
    if (previous_ != context) check_driver(cuCtxSetCurrent(context), "cuCtxSetCurrent");
  }
  ~CurrentContext() { cuCtxSetCurrent(previous_); }

 private:
  CUcontext previous_ = nullptr;
};

}  // namespace

L2Flush::L2Flush(CUcontext context, CUdevice device) : context_(context) {
  CurrentContext current(context);
  const int l2_bytes = attribute(device, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "cuDeviceGetAttribute(L2_CACHE_SIZE)");
  const int sms = attribute(device, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "cuDeviceGetAttribute(MULTIPROCESSOR_COUNT)");
  if (attribute(device, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "cuDeviceGetAttribute(COMPUTE_CAPABILITY_MAJOR)") < 8)
    throw std::runtime_error("flushing the L2 between passes needs a GPU of compute capability 8.0 or newer "
                             "(discard.global.L2); profile with --cache-control none");
  size_t factor = 3;  // scratch size in L2 sizes; ROOFCAST_PROFILE_FLUSH_FACTOR for diagnosis
  if (const char* value = std::getenv("ROOFCAST_PROFILE_FLUSH_FACTOR"); value && std::atoi(value) > 0)
    factor = static_cast<size_t>(std::atoi(value));
  bytes_ = factor * static_cast<size_t>(l2_bytes);
  bytes_ = (bytes_ + 127) / 128 * 128;
  blocks_ = static_cast<unsigned>(sms) * 4;
  check_driver(cuModuleLoadData(&module_, kFlushPtx), "cuModuleLoadData(L2 flush kernels)");
  check_driver(cuModuleGetFunction(&fill_, module_, "roofcast_l2_fill"), "cuModuleGetFunction(roofcast_l2_fill)");
  check_driver(cuModuleGetFunction(&discard_, module_, "roofcast_l2_discard"),
               "cuModuleGetFunction(roofcast_l2_discard)");
  const CUresult allocated = cuMemAlloc(&scratch_, bytes_);
  if (allocated != CUDA_SUCCESS)
    check_driver(allocated, fmt::format("cuMemAlloc({} MB of scratch to flush the L2)", bytes_ >> 20).c_str());
}

L2Flush::~L2Flush() {
  // At process exit the driver may already be shutting down: errors here are of no use.
  if (scratch_ != 0) cuMemFree(scratch_);
  if (module_ != nullptr) cuModuleUnload(module_);
}

void L2Flush::run(CUstream stream) {
  CurrentContext current(context_);
  unsigned long long elements = bytes_ / 16;
  unsigned long long lines = bytes_ / 128;
  void* fill_arguments[] = {&scratch_, &elements};
  void* discard_arguments[] = {&scratch_, &lines};
  check_driver(cuLaunchKernel(fill_, blocks_, 1, 1, kThreads, 1, 1, 0, stream, fill_arguments, nullptr),
               "cuLaunchKernel(roofcast_l2_fill)");
  check_driver(cuLaunchKernel(discard_, blocks_, 1, 1, kThreads, 1, 1, 0, stream, discard_arguments, nullptr),
               "cuLaunchKernel(roofcast_l2_discard)");
  check_driver(cuStreamSynchronize(stream), "cuStreamSynchronize(after the L2 flush)");
}

}  // namespace roofcast::profiler
