// Peak arithmetic throughput: every thread runs kChains independent dependency chains,
// kStepsPerTrip unrolled steps per trip of a run-time trip count, and writes one result.
// The grid is exactly one wave at full occupancy, so every SM works for the whole launch.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "characterizers.hpp"
#include "half_float.hpp"

namespace roofcast::gpu {

namespace {

constexpr int kThreads = 256;
constexpr int kChains = 8;
constexpr int kStepsPerTrip = 32;

// One arithmetic family: its value type, the step applied to every chain, and an exact
// host replica of the same arithmetic for checking.
struct Fp32Fma {
  using Value = float;
  static constexpr double kOpsPerStep = 2;  // per chain
  __host__ __device__ static float initial(unsigned thread, int chain) {
    return 0.5f + static_cast<float>((thread * 7u + chain * 131u) % 1024u) / 1024.0f;
  }
  __device__ static void step(float (&x)[kChains], float a, float b) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) x[c] = fmaf(x[c], a, b);
  }
  static void host_step(float (&x)[kChains], float a, float b) {
    for (auto& v : x) v = std::fma(v, a, b);
  }
  __host__ __device__ static float combine(const float (&x)[kChains]) {
    float sum = 0;
    for (int c = 0; c < kChains; ++c) sum += x[c];
    return sum;
  }
  static constexpr float kA = 0.9999f, kB = 0.0001f;  // slow contraction towards 1: values keep changing
};

struct Fp64Fma {
  using Value = double;
  static constexpr double kOpsPerStep = 2;
  __host__ __device__ static double initial(unsigned thread, int chain) {
    return 0.5 + static_cast<double>((thread * 7u + chain * 131u) % 1024u) / 1024.0;
  }
  __device__ static void step(double (&x)[kChains], double a, double b) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) x[c] = fma(x[c], a, b);
  }
  static void host_step(double (&x)[kChains], double a, double b) {
    for (auto& v : x) v = std::fma(v, a, b);
  }
  __host__ __device__ static double combine(const double (&x)[kChains]) {
    double sum = 0;
    for (int c = 0; c < kChains; ++c) sum += x[c];
    return sum;
  }
  static constexpr double kA = 0.9999999, kB = 0.0000001;
};

struct Int32Mad {
  using Value = uint32_t;
  static constexpr double kOpsPerStep = 2;
  __host__ __device__ static uint32_t initial(unsigned thread, int chain) { return thread * 2654435761u + chain * 97u + 1u; }
  __device__ static void step(uint32_t (&x)[kChains], uint32_t a, uint32_t b) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) x[c] = x[c] * a + b;
  }
  static void host_step(uint32_t (&x)[kChains], uint32_t a, uint32_t b) {
    for (auto& v : x) v = v * a + b;
  }
  __host__ __device__ static uint32_t combine(const uint32_t (&x)[kChains]) {
    uint32_t sum = 0;
    for (int c = 0; c < kChains; ++c) sum ^= x[c];
    return sum;
  }
  static constexpr uint32_t kA = 1664525u, kB = 1013904223u;
};

// Pairs (x, y) advanced as x += y; y += x: every intermediate is used twice, so no compiler
// can merge two adds into one instruction.
struct Int32Add {
  using Value = uint32_t;
  static constexpr double kOpsPerStep = 1;
  __host__ __device__ static uint32_t initial(unsigned thread, int chain) { return thread * 2654435761u + chain * 97u + 1u; }
  __device__ static void step(uint32_t (&x)[kChains], uint32_t, uint32_t) {
#pragma unroll
    for (int c = 0; c < kChains; c += 2) {
      x[c] += x[c + 1];
      x[c + 1] += x[c];
    }
  }
  static void host_step(uint32_t (&x)[kChains], uint32_t, uint32_t) {
    for (int c = 0; c < kChains; c += 2) {
      x[c] += x[c + 1];
      x[c + 1] += x[c];
    }
  }
  __host__ __device__ static uint32_t combine(const uint32_t (&x)[kChains]) {
    uint32_t sum = 0;
    for (int c = 0; c < kChains; ++c) sum ^= x[c];
    return sum;
  }
  static constexpr uint32_t kA = 0, kB = 0;
};

// Packed half precision: each step is one HFMA2 (two FMAs, four flops) per chain.
struct Half2Fma {
  using Value = __half2;
  static constexpr double kOpsPerStep = 4;
  static float initial_float(unsigned thread, int chain, int half) {
    return 0.5f + static_cast<float>((thread * 7u + chain * 131u + half * 17u) % 512u) / 512.0f;
  }
  __device__ static __half2 initial(unsigned thread, int chain) {
    return __floats2half2_rn(0.5f + static_cast<float>((thread * 7u + chain * 131u) % 512u) / 512.0f,
                             0.5f + static_cast<float>((thread * 7u + chain * 131u + 17u) % 512u) / 512.0f);
  }
  __device__ static void step(__half2 (&x)[kChains], __half2 a, __half2 b) {
#pragma unroll
    for (int c = 0; c < kChains; ++c) x[c] = __hfma2(x[c], a, b);
  }
  __device__ static __half2 combine(const __half2 (&x)[kChains]) {
    __half2 sum = x[0];
#pragma unroll
    for (int c = 1; c < kChains; ++c) sum = __hadd2(sum, x[c]);
    return sum;
  }
  static constexpr float kA = 0.99f, kB = 0.01f;
};

template <typename Op>
__global__ void __launch_bounds__(kThreads) chains_kernel(typename Op::Value* out, typename Op::Value a,
                                                          typename Op::Value b, int trips, BlockClock* clocks) {
  record_block_start(clocks);
  const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
  typename Op::Value x[kChains];
#pragma unroll
  for (int c = 0; c < kChains; ++c) x[c] = Op::initial(thread, c);
  for (int trip = 0; trip < trips; ++trip) {
#pragma unroll
    for (int s = 0; s < kStepsPerTrip; ++s) Op::step(x, a, b);
  }
  out[thread] = Op::combine(x);
  record_block_end(clocks);
}

// The threads whose results the host recomputes exactly: a few in the first, middle and last blocks.
std::vector<unsigned> sampled_threads(unsigned threads) {
  return {0, 1, kThreads - 1, threads / 2, threads / 2 + 33, threads - 1};
}

template <typename Op>
std::string check_exact(const std::vector<typename Op::Value>& out, long long steps) {
  for (const unsigned t : sampled_threads(static_cast<unsigned>(out.size()))) {
    typename Op::Value x[kChains];
    for (int c = 0; c < kChains; ++c) x[c] = Op::initial(t, c);
    for (long long s = 0; s < steps; ++s) Op::host_step(x, Op::kA, Op::kB);
    const auto expected = Op::combine(x);
    if (!(out[t] == expected))
      return fmt::format("thread {}: got {}, expected {}", t, static_cast<double>(out[t]), static_cast<double>(expected));
  }
  return "";
}

// Every output written (no poison left) and not all equal to zero.
template <typename Value>
std::string check_written(const std::vector<Value>& out) {
  Value poison;
  std::memset(&poison, 0xA5, sizeof poison);
  bool any_nonzero = false;
  for (size_t i = 0; i < out.size(); ++i) {
    if (std::memcmp(&out[i], &poison, sizeof poison) == 0) return fmt::format("output {} was never written", i);
    uint64_t bits = 0;
    std::memcpy(&bits, &out[i], sizeof(Value));
    any_nonzero |= bits != 0;
  }
  return any_nonzero ? "" : "every output is zero";
}

std::string check_half2(const std::vector<uint32_t>& out, long long steps) {
  for (const unsigned t : sampled_threads(static_cast<unsigned>(out.size()))) {
    for (int half = 0; half < 2; ++half) {
      const float a = half_bits_to_float(float_to_half_bits(Half2Fma::kA));
      const float b = half_bits_to_float(float_to_half_bits(Half2Fma::kB));
      float sum = 0;
      for (int c = 0; c < kChains; ++c) {
        float x = half_bits_to_float(float_to_half_bits(Half2Fma::initial_float(t, c, half)));
        for (long long s = 0; s < steps; ++s)
          x = half_bits_to_float(float_to_half_bits(static_cast<double>(x) * a + static_cast<double>(b)));
        sum = c == 0 ? x : half_bits_to_float(float_to_half_bits(static_cast<double>(sum) + x));
      }
      const float got = half_bits_to_float(static_cast<uint16_t>(out[t] >> (16 * half)));
      if (!(std::fabs(got - sum) <= 0.01f * std::fabs(sum)))
        return fmt::format("thread {} half {}: got {}, expected {}", t, half, got, sum);
    }
  }
  return "";
}

struct Family {
  const char* key;
  const char* label;
  const char* unit;
};

template <typename Op, typename Check>
Measurement measure_chains(const Context& context, const Family& family, typename Op::Value a, typename Op::Value b,
                           Check check) {
  int blocks_per_sm = 0;
  ROOFCAST_GPU_CHECK(max_active_blocks(&blocks_per_sm, chains_kernel<Op>, kThreads, 0));
  const int blocks = context.sm_count * blocks_per_sm;
  const unsigned threads = static_cast<unsigned>(blocks) * kThreads;
  DeviceBuffer<typename Op::Value> out(threads);
  DeviceBuffer<BlockClock> clocks(blocks);
  int trips = 1;
  auto launch = [&](long long n) {
    chains_kernel<Op><<<blocks, kThreads>>>(out.data(), a, b, static_cast<int>(n), clocks.data());
    ROOFCAST_GPU_CHECK_LAUNCH("chains_kernel");
  };
  trips = static_cast<int>(calibrate_iterations(launch, 16, context.target_ms, 1 << 24));
  out.poison();

  Workload w;
  w.key = family.key;
  w.label = family.label;
  w.unit = family.unit;
  w.work_per_launch = static_cast<double>(threads) * trips * kStepsPerTrip * kChains * Op::kOpsPerStep;
  w.launch = [&] { launch(trips); };
  w.verify = [&]() -> std::string {
    const auto host = out.to_host();
    if (auto problem = check_written(host); !problem.empty()) return problem;
    return check(host, static_cast<long long>(trips) * kStepsPerTrip);
  };
  w.clocks = &clocks;
  w.details = fmt::format("{} blocks x {} threads ({}/SM), {} chains, {} x {} steps", blocks, kThreads, blocks_per_sm,
                          kChains, trips, kStepsPerTrip);
  return measure(w, context.policy);
}

}  // namespace

std::vector<Measurement> characterize_compute(const Context& context) {
  std::vector<Measurement> results;
  results.push_back(measure_chains<Fp32Fma>(context, {"fp32_gflops", "FP32 FMA (T_SP)", "GFLOP/s"}, Fp32Fma::kA,
                                            Fp32Fma::kB, check_exact<Fp32Fma>));
  results.push_back(measure_chains<Fp64Fma>(context, {"fp64_gflops", "FP64 FMA (T_DP)", "GFLOP/s"}, Fp64Fma::kA,
                                            Fp64Fma::kB, check_exact<Fp64Fma>));
  results.push_back(measure_chains<Int32Mad>(context, {"int32_mad_giops", "INT32 multiply-add (T_int)", "GIOP/s"},
                                             Int32Mad::kA, Int32Mad::kB, check_exact<Int32Mad>));
  results.push_back(measure_chains<Int32Add>(context, {"int32_add_giops", "INT32 add (T_add)", "GIOP/s"}, Int32Add::kA,
                                             Int32Add::kB, check_exact<Int32Add>));
  // half2 results come back as raw bits: the host has no half arithmetic.
  const __half2 a = __floats2half2_rn(Half2Fma::kA, Half2Fma::kA);
  const __half2 b = __floats2half2_rn(Half2Fma::kB, Half2Fma::kB);
  results.push_back(measure_chains<Half2Fma>(
      context, {"half2_gflops", "FP16 half2 FMA", "GFLOP/s"}, a, b,
      [](const std::vector<__half2>& out, long long steps) {
        std::vector<uint32_t> bits(out.size());
        std::memcpy(bits.data(), out.data(), out.size() * sizeof(uint32_t));
        return check_half2(bits, steps);
      }));
  return results;
}

}  // namespace roofcast::gpu
