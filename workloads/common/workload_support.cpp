#include "workload_support.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

namespace roofcast::workloads {

namespace {

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double unit_double(std::uint64_t bits) { return static_cast<double>(bits >> 11) * 0x1.0p-53; }

int positive_int(const char* text, const char* option) {
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (*text == '\0' || *end != '\0' || value < 0 || value > 100000) {
    std::fprintf(stderr, "error: %s: expected a count from 0 to 100000, found \"%s\"\n", option, text);
    std::exit(2);
  }
  return static_cast<int>(value);
}

}  // namespace

void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status == cudaSuccess) return;
  std::fprintf(stderr, "error: %s failed at %s:%d: %s (%s)\n", call, file, line, cudaGetErrorString(status),
               cudaGetErrorName(status));
  std::exit(1);
}

Options parse_options(int argc, char** argv, const char* workload, const char* description) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    const char* arg = argv[i];
    if (std::strcmp(arg, "--small") == 0) {
      options.small = true;
    } else if ((std::strcmp(arg, "--repeats") == 0 || std::strcmp(arg, "--warmups") == 0) && i + 1 < argc) {
      const int value = positive_int(argv[++i], arg);
      (arg[2] == 'r' ? options.repeats : options.warmups) = value;
    } else if (std::strcmp(arg, "--help") == 0 || std::strcmp(arg, "-h") == 0) {
      std::printf("%s: %s\nUsage: %s [--small] [--warmups N] [--repeats N]\n"
                  "  --small      a quick size, for tests\n"
                  "  --warmups N  untimed launches of each kernel first (default 2)\n"
                  "  --repeats N  timed launches of each kernel; the median is printed (default 10)\n",
                  workload, description, argv[0]);
      std::exit(0);
    } else {
      std::fprintf(stderr, "error: unknown argument \"%s\" (try --help)\n", arg);
      std::exit(2);
    }
  }
  if (options.repeats < 1) {
    std::fprintf(stderr, "error: --repeats: at least 1\n");
    std::exit(2);
  }
  return options;
}

void print_header(const char* workload, const std::string& size) {
  int device = 0;
  ROOFCAST_CUDA(cudaGetDevice(&device));
  cudaDeviceProp properties{};
  ROOFCAST_CUDA(cudaGetDeviceProperties(&properties, device));
  std::printf("workload %s: %s on %s (%d SMs)\n", workload, size.c_str(), properties.name,
              properties.multiProcessorCount);
}

void time_kernel(const std::string& name, const Options& options, const std::function<void()>& launch,
                 int launches_per_call) {
  cudaEvent_t start, stop;
  ROOFCAST_CUDA(cudaEventCreate(&start));
  ROOFCAST_CUDA(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int i = 0; i < options.warmups + options.repeats; ++i) {
    ROOFCAST_CUDA(cudaEventRecord(start));
    launch();
    ROOFCAST_CUDA(cudaGetLastError());
    ROOFCAST_CUDA(cudaEventRecord(stop));
    ROOFCAST_CUDA(cudaEventSynchronize(stop));
    float ms = 0;
    ROOFCAST_CUDA(cudaEventElapsedTime(&ms, start, stop));
    if (i >= options.warmups) times.push_back(ms / static_cast<float>(launches_per_call));
  }
  ROOFCAST_CUDA(cudaEventDestroy(start));
  ROOFCAST_CUDA(cudaEventDestroy(stop));
  std::sort(times.begin(), times.end());
  const size_t n = times.size();
  const double median = n % 2 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);
  std::printf("kernel %s median_ms %.6f min_ms %.6f max_ms %.6f launches %d\n", name.c_str(), median, times.front(),
              times.back(), (options.warmups + options.repeats) * launches_per_call);
  std::fflush(stdout);
}

bool report_check(const std::string& name, bool ok, const std::string& detail) {
  std::printf("check %s %s %s\n", name.c_str(), ok ? "ok" : "FAILED", detail.c_str());
  std::fflush(stdout);
  return ok;
}

std::uint64_t fresh_seed() {
  return static_cast<std::uint64_t>(std::chrono::high_resolution_clock::now().time_since_epoch().count()) ^
         0xA5A5A5A5DEADBEEFull;
}

void fill_uniform(std::vector<float>& values, float low, float high, std::uint64_t seed) {
  for (auto& v : values) v = static_cast<float>(low + (high - low) * unit_double(splitmix64(seed)));
}

void fill_uniform(std::vector<double>& values, double low, double high, std::uint64_t seed) {
  for (auto& v : values) v = low + (high - low) * unit_double(splitmix64(seed));
}

void fill_bits(std::vector<std::uint32_t>& values, std::uint64_t seed) {
  for (auto& v : values) v = static_cast<std::uint32_t>(splitmix64(seed) >> 32);
}

std::vector<size_t> elements_to_check(size_t n, size_t limit) {
  std::vector<size_t> picks;
  if (n <= limit) {
    for (size_t i = 0; i < n; ++i) picks.push_back(i);
    return picks;
  }
  std::uint64_t state = fresh_seed();
  for (size_t s = 0; s < limit; ++s) picks.push_back(splitmix64(state) % n);
  return picks;
}

std::string scientific(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2e", value);
  return text;
}

double max_relative_error(const std::vector<double>& got, const std::vector<double>& want, double floor) {
  if (got.size() != want.size()) return std::numeric_limits<double>::infinity();
  double worst = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const double error = std::abs(got[i] - want[i]) / std::max(std::abs(want[i]), floor);
    if (!(error <= worst)) worst = std::isnan(error) ? std::numeric_limits<double>::infinity() : error;
  }
  return worst;
}

}  // namespace roofcast::workloads
