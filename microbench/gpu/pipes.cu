// Pipe issue rates: warp instructions per second of one instruction class, each kernel a set of
// independent dependency chains per thread (instruction-level parallelism) at full occupancy,
// one wave, kStepsPerTrip unrolled steps per trip of a run-time trip count. Every thread writes
// one result; the host recomputes sampled threads (exactly, or to a tolerance for MUFU and
// half precision). docs/bench.md lists the SASS each inner loop executes.
#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "characterizers.hpp"
#include "half_float.hpp"

namespace roofcast::gpu {

namespace {

constexpr int kThreads = 256;
constexpr int kStepsPerTrip = 32;
constexpr int kLsuWordsPerLane = 32;  // shared words each lane reads per trip

// Loop-invariant operands, kernel arguments so that nothing folds at compile time.
struct PipeArgs {
  float fa, fb;
  double da, db;
  uint32_t ia, ib;
  uint32_t k[4];       // LOP3 operands
  uint32_t ha, hb;     // half2 bits
};

__host__ __device__ inline uint32_t initial_word(unsigned thread, int chain) {
  return thread * 2654435761u + chain * 40503u + 1u;
}
__host__ __device__ inline float initial_float(unsigned thread, int chain) {
  return 0.5f + static_cast<float>((thread * 7u + chain * 131u) % 1024u) / 1024.0f;
}

// a ^ (b | c) in one LOP3: the OR keeps it non-linear, so no chain of them simplifies.
// The host replica (and HIP) computes the same in C++.
__host__ __device__ __forceinline__ uint32_t xor_or(uint32_t a, uint32_t b, uint32_t c) {
#if defined(__CUDA_ARCH__)
  uint32_t d;
  asm("lop3.b32 %0, %1, %2, %3, 0x1E;" : "=r"(d) : "r"(a), "r"(b), "r"(c));
  return d;
#else
  return a ^ (b | c);
#endif
}

__device__ __forceinline__ __half2 half2_from_bits(uint32_t bits) {
  __half2 h;
  memcpy(&h, &bits, sizeof h);
  return h;
}
__device__ __forceinline__ uint32_t bits_of(__half2 h) {
  uint32_t bits;
  memcpy(&bits, &h, sizeof bits);
  return bits;
}

// Each pipe: kInstructionsPerStep warp instructions of its class per step, a device loop and an
// exact host replica (bits of the thread's result), or a tolerance check where exact replication
// is impossible.
struct FmaPipe {  // FFMA
  static constexpr const char* kName = "fma";
  static constexpr int kChains = 8, kInstructionsPerStep = 8;
  __host__ __device__ static uint64_t run(unsigned thread, const PipeArgs& p, long long trips) {
    float x[kChains];
    for (int c = 0; c < kChains; ++c) x[c] = initial_float(thread, c);
    for (long long t = 0; t < trips; ++t)
#pragma unroll
      for (int s = 0; s < kStepsPerTrip; ++s)
#pragma unroll
        for (int c = 0; c < kChains; ++c) x[c] = fmaf(x[c], p.fa, p.fb);
    float sum = 0;
    for (int c = 0; c < kChains; ++c) sum += x[c];
    uint32_t bits;
    memcpy(&bits, &sum, sizeof bits);
    return bits;
  }
};

struct AluPipe {  // LOP3, pairs feeding each other
  static constexpr const char* kName = "alu";
  static constexpr int kChains = 8, kInstructionsPerStep = 8;
  __host__ __device__ static uint64_t run(unsigned thread, const PipeArgs& p, long long trips) {
    uint32_t x[kChains];
    for (int c = 0; c < kChains; ++c) x[c] = initial_word(thread, c);
    for (long long t = 0; t < trips; ++t)
#pragma unroll
      for (int s = 0; s < kStepsPerTrip; ++s)
#pragma unroll
        for (int c = 0; c < kChains; c += 2) {
          x[c] = xor_or(x[c], x[c + 1], p.k[c / 2]);
          x[c + 1] = xor_or(x[c + 1], x[c], p.k[(c / 2 + 1) % 4]);
        }
    uint32_t sum = 0;
    for (int c = 0; c < kChains; ++c) sum += x[c];
    return sum;
  }
};

struct FmaHeavyPipe {  // IMAD
  static constexpr const char* kName = "fmaheavy";
  static constexpr int kChains = 8, kInstructionsPerStep = 8;
  __host__ __device__ static uint64_t run(unsigned thread, const PipeArgs& p, long long trips) {
    uint32_t x[kChains];
    for (int c = 0; c < kChains; ++c) x[c] = initial_word(thread, c);
    for (long long t = 0; t < trips; ++t)
#pragma unroll
      for (int s = 0; s < kStepsPerTrip; ++s)
#pragma unroll
        for (int c = 0; c < kChains; ++c) x[c] = x[c] * p.ia + p.ib;
    uint32_t sum = 0;
    for (int c = 0; c < kChains; ++c) sum ^= x[c];
    return sum;
  }
};

struct Fp64Pipe {  // DFMA
  static constexpr const char* kName = "fp64";
  static constexpr int kChains = 8, kInstructionsPerStep = 8;
  __host__ __device__ static uint64_t run(unsigned thread, const PipeArgs& p, long long trips) {
    double x[kChains];
    for (int c = 0; c < kChains; ++c) x[c] = initial_float(thread, c);
    for (long long t = 0; t < trips; ++t)
#pragma unroll
      for (int s = 0; s < kStepsPerTrip; ++s)
#pragma unroll
        for (int c = 0; c < kChains; ++c) x[c] = fma(x[c], p.da, p.db);
    double sum = 0;
    for (int c = 0; c < kChains; ++c) sum += x[c];
    uint64_t bits;
    memcpy(&bits, &sum, sizeof bits);
    return bits;
  }
};

// Mix: FFMA chains and LOP3 pairs interleaved one to one (both pipes below their own limits on
// sm_90; on sm_70/80 each at its 2 per clock), so only dispatch limits the rate.
struct IssuePipe {
  static constexpr const char* kName = "issue";
  static constexpr int kFloatChains = 4, kWordChains = 4, kInstructionsPerStep = 8;
  __host__ __device__ static uint64_t run(unsigned thread, const PipeArgs& p, long long trips) {
    float f[kFloatChains];
    uint32_t w[kWordChains];
    for (int c = 0; c < kFloatChains; ++c) f[c] = initial_float(thread, c);
    for (int c = 0; c < kWordChains; ++c) w[c] = initial_word(thread, c);
    for (long long t = 0; t < trips; ++t)
#pragma unroll
      for (int s = 0; s < kStepsPerTrip; ++s)
#pragma unroll
        for (int c = 0; c < kWordChains; c += 2) {
          f[c] = fmaf(f[c], p.fa, p.fb);
          w[c] = xor_or(w[c], w[c + 1], p.k[c / 2]);
          f[c + 1] = fmaf(f[c + 1], p.fa, p.fb);
          w[c + 1] = xor_or(w[c + 1], w[c], p.k[c / 2 + 2]);
        }
    float sum = 0;
    uint32_t word = 0;
    for (int c = 0; c < kFloatChains; ++c) sum += f[c];
    for (int c = 0; c < kWordChains; ++c) word += w[c];
    uint32_t bits;
    memcpy(&bits, &sum, sizeof bits);
    return (static_cast<uint64_t>(word) << 32) | bits;
  }
};

// The device-only pipes: MUFU, HFMA2 and shared loads have no exact host replica.
struct XuPipe {  // MUFU.RSQ: x -> 1/sqrt(x) converges to 1 from any positive start
  static constexpr const char* kName = "xu";
  static constexpr int kChains = 8, kInstructionsPerStep = 8;
  __device__ static uint64_t run_device(unsigned thread, const PipeArgs&, long long trips) {
    float x[kChains];
    for (int c = 0; c < kChains; ++c) x[c] = 0.25f + 4.0f * initial_float(thread, c);
    for (long long t = 0; t < trips; ++t)
#pragma unroll
      for (int s = 0; s < kStepsPerTrip; ++s)
#pragma unroll
        for (int c = 0; c < kChains; ++c) x[c] = approximate_rsqrt(x[c]);
    float sum = 0;
    for (int c = 0; c < kChains; ++c) sum += x[c];
    uint32_t bits;
    memcpy(&bits, &sum, sizeof bits);
    return bits;
  }
  static float host_value(unsigned thread, long long steps) {
    float sum = 0;
    for (int c = 0; c < kChains; ++c) {
      double x = 0.25f + 4.0f * initial_float(thread, c);
      for (long long s = 0; s < steps; ++s) x = 1.0 / std::sqrt(x);
      sum += static_cast<float>(x);
    }
    return sum;
  }
};

struct Fp16Pipe {  // HFMA2
  static constexpr const char* kName = "fp16";
  static constexpr int kChains = 8, kInstructionsPerStep = 8;
  static float initial(unsigned thread, int chain, int half) {
    return 0.5f + static_cast<float>((thread * 7u + chain * 131u + half * 17u) % 512u) / 512.0f;
  }
  __device__ static uint64_t run_device(unsigned thread, const PipeArgs& p, long long trips) {
    __half2 x[kChains];
    for (int c = 0; c < kChains; ++c)
      x[c] = __floats2half2_rn(0.5f + static_cast<float>((thread * 7u + c * 131u) % 512u) / 512.0f,
                               0.5f + static_cast<float>((thread * 7u + c * 131u + 17u) % 512u) / 512.0f);
    const __half2 a = half2_from_bits(p.ha), b = half2_from_bits(p.hb);
    for (long long t = 0; t < trips; ++t)
#pragma unroll
      for (int s = 0; s < kStepsPerTrip; ++s)
#pragma unroll
        for (int c = 0; c < kChains; ++c) x[c] = __hfma2(x[c], a, b);
    __half2 sum = x[0];
    for (int c = 1; c < kChains; ++c) sum = __hadd2(sum, x[c]);
    return bits_of(sum);
  }
};

// LDS.32: each lane reads kLsuWordsPerLane words per trip at word (k * 32 + lane): a warp's
// access is one 128-byte row, conflict-free. Volatile, so every trip loads again.
struct LsuPipe {
  static constexpr const char* kName = "lsu";
  static constexpr int kInstructionsPerTrip = kLsuWordsPerLane;
  __host__ __device__ static uint32_t word(int index) { return static_cast<uint32_t>(index) * 2246822519u + 3u; }
  __device__ static uint64_t run_device(unsigned, const PipeArgs&, long long trips) {
    __shared__ uint32_t words[kLsuWordsPerLane * 32];
    for (int i = threadIdx.x; i < kLsuWordsPerLane * 32; i += blockDim.x) words[i] = word(i);
    __syncthreads();
    const volatile uint32_t* row = words + threadIdx.x % 32;
    uint32_t acc[4] = {0, 0, 0, 0};
    for (long long t = 0; t < trips; ++t)
#pragma unroll
      for (int k = 0; k < kLsuWordsPerLane; ++k) acc[k % 4] += row[k * 32];
    return acc[0] + acc[1] + acc[2] + acc[3];
  }
  static uint32_t host_value(unsigned lane, long long trips) {
    uint32_t per_trip = 0;
    for (int k = 0; k < kLsuWordsPerLane; ++k) per_trip += word(k * 32 + static_cast<int>(lane));
    return per_trip * static_cast<uint32_t>(trips);
  }
};

template <typename Pipe>
__device__ uint64_t run_on_device(unsigned thread, const PipeArgs& p, long long trips) {
  if constexpr (std::is_same_v<Pipe, XuPipe> || std::is_same_v<Pipe, Fp16Pipe> || std::is_same_v<Pipe, LsuPipe>)
    return Pipe::run_device(thread, p, trips);
  else
    return Pipe::run(thread, p, trips);
}

template <typename Pipe>
__global__ void __launch_bounds__(kThreads) pipe_kernel(uint64_t* out, PipeArgs args, int trips, BlockClock* clocks) {
  record_block_start(clocks);
  const unsigned thread = blockIdx.x * blockDim.x + threadIdx.x;
  out[thread] = run_on_device<Pipe>(thread, args, trips);
  record_block_end(clocks);
}

template <typename Pipe>
constexpr int instructions_per_trip() {
  if constexpr (std::is_same_v<Pipe, LsuPipe>) return Pipe::kInstructionsPerTrip;
  else return Pipe::kInstructionsPerStep * kStepsPerTrip;
}

std::vector<unsigned> sampled_threads(unsigned threads) {
  return {0, 1, 31, kThreads - 1, threads / 2, threads / 2 + 33, threads - 1};
}

float float_bits(uint64_t bits) {
  float f;
  const auto low = static_cast<uint32_t>(bits);
  std::memcpy(&f, &low, sizeof f);
  return f;
}

// Exact host replicas for the pipes that have one, tolerance checks for the others.
template <typename Pipe>
std::string check_thread(uint64_t got, unsigned thread, const PipeArgs& p, long long trips) {
  if constexpr (std::is_same_v<Pipe, XuPipe>) {
    const float expected = XuPipe::host_value(thread, trips * kStepsPerTrip);
    const float value = float_bits(got);
    if (!(std::fabs(value - expected) <= 1e-5f * expected))
      return fmt::format("thread {}: got {}, expected {}", thread, value, expected);
    return "";
  } else if constexpr (std::is_same_v<Pipe, Fp16Pipe>) {
    const long long steps = trips * kStepsPerTrip;
    for (int half = 0; half < 2; ++half) {
      const float a = half_bits_to_float(static_cast<uint16_t>(p.ha >> (16 * half)));
      const float b = half_bits_to_float(static_cast<uint16_t>(p.hb >> (16 * half)));
      float sum = 0;
      for (int c = 0; c < Fp16Pipe::kChains; ++c) {
        float x = half_bits_to_float(float_to_half_bits(Fp16Pipe::initial(thread, c, half)));
        for (long long s = 0; s < steps; ++s)
          x = half_bits_to_float(float_to_half_bits(static_cast<double>(x) * a + static_cast<double>(b)));
        sum = c == 0 ? x : half_bits_to_float(float_to_half_bits(static_cast<double>(sum) + x));
      }
      const float value = half_bits_to_float(static_cast<uint16_t>(got >> (16 * half)));
      if (!(std::fabs(value - sum) <= 0.01f * std::fabs(sum)))
        return fmt::format("thread {} half {}: got {}, expected {}", thread, half, value, sum);
    }
    return "";
  } else if constexpr (std::is_same_v<Pipe, LsuPipe>) {
    const uint32_t expected = LsuPipe::host_value(thread % 32, trips);
    if (got != expected) return fmt::format("thread {}: got {}, expected {}", thread, got, expected);
    return "";
  } else {
    const uint64_t expected = Pipe::run(thread, p, trips);
    if (got != expected) return fmt::format("thread {}: got {:#x}, expected {:#x}", thread, got, expected);
    return "";
  }
}

struct PipeLabel {
  const char* label;
  const char* sass;
};

template <typename Pipe>
Measurement measure_pipe(const Context& context, const PipeArgs& args, const PipeLabel& label) {
  int blocks_per_sm = 0;
  ROOFCAST_GPU_CHECK(max_active_blocks(&blocks_per_sm, pipe_kernel<Pipe>, kThreads, 0));
  const int blocks = context.sm_count * blocks_per_sm;
  const unsigned threads = static_cast<unsigned>(blocks) * kThreads;
  DeviceBuffer<uint64_t> out(threads);
  DeviceBuffer<BlockClock> clocks(blocks);
  auto launch = [&](long long n) {
    pipe_kernel<Pipe><<<blocks, kThreads>>>(out.data(), args, static_cast<int>(n), clocks.data());
    ROOFCAST_GPU_CHECK_LAUNCH("pipe_kernel");
  };
  // Bounded so that the host replicas of sampled threads stay quick.
  const int trips = static_cast<int>(calibrate_iterations(launch, 16, context.target_ms, 1 << 16));
  out.poison();

  Workload w;
  w.key = fmt::format("pipe_{}_gwips", Pipe::kName);
  w.label = label.label;
  w.unit = "Gwarp-inst/s";
  const double warps = static_cast<double>(threads) / context.warp_size;
  w.work_per_launch = warps * trips * instructions_per_trip<Pipe>();
  w.launch = [&] { launch(trips); };
  w.verify = [&]() -> std::string {
    const auto host = out.to_host();
    uint64_t poison;
    std::memset(&poison, 0xA5, sizeof poison);
    bool any_nonzero = false;
    for (size_t i = 0; i < host.size(); ++i) {
      if (host[i] == poison) return fmt::format("output {} was never written", i);
      any_nonzero |= host[i] != 0;
    }
    if (!any_nonzero) return "every output is zero";
    for (const unsigned t : sampled_threads(threads))
      if (auto problem = check_thread<Pipe>(host[t], t, args, trips); !problem.empty()) return problem;
    return "";
  };
  w.clocks = &clocks;
  Measurement m = measure(w, context.policy);
  const double per_sm_per_clock =
      m.sm_clock_mhz > 0 ? m.value.median * 1e3 / (context.sm_count * m.sm_clock_mhz) : 0;
  m.details = fmt::format("{:.3f} warp instructions per clock per SM ({} SMs, {:.0f} MHz in kernel); {}; {} blocks x {} "
                          "threads ({}/SM), {} x {} warp instructions per warp",
                          per_sm_per_clock, context.sm_count, m.sm_clock_mhz, label.sass, blocks, kThreads,
                          blocks_per_sm, trips, instructions_per_trip<Pipe>());
  return m;
}

}  // namespace

std::vector<Measurement> characterize_pipes(const Context& context) {
  PipeArgs args{};
  args.fa = 0.9999f;
  args.fb = 0.0001f;
  args.da = 0.9999999;
  args.db = 0.0000001;
  args.ia = 1664525u;
  args.ib = 1013904223u;
  args.k[0] = 0x01234567u;
  args.k[1] = 0x89ABCDEFu;
  args.k[2] = 0x10203040u;
  args.k[3] = 0x0F1E2D3Cu;
  const uint32_t ha = float_to_half_bits(0.99f), hb = float_to_half_bits(0.01f);
  args.ha = ha | (ha << 16);
  args.hb = hb | (hb << 16);

  std::vector<Measurement> results;
  results.push_back(measure_pipe<FmaPipe>(context, args, {"FMA pipe (FFMA)", "FFMA"}));
  results.push_back(measure_pipe<AluPipe>(context, args, {"ALU pipe (LOP3)", "LOP3.LUT"}));
  results.push_back(measure_pipe<FmaHeavyPipe>(context, args, {"FMA-heavy pipe (IMAD)", "IMAD"}));
  results.push_back(measure_pipe<Fp64Pipe>(context, args, {"FP64 pipe (DFMA)", "DFMA"}));
  results.push_back(measure_pipe<Fp16Pipe>(context, args, {"FP16 pipe (HFMA2)", "HFMA2"}));
  results.push_back(measure_pipe<XuPipe>(context, args, {"XU pipe (MUFU.RSQ)", "MUFU.RSQ"}));
  results.push_back(measure_pipe<LsuPipe>(context, args, {"LSU pipe (LDS.32)", "LDS, conflict-free"}));
  results.push_back(measure_pipe<IssuePipe>(context, args, {"Issue limit (FFMA + LOP3 mix)", "FFMA and LOP3.LUT 1:1"}));
  return results;
}

}  // namespace roofcast::gpu
