#pragma once
// One source for CUDA and HIP: the runtime calls and device intrinsics the micro-benchmarks
// use, under backend-neutral names. nvcc compiles the CUDA side, hipcc the HIP side.

#include <cstddef>
#include <stdexcept>
#include <string>

#if defined(__HIPCC__)
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>
#define ROOFCAST_BACKEND_HIP 1
#define ROOFCAST_BACKEND_NAME "hip"
#else
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#define ROOFCAST_BACKEND_CUDA 1
#define ROOFCAST_BACKEND_NAME "cuda"
#endif

namespace roofcast::gpu {

#if ROOFCAST_BACKEND_HIP
using Error = hipError_t;
using Stream = hipStream_t;
using Event = hipEvent_t;
inline constexpr Error kSuccess = hipSuccess;
inline const char* error_string(Error e) { return hipGetErrorString(e); }
inline Error get_last_error() { return hipGetLastError(); }
inline Error device_synchronize() { return hipDeviceSynchronize(); }
inline Error set_device(int d) { return hipSetDevice(d); }
inline Error device_count(int* n) { return hipGetDeviceCount(n); }
inline Error driver_version(int* v) { return hipDriverGetVersion(v); }
inline Error malloc_bytes(void** p, size_t n) { return hipMalloc(p, n); }
inline Error free_bytes(void* p) { return hipFree(p); }
inline Error memset_bytes(void* p, int v, size_t n) { return hipMemset(p, v, n); }
inline Error copy_to_host(void* dst, const void* src, size_t n) { return hipMemcpy(dst, src, n, hipMemcpyDeviceToHost); }
inline Error copy_to_device(void* dst, const void* src, size_t n) { return hipMemcpy(dst, src, n, hipMemcpyHostToDevice); }
inline Error copy_device_async(void* dst, const void* src, size_t n, Stream s) {
  return hipMemcpyAsync(dst, src, n, hipMemcpyDeviceToDevice, s);
}
inline Error copy_to_device_async(void* dst, const void* src, size_t n, Stream s) {
  return hipMemcpyAsync(dst, src, n, hipMemcpyHostToDevice, s);
}
inline Error copy_to_host_async(void* dst, const void* src, size_t n, Stream s) {
  return hipMemcpyAsync(dst, src, n, hipMemcpyDeviceToHost, s);
}
inline Error host_malloc_pinned(void** p, size_t n) { return hipHostMalloc(p, n, hipHostMallocDefault); }
inline Error host_free_pinned(void* p) { return hipHostFree(p); }
inline Error mem_get_info(size_t* free, size_t* total) { return hipMemGetInfo(free, total); }
inline Error event_create(Event* e) { return hipEventCreate(e); }
inline Error event_destroy(Event e) { return hipEventDestroy(e); }
inline Error event_record(Event e, Stream s = nullptr) { return hipEventRecord(e, s); }
inline Error event_synchronize(Event e) { return hipEventSynchronize(e); }
inline Error event_elapsed_ms(float* ms, Event a, Event b) { return hipEventElapsedTime(ms, a, b); }
template <typename Kernel>
Error max_active_blocks(int* blocks, Kernel kernel, int threads, size_t shared) {
  return hipOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, threads, shared);
}
#else
using Error = cudaError_t;
using Stream = cudaStream_t;
using Event = cudaEvent_t;
inline constexpr Error kSuccess = cudaSuccess;
inline const char* error_string(Error e) { return cudaGetErrorString(e); }
inline Error get_last_error() { return cudaGetLastError(); }
inline Error device_synchronize() { return cudaDeviceSynchronize(); }
inline Error set_device(int d) { return cudaSetDevice(d); }
inline Error device_count(int* n) { return cudaGetDeviceCount(n); }
inline Error driver_version(int* v) { return cudaDriverGetVersion(v); }
inline Error malloc_bytes(void** p, size_t n) { return cudaMalloc(p, n); }
inline Error free_bytes(void* p) { return cudaFree(p); }
inline Error memset_bytes(void* p, int v, size_t n) { return cudaMemset(p, v, n); }
inline Error copy_to_host(void* dst, const void* src, size_t n) { return cudaMemcpy(dst, src, n, cudaMemcpyDeviceToHost); }
inline Error copy_to_device(void* dst, const void* src, size_t n) { return cudaMemcpy(dst, src, n, cudaMemcpyHostToDevice); }
inline Error copy_device_async(void* dst, const void* src, size_t n, Stream s) {
  return cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToDevice, s);
}
inline Error copy_to_device_async(void* dst, const void* src, size_t n, Stream s) {
  return cudaMemcpyAsync(dst, src, n, cudaMemcpyHostToDevice, s);
}
inline Error copy_to_host_async(void* dst, const void* src, size_t n, Stream s) {
  return cudaMemcpyAsync(dst, src, n, cudaMemcpyDeviceToHost, s);
}
inline Error host_malloc_pinned(void** p, size_t n) { return cudaMallocHost(p, n); }
inline Error host_free_pinned(void* p) { return cudaFreeHost(p); }
inline Error mem_get_info(size_t* free, size_t* total) { return cudaMemGetInfo(free, total); }
inline Error event_create(Event* e) { return cudaEventCreate(e); }
inline Error event_destroy(Event e) { return cudaEventDestroy(e); }
inline Error event_record(Event e, Stream s = nullptr) { return cudaEventRecord(e, s); }
inline Error event_synchronize(Event e) { return cudaEventSynchronize(e); }
inline Error event_elapsed_ms(float* ms, Event a, Event b) { return cudaEventElapsedTime(ms, a, b); }
template <typename Kernel>
Error max_active_blocks(int* blocks, Kernel kernel, int threads, size_t shared) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, kernel, threads, shared);
}
#endif

// A failed runtime call, naming the call and where it was made.
class GpuError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

inline void check(Error status, const char* what, const char* file, int line) {
  if (status != kSuccess)
    throw GpuError(std::string(file) + ":" + std::to_string(line) + ": " + what + ": " + error_string(status));
}

}  // namespace roofcast::gpu

#define ROOFCAST_GPU_CHECK(call) ::roofcast::gpu::check((call), #call, __FILE__, __LINE__)
// After every launch: a bad configuration shows up here, a fault at the next synchronization.
#define ROOFCAST_GPU_CHECK_LAUNCH(kernel_name) \
  ::roofcast::gpu::check(::roofcast::gpu::get_last_error(), "launch of " kernel_name, __FILE__, __LINE__)

// ---- Device-side helpers -------------------------------------------------------------------

namespace roofcast::gpu {

// SM (CU) cycles since an arbitrary origin.
__device__ __forceinline__ long long cycle_counter() { return clock64(); }

// A constant-rate timer: nanoseconds on CUDA (%globaltimer); on HIP the 100 MHz
// s_memrealtime counter, converted by `kTimerTicksPerNanosecond`.
#if ROOFCAST_BACKEND_HIP
inline constexpr double kTimerTicksPerNanosecond = 0.1;
__device__ __forceinline__ long long timer_ticks() {
#if defined(__HIP_DEVICE_COMPILE__)
  return static_cast<long long>(__builtin_amdgcn_s_memrealtime());
#else
  return 0;
#endif
}
__device__ __forceinline__ unsigned sm_id() { return __smid(); }
#else
inline constexpr double kTimerTicksPerNanosecond = 1.0;
__device__ __forceinline__ long long timer_ticks() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return static_cast<long long>(t);
}
__device__ __forceinline__ unsigned sm_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(id));
  return id;
}
#endif

template <typename T>
__device__ __forceinline__ T shuffle_xor(T value, int lane_mask) {
#if ROOFCAST_BACKEND_HIP
  return __shfl_xor(value, lane_mask);
#else
  return __shfl_xor_sync(0xffffffffu, value, lane_mask);
#endif
}

// Loads that stop at L2 / stay in L1 where the backend has such hints.
template <typename T>
__device__ __forceinline__ T load_bypass_l1(const T* p) {
#if ROOFCAST_BACKEND_HIP
  return *p;
#else
  return __ldcg(p);
#endif
}
// Evict-first: streamed data need not stay in the caches.
template <typename T>
__device__ __forceinline__ T load_streaming(const T* p) {
#if ROOFCAST_BACKEND_HIP
  return *p;
#else
  return __ldcs(p);
#endif
}
template <typename T>
__device__ __forceinline__ void store_streaming(T* p, T value) {
#if ROOFCAST_BACKEND_HIP
  *p = value;
#else
  __stcs(p, value);
#endif
}
// A 16-byte load that skips L1 and has L2 fetch 256-byte blocks from DRAM (sm_80 and later).
__device__ __forceinline__ uint4 load_prefetch_l2(const uint4* p) {
#if ROOFCAST_BACKEND_CUDA && defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  uint4 v;
  asm("ld.global.nc.L1::no_allocate.L2::256B.v4.u32 {%0, %1, %2, %3}, [%4];"
      : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
      : "l"(p));
  return v;
#else
  return load_bypass_l1(p);
#endif
}
// 1 / sqrt(x) on the special-function unit (MUFU.RSQ); HIP: the runtime's rsqrt.
__device__ __forceinline__ float approximate_rsqrt(float x) {
#if ROOFCAST_BACKEND_CUDA
  float y;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
#else
  return __frsqrt_rn(x);
#endif
}

template <typename T>
__device__ __forceinline__ T load_cached_l1(const T* p) {
#if ROOFCAST_BACKEND_HIP
  return *p;
#else
  return __ldca(p);
#endif
}

}  // namespace roofcast::gpu
