// The mixbench roofline sweep: each thread loads kElements values (block-strided, so every
// load instruction of a warp is coalesced), applies `iterations` dependent FMAs to each (a
// run-time count over a loop unrolled kUnroll times: one instantiation per type keeps the
// compile short and the code identical at every point), reduces them and lane 0 of each
// warp writes the warp's sum. Raising `iterations` moves the kernel from memory-bound to
// compute-bound.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "characterizers.hpp"
#include "half_float.hpp"

namespace roofcast::gpu {

namespace {

constexpr int kThreads = 256;
constexpr int kElements = 8;
constexpr int kUnroll = 8;

const std::vector<int> kFullIterations = {0,  1,  2,  3,  4,  5,   6,   7,   8,   10,  12,   14,   16,  20,  24,  28, 32,
                                          40, 48, 56, 64, 80, 96, 128, 160, 192, 256, 384, 512, 768, 1024, 1536, 2048};
const std::vector<int> kQuickIterations = {0, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048};

// Each type: its value, the data formula, one FMA on device and host, the reduction add.
struct Fp32 {
  using Value = float;
  static constexpr const char* kName = "fp32";
  static constexpr double kLanes = 1;
  __host__ __device__ static float data(size_t i) { return 0.5f + static_cast<float>(i % 1024) / 1024.0f; }
  __device__ static float fma(float x, float a, float b) { return fmaf(x, a, b); }
  __device__ static float add(float x, float y) { return x + y; }
  __device__ static float shuffle(float x, int mask) { return shuffle_xor(x, mask); }
  static float host_fma(float x, float a, float b) { return std::fma(x, a, b); }
  static float host_add(float x, float y) { return x + y; }
  static bool close(float got, float expected) { return got == expected; }
  static float a() { return 0.999f; }
  static float b() { return 0.001f; }
};

struct Fp64 {
  using Value = double;
  static constexpr const char* kName = "fp64";
  static constexpr double kLanes = 1;
  __host__ __device__ static double data(size_t i) { return 0.5 + static_cast<double>(i % 1024) / 1024.0; }
  __device__ static double fma(double x, double a, double b) { return ::fma(x, a, b); }
  __device__ static double add(double x, double y) { return x + y; }
  __device__ static double shuffle(double x, int mask) { return shuffle_xor(x, mask); }
  static double host_fma(double x, double a, double b) { return std::fma(x, a, b); }
  static double host_add(double x, double y) { return x + y; }
  static bool close(double got, double expected) { return got == expected; }
  static double a() { return 0.999; }
  static double b() { return 0.001; }
};

struct Int32 {
  using Value = uint32_t;
  static constexpr const char* kName = "int32";
  static constexpr double kLanes = 1;
  __host__ __device__ static uint32_t data(size_t i) { return static_cast<uint32_t>(i) * 2654435761u + 1u; }
  __device__ static uint32_t fma(uint32_t x, uint32_t a, uint32_t b) { return x * a + b; }
  __device__ static uint32_t add(uint32_t x, uint32_t y) { return x + y; }
  __device__ static uint32_t shuffle(uint32_t x, int mask) { return shuffle_xor(x, mask); }
  static uint32_t host_fma(uint32_t x, uint32_t a, uint32_t b) { return x * a + b; }
  static uint32_t host_add(uint32_t x, uint32_t y) { return x + y; }
  static bool close(uint32_t got, uint32_t expected) { return got == expected; }
  static uint32_t a() { return 1664525u; }
  static uint32_t b() { return 1013904223u; }
};

// Packed halves. The host side works on the raw bits (low half first) with exact rounding.
struct Half2 {
  using Value = __half2;
  static constexpr const char* kName = "half2";
  static constexpr double kLanes = 2;
  static float half_data(size_t i, int half) { return 0.5f + static_cast<float>((i + 17 * half) % 512) / 512.0f; }
  __device__ static __half2 data(size_t i) {
    return __floats2half2_rn(0.5f + static_cast<float>(i % 512) / 512.0f,
                             0.5f + static_cast<float>((i + 17) % 512) / 512.0f);
  }
  __device__ static __half2 fma(__half2 x, __half2 a, __half2 b) { return __hfma2(x, a, b); }
  __device__ static __half2 add(__half2 x, __half2 y) { return __hadd2(x, y); }
  __device__ static __half2 shuffle(__half2 x, int mask) {
    unsigned bits;
    memcpy(&bits, &x, sizeof bits);
    bits = shuffle_xor(bits, mask);
    memcpy(&x, &bits, sizeof bits);
    return x;
  }
  static constexpr float kA = 0.99f, kB = 0.01f;
};

template <typename Op>
__global__ void fill_kernel(typename Op::Value* data, size_t elements) {
  const size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < elements; i += stride)
    data[i] = Op::data(i);
}

template <typename Op>
__global__ void __launch_bounds__(kThreads) roofline_kernel(const typename Op::Value* data,
                                                            typename Op::Value* warp_sums, int iterations,
                                                            typename Op::Value a, typename Op::Value b) {
  using Value = typename Op::Value;
  const size_t base = blockIdx.x * static_cast<size_t>(kThreads) * kElements + threadIdx.x;
  Value x[kElements];
#pragma unroll
  for (int e = 0; e < kElements; ++e) x[e] = data[base + e * kThreads];
#pragma unroll kUnroll
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int e = 0; e < kElements; ++e) x[e] = Op::fma(x[e], a, b);
  }
  Value sum = x[0];
#pragma unroll
  for (int e = 1; e < kElements; ++e) sum = Op::add(sum, x[e]);
  for (int offset = warpSize / 2; offset > 0; offset /= 2) sum = Op::add(sum, Op::shuffle(sum, offset));
  const size_t thread = blockIdx.x * static_cast<size_t>(kThreads) + threadIdx.x;
  if (threadIdx.x % warpSize == 0) warp_sums[thread / warpSize] = sum;
}

// Host replica of one warp's sum, in the kernel's order of operations.
template <typename Value, typename Load, typename Fma, typename Add>
Value host_warp_sum(size_t warp, int warp_size, int iterations, Load load, Fma fma, Add add) {
  std::vector<Value> lanes(warp_size);
  for (int lane = 0; lane < warp_size; ++lane) {
    const size_t thread = warp * warp_size + lane;
    const size_t base = thread / kThreads * kThreads * kElements + thread % kThreads;
    Value sum{};
    for (int e = 0; e < kElements; ++e) {
      Value x = load(base + e * kThreads);
      for (int i = 0; i < iterations; ++i) x = fma(x);
      sum = e == 0 ? x : add(sum, x);
    }
    lanes[lane] = sum;
  }
  for (int offset = warp_size / 2; offset > 0; offset /= 2) {
    std::vector<Value> next(warp_size);
    for (int lane = 0; lane < warp_size; ++lane) next[lane] = add(lanes[lane], lanes[lane ^ offset]);
    lanes = next;
  }
  return lanes[0];
}

template <typename Op>
std::string check_warp(const std::vector<typename Op::Value>& sums, size_t warp, int warp_size, int iterations) {
  if constexpr (std::is_same_v<Op, Half2>) {
    uint32_t bits;
    std::memcpy(&bits, &sums[warp], sizeof bits);
    for (int half = 0; half < 2; ++half) {
      auto round = [](double v) { return half_bits_to_float(float_to_half_bits(v)); };
      const float a = round(Half2::kA), b = round(Half2::kB);
      const float expected = host_warp_sum<float>(
          warp, warp_size, iterations, [&](size_t i) { return round(Half2::half_data(i, half)); },
          [&](float x) { return round(static_cast<double>(x) * a + b); },
          [&](float x, float y) { return round(static_cast<double>(x) + y); });
      const float got = half_bits_to_float(static_cast<uint16_t>(bits >> (16 * half)));
      if (!(std::fabs(got - expected) <= 1e-3f * std::fabs(expected)))
        return fmt::format("warp {} half {}: got {}, expected {}", warp, half, got, expected);
    }
    return "";
  } else {
    const auto a = Op::a(), b = Op::b();
    const auto expected = host_warp_sum<typename Op::Value>(
        warp, warp_size, iterations, [](size_t i) { return Op::data(i); },
        [&](typename Op::Value x) { return Op::host_fma(x, a, b); }, Op::host_add);
    if (!Op::close(sums[warp], expected))
      return fmt::format("warp {}: got {}, expected {}", warp, static_cast<double>(sums[warp]),
                         static_cast<double>(expected));
    return "";
  }
}

template <typename Value>
std::string check_all_written(const std::vector<Value>& sums) {
  Value poison;
  std::memset(&poison, 0xA5, sizeof poison);
  for (size_t w = 0; w < sums.size(); ++w)
    if (std::memcmp(&sums[w], &poison, sizeof poison) == 0) return fmt::format("warp {} wrote no result", w);
  return "";
}

template <typename Op>
std::vector<SweepPoint> sweep(const Context& context, const RooflineRates& rates, double peak_gops,
                              const std::function<void()>& progress) {
  using Value = typename Op::Value;
  const size_t chunk = static_cast<size_t>(kThreads) * kElements;  // elements per block
  const size_t wanted_bytes = (context.quick ? 1ull : 4ull) << 30;
  const size_t max_elements = std::min(wanted_bytes, context.free_bytes / 3) / sizeof(Value) / chunk * chunk;
  const size_t min_elements =
      std::min(max_elements, (4 * context.l2_bytes / sizeof(Value) + chunk - 1) / chunk * chunk);
  DeviceBuffer<Value> data(max_elements);
  fill_kernel<Op><<<4096, 256>>>(data.data(), max_elements);
  ROOFCAST_GPU_CHECK_LAUNCH("fill_kernel");
  DeviceBuffer<Value> warp_sums(max_elements / kElements / context.warp_size);

  Value a, b;
  if constexpr (std::is_same_v<Op, Half2>) {
    a = __floats2half2_rn(Half2::kA, Half2::kA);
    b = __floats2half2_rn(Half2::kB, Half2::kB);
  } else {
    a = Op::a();
    b = Op::b();
  }
  const double log2_warp = std::log2(context.warp_size);

  std::vector<SweepPoint> points;
  for (const int iterations : context.quick ? kQuickIterations : kFullIterations) {
    const double ops_per_element =
        Op::kLanes * (2.0 * iterations + (kElements - 1 + log2_warp) / kElements);
    // Enough elements for about target_ms at the rates measured earlier, all of them while memory-bound.
    const double seconds_per_element =
        std::max(sizeof(Value) / (rates.dram_gbps * 1e9), ops_per_element / (peak_gops * 1e9));
    size_t elements = static_cast<size_t>(context.target_ms * 1e-3 / seconds_per_element) / chunk * chunk;
    elements = std::clamp(elements, min_elements, max_elements);
    const unsigned blocks = static_cast<unsigned>(elements / chunk);
    const size_t warps = elements / kElements / context.warp_size;
    warp_sums.poison();

    Workload w;
    w.key = std::string("mixbench_") + Op::kName;
    w.label = w.key;
    w.unit = "GOP/s";
    w.work_per_launch = ops_per_element * elements;
    w.launch = [&] {
      roofline_kernel<Op><<<blocks, kThreads>>>(data.data(), warp_sums.data(), iterations, a, b);
      ROOFCAST_GPU_CHECK_LAUNCH("roofline_kernel");
    };
    w.verify = [&]() -> std::string {
      const auto sums = warp_sums.to_host(warps);
      if (auto problem = check_all_written(sums); !problem.empty()) return problem;
      for (const size_t warp : {size_t{0}, warps - 1})
        if (auto problem = check_warp<Op>(sums, warp, context.warp_size, iterations); !problem.empty())
          return problem;
      return "";
    };
    RunPolicy policy = context.policy;
    policy.warmups = 1;
    const Measurement m = measure(w, policy);

    SweepPoint p;
    p.precision = Op::kName;
    p.iterations = iterations;
    p.elements = static_cast<double>(elements);
    const double bytes = static_cast<double>(elements) * sizeof(Value) + static_cast<double>(warps) * sizeof(Value);
    p.ops_per_byte = w.work_per_launch / bytes;
    p.time_ms = m.time_ms;
    p.gops = w.work_per_launch / (m.time_ms.median * 1e6);
    p.gbps = bytes / (m.time_ms.median * 1e6);
    p.verified = m.verified;
    points.push_back(p);
    progress();
  }
  return points;
}

}  // namespace

int roofline_point_count(const Context& context) {
  return 4 * static_cast<int>((context.quick ? kQuickIterations : kFullIterations).size());
}

std::vector<SweepPoint> characterize_roofline(const Context& context, const RooflineRates& rates,
                                              const std::function<void()>& progress) {
  std::vector<SweepPoint> all;
  for (auto part : {sweep<Fp32>(context, rates, rates.fp32_gflops, progress),
                    sweep<Fp64>(context, rates, rates.fp64_gflops, progress),
                    sweep<Half2>(context, rates, rates.half2_gflops, progress),
                    sweep<Int32>(context, rates, rates.int32_mad_giops, progress)})
    all.insert(all.end(), part.begin(), part.end());
  return all;
}

}  // namespace roofcast::gpu
