// Dependent-issue latency of FFMA, DFMA, IMAD, HFMA2 and MUFU: one warp, one chain per lane
// (x = x * a + b, or x = rsqrt(x)), so each instruction waits for the previous one's result;
// time per instruction is the latency. And one warp's issue interval: the same warp with
// kIndependentChains independent FFMA chains, enough to cover the FFMA latency, so the time
// per instruction is how often one warp can issue. a and b are kernel arguments, so the
// compiler cannot fold the chain; the SASS is checked in docs/bench.md.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "half_float.hpp"
#include "latency.hpp"

namespace roofcast::gpu {

namespace {

constexpr int kLanes = 32;
constexpr int kIndependentChains = 16;

// One instruction class: its value type, the dependent step, where lane l starts, and a check
// of lane l's result against a host replica after `steps` steps.
template <typename T>
struct FusedMultiplyAdd {  // FFMA (float), DFMA (double)
  using Value = T;
  T a, b;
  __host__ __device__ static T initial(int lane) { return T(0.5) + lane / T(64); }
  __device__ T step(T x) const {
    if constexpr (std::is_same_v<T, float>) return fmaf(x, a, b);
    else return fma(x, a, b);
  }
  std::string check(T got, int lane, long long steps) const {
    T x = initial(lane);
    for (long long s = 0; s < steps; ++s) x = std::fma(x, a, b);
    return got == x ? "" : fmt::format("lane {}: got {}, expected {}", lane, got, x);
  }
};
using Ffma = FusedMultiplyAdd<float>;
using Dfma = FusedMultiplyAdd<double>;

struct Imad {
  using Value = uint32_t;
  uint32_t a = 1664525u, b = 1013904223u;
  __host__ __device__ static uint32_t initial(int lane) { return lane * 2654435761u + 1u; }
  __device__ uint32_t step(uint32_t x) const { return x * a + b; }
  std::string check(uint32_t got, int lane, long long steps) const {
    uint32_t x = initial(lane);
    for (long long s = 0; s < steps; ++s) x = x * a + b;
    return got == x ? "" : fmt::format("lane {}: got {:#x}, expected {:#x}", lane, got, x);
  }
};

// Both halves of a half2: x = x * 0.99 + 0.01 (converges towards 1). The host rounds each
// step's exact result to half; the hardware's fused rounding can differ in the last bit.
struct Hfma2 {
  using Value = __half2;
  uint32_t a_bits = 0, b_bits = 0;  // half2 bits, both halves equal
  __device__ static __half2 initial(int lane) { return __floats2half2_rn(0.25f + lane / 64.0f, 0.3f + lane / 128.0f); }
  static float host_initial(int lane, int half) { return half == 0 ? 0.25f + lane / 64.0f : 0.3f + lane / 128.0f; }
  __device__ __half2 step(__half2 x) const {
    __half2 a, b;
    memcpy(&a, &a_bits, sizeof a);
    memcpy(&b, &b_bits, sizeof b);
    return __hfma2(x, a, b);
  }
  std::string check(__half2 got, int lane, long long steps) const {
    uint32_t got_bits;
    std::memcpy(&got_bits, &got, sizeof got_bits);
    const double a = half_bits_to_float(static_cast<uint16_t>(a_bits)), b = half_bits_to_float(static_cast<uint16_t>(b_bits));
    for (int half = 0; half < 2; ++half) {
      float x = half_bits_to_float(float_to_half_bits(host_initial(lane, half)));
      for (long long s = 0; s < steps; ++s) x = half_bits_to_float(float_to_half_bits(x * a + b));
      const float value = half_bits_to_float(static_cast<uint16_t>(got_bits >> (16 * half)));
      if (!(std::fabs(value - x) <= 0.01f * std::fabs(x)))
        return fmt::format("lane {} half {}: got {}, expected {}", lane, half, value, x);
    }
    return "";
  }
};

// x = 1 / sqrt(x) (MUFU.RSQ) converges to 1 from any positive start; checked to 1e-5.
struct Mufu {
  using Value = float;
  __host__ __device__ static float initial(int lane) { return 0.25f + lane / 4.0f; }
  __device__ float step(float x) const { return approximate_rsqrt(x); }
  std::string check(float got, int lane, long long steps) const {
    double x = initial(lane);
    for (long long s = 0; s < steps; ++s) x = 1 / std::sqrt(x);
    return std::fabs(got - x) <= 1e-5 * x ? "" : fmt::format("lane {}: got {}, expected {}", lane, got, x);
  }
};

// Lane l's chain; the result is stored before the block's end clock is read, so the chain
// cannot move past it.
template <typename Op>
__global__ void __launch_bounds__(kLanes) dependent_chain_kernel(typename Op::Value* out, Op op, int trips,
                                                                  BlockClock* clock) {
  record_block_start(clock);
  typename Op::Value x = Op::initial(threadIdx.x);
  for (int trip = 0; trip < trips; ++trip)
#pragma unroll
    for (int s = 0; s < kStepsPerTrip; ++s) x = op.step(x);
  out[threadIdx.x] = x;
  record_block_end(clock);
}

// kIndependentChains FFMA chains per lane: consecutive instructions never depend on each other.
__global__ void __launch_bounds__(kLanes) independent_ffma_kernel(float* out, float a, float b, int trips,
                                                                   BlockClock* clock) {
  record_block_start(clock);
  float x[kIndependentChains];
#pragma unroll
  for (int c = 0; c < kIndependentChains; ++c) x[c] = Ffma::initial(threadIdx.x) + c;
  for (int trip = 0; trip < trips; ++trip)
#pragma unroll
    for (int s = 0; s < kStepsPerTrip; ++s)
#pragma unroll
      for (int c = 0; c < kIndependentChains; ++c) x[c] = fmaf(x[c], a, b);
  float sum = 0;
#pragma unroll
  for (int c = 0; c < kIndependentChains; ++c) sum += x[c];
  out[threadIdx.x] = sum;
  record_block_end(clock);
}

// Every lane written (not the poison), lanes 0 and 31 recomputed on the host.
template <typename Value, typename Check>
std::string check_lanes(const DeviceBuffer<Value>& out, Check check) {
  const auto host = out.to_host();
  Value poison;
  std::memset(&poison, 0xA5, sizeof poison);
  for (int lane = 0; lane < kLanes; ++lane)
    if (std::memcmp(&host[lane], &poison, sizeof poison) == 0) return fmt::format("lane {} was never written", lane);
  for (const int lane : {0, kLanes - 1})
    if (auto problem = check(host[lane], lane); !problem.empty()) return problem;
  return "";
}

template <typename Op>
Measurement measure_dependent(const Context& context, const Op& op, const std::string& name, const std::string& sass,
                              const std::string& chain_text) {
  DeviceBuffer<typename Op::Value> out(kLanes);
  out.poison();
  Chain chain;
  chain.key = fmt::format("latency_{}_ns", name);
  chain.label = fmt::format("{} dependent-issue latency", sass);
  chain.what = fmt::format("{}, one warp (<<<1, 32>>>), one chain per lane", chain_text);
  chain.launch = [&](long long trips, BlockClock* clock) {
    dependent_chain_kernel<Op><<<1, kLanes>>>(out.data(), op, static_cast<int>(trips), clock);
    ROOFCAST_GPU_CHECK_LAUNCH("dependent_chain_kernel");
  };
  chain.verify = [&](const ChainSteps& steps) {
    return check_lanes(out, [&](typename Op::Value got, int lane) { return op.check(got, lane, steps.last_launch); });
  };
  return measure_chain(context, chain);
}

Measurement measure_issue_interval(const Context& context, const Ffma& op) {
  DeviceBuffer<float> out(kLanes);
  out.poison();
  Chain chain;
  chain.key = "warp_issue_interval_ns";
  chain.label = "One warp's issue interval (independent FFMA)";
  chain.what = fmt::format("{} independent FFMA chains per lane, one warp (<<<1, 32>>>): time per warp instruction",
                           kIndependentChains);
  chain.operations_per_step = kIndependentChains;
  chain.launch = [&](long long trips, BlockClock* clock) {
    independent_ffma_kernel<<<1, kLanes>>>(out.data(), op.a, op.b, static_cast<int>(trips), clock);
    ROOFCAST_GPU_CHECK_LAUNCH("independent_ffma_kernel");
  };
  chain.verify = [&](const ChainSteps& steps) {
    return check_lanes(out, [&](float got, int lane) -> std::string {
      float sum = 0;
      for (int c = 0; c < kIndependentChains; ++c) {
        float x = Ffma::initial(lane) + c;
        for (long long s = 0; s < steps.last_launch; ++s) x = std::fma(x, op.a, op.b);
        sum += x;
      }
      return got == sum ? "" : fmt::format("lane {}: got {}, expected {}", lane, got, sum);
    });
  };
  return measure_chain(context, chain);
}

}  // namespace

std::vector<Measurement> characterize_arithmetic_latency(const Context& context) {
  Hfma2 hfma2;
  const uint32_t a = float_to_half_bits(0.99), b = float_to_half_bits(0.01);
  hfma2.a_bits = a | (a << 16);
  hfma2.b_bits = b | (b << 16);
  const Ffma ffma{0.9999f, 0.0001f};  // slow contraction towards 1: values keep changing
  return {measure_dependent(context, ffma, "ffma", "FFMA", "FFMA x, x, a, b"),
          measure_dependent(context, Dfma{0.9999999, 0.0000001}, "dfma", "DFMA", "DFMA x, x, a, b"),
          measure_dependent(context, Imad{}, "imad", "IMAD", "IMAD x, x, a, b"),
          measure_dependent(context, hfma2, "hfma2", "HFMA2", "HFMA2 x, x, a, b"),
          measure_dependent(context, Mufu{}, "mufu", "MUFU.RSQ", "MUFU.RSQ x, x (rsqrt.approx.ftz.f32)"),
          measure_issue_interval(context, ffma)};
}

}  // namespace roofcast::gpu
