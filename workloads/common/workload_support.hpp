#pragma once
// What every validation workload shares: checked CUDA calls, event timing (median of
// repeats after warm-up), fresh random inputs, result checks against a host reference,
// and one output format:
//   kernel <name> median_ms <t> min_ms <t> max_ms <t> launches <n>
//   check <name> ok|FAILED <detail>
// Workloads define their kernels at global scope, so that profiles name them plainly
// ("sor_red(double*, double const*, int)", not "(anonymous namespace)::sor_red(...)").

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

namespace roofcast::workloads {

// Exits with a message naming the call and the CUDA error when `status` is not success.
void check_cuda(cudaError_t status, const char* call, const char* file, int line);
#define ROOFCAST_CUDA(call) ::roofcast::workloads::check_cuda((call), #call, __FILE__, __LINE__)
// After a kernel launch: the launch's own error, then any error while it ran.
#define ROOFCAST_CHECK_LAUNCH()                \
  do {                                         \
    ROOFCAST_CUDA(cudaGetLastError());         \
    ROOFCAST_CUDA(cudaDeviceSynchronize());    \
  } while (0)

struct Options {
  bool small = false;  // a quick size, for tests
  int warmups = 2;
  int repeats = 10;
};

// Parses --small, --warmups N, --repeats N (and --help); exits on bad arguments.
Options parse_options(int argc, char** argv, const char* workload, const char* description);

// Prints the device and the workload's size once at the start.
void print_header(const char* workload, const std::string& size);

// Runs `launch` (one kernel launch, no synchronization) warmups + repeats times, timing
// each launch with CUDA events, checks every launch, and prints the kernel line. Where one
// call of `launch` makes `launches_per_call` launches of the kernel (a BFS of one launch per
// level), the times printed are per launch (a call's time / launches_per_call) and the count
// is of launches.
void time_kernel(const std::string& name, const Options& options, const std::function<void()>& launch,
                 int launches_per_call = 1);

// Prints the check line; returns whether it passed.
bool report_check(const std::string& name, bool ok, const std::string& detail);

// Fresh random values, different on every run (seeded from the clock), never all zero.
std::uint64_t fresh_seed();
void fill_uniform(std::vector<float>& values, float low, float high, std::uint64_t seed);
void fill_uniform(std::vector<double>& values, double low, double high, std::uint64_t seed);
void fill_bits(std::vector<std::uint32_t>& values, std::uint64_t seed);

// A device buffer freed on scope exit.
template <typename T>
class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t count) : count_(count) {
    ROOFCAST_CUDA(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)));
  }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer() { cudaFree(data_); }

  T* get() const { return data_; }
  size_t count() const { return count_; }
  void upload(const std::vector<T>& host) {
    ROOFCAST_CUDA(cudaMemcpy(data_, host.data(), count_ * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const {
    std::vector<T> host(count_);
    ROOFCAST_CUDA(cudaMemcpy(host.data(), data_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
  // Fills with a byte pattern that is no valid result (NaN for floats), to catch unwritten outputs.
  void poison() { ROOFCAST_CUDA(cudaMemset(data_, 0xFF, count_ * sizeof(T))); }

 private:
  T* data_ = nullptr;
  size_t count_ = 0;
};

// Largest |got - want| / scale over the elements, with scale = max(|want|, floor); NaN
// anywhere counts as infinitely wrong.
double max_relative_error(const std::vector<double>& got, const std::vector<double>& want, double floor = 1e-30);

// The elements a check looks at: all of 0..n-1 when n <= limit, else `limit` random ones
// (host references of the full sizes would take longer than the kernels' runs).
std::vector<size_t> elements_to_check(size_t n, size_t limit);

// A number for check lines, e.g. "3.1e-15".
std::string scientific(double value);

// Blocks of `threads` threads covering `count` work items.
inline unsigned blocks_for(size_t count, unsigned threads) {
  return static_cast<unsigned>((count + threads - 1) / threads);
}

}  // namespace roofcast::workloads
