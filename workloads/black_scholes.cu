// Held-out (docs/validation/heldout): Black-Scholes prices of European call and put options, the
// formula and the polynomial normal CDF of NVIDIA's CUDA sample (Podlozhnyuk, "Black-Scholes
// option pricing", 2007), in fp32 and in fp64. Per option one log, one sqrt, three exps and
// three divisions: special-function units in fp32, long software sequences in fp64 (exp and log
// have no hardware instruction there). One option per thread; inputs and prices in separate
// arrays, 320 MiB per kernel, far larger than L2.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr unsigned kThreads = 128;
constexpr double kRiskFree = 0.02;
constexpr double kVolatility = 0.30;

// The cumulative normal distribution by the Abramowitz-Stegun polynomial (26.2.17).
template <typename Real>
__host__ __device__ Real normal_cdf(Real d) {
  const Real a1 = 0.31938153, a2 = -0.356563782, a3 = 1.781477937, a4 = -1.821255978, a5 = 1.330274429;
  const Real inverse_sqrt_2pi = 0.39894228040143267793994605993438;
  const Real k = Real(1) / (Real(1) + Real(0.2316419) * fabs(d));
  const Real tail = inverse_sqrt_2pi * exp(Real(-0.5) * d * d) * (k * (a1 + k * (a2 + k * (a3 + k * (a4 + k * a5)))));
  return d > 0 ? Real(1) - tail : tail;
}

template <typename Real>
__host__ __device__ void price_option(Real& call, Real& put, Real spot, Real strike, Real years) {
  const Real r = kRiskFree, v = kVolatility;
  const Real v_sqrt_t = v * sqrt(years);
  const Real d1 = (log(spot / strike) + (r + Real(0.5) * v * v) * years) / v_sqrt_t;
  const Real d2 = d1 - v_sqrt_t;
  const Real cnd1 = normal_cdf(d1), cnd2 = normal_cdf(d2);
  const Real discount = exp(-r * years);
  call = spot * cnd1 - strike * discount * cnd2;
  put = strike * discount * (Real(1) - cnd2) - spot * (Real(1) - cnd1);
}

__global__ void black_scholes_fp32(float* __restrict__ call, float* __restrict__ put, const float* __restrict__ spot,
                                   const float* __restrict__ strike, const float* __restrict__ years, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) price_option(call[i], put[i], spot[i], strike[i], years[i]);
}

__global__ void black_scholes_fp64(double* __restrict__ call, double* __restrict__ put,
                                   const double* __restrict__ spot, const double* __restrict__ strike,
                                   const double* __restrict__ years, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) price_option(call[i], put[i], spot[i], strike[i], years[i]);
}

namespace {

// One precision's options, on the host and the device: inputs drawn as the CUDA sample draws
// them, prices poisoned.
template <typename Real>
struct OptionBook {
  explicit OptionBook(int n) : spot(n), strike(n), years(n), spot_d(n), strike_d(n), years_d(n), call_d(n), put_d(n) {
    fill_uniform(spot, Real(5), Real(30), fresh_seed());
    fill_uniform(strike, Real(1), Real(100), fresh_seed() + 1);
    fill_uniform(years, Real(0.25), Real(10), fresh_seed() + 2);
    spot_d.upload(spot);
    strike_d.upload(strike);
    years_d.upload(years);
    call_d.poison();
    put_d.poison();
  }
  std::vector<Real> spot, strike, years;
  DeviceBuffer<Real> spot_d, strike_d, years_d, call_d, put_d;

  // Largest price error against the same formula in double, relative to the price or to 1
  // (deep out-of-the-money prices are near zero), over a sample of options.
  double max_error() const {
    const std::vector<Real> call = call_d.download(), put = put_d.download();
    std::vector<double> got, want;
    for (const size_t i : elements_to_check(spot.size(), 1 << 16)) {
      double c = 0, p = 0;
      price_option<double>(c, p, spot[i], strike[i], years[i]);
      want.insert(want.end(), {c, p});
      got.insert(got.end(), {static_cast<double>(call[i]), static_cast<double>(put[i])});
    }
    return max_relative_error(got, want, 1.0);
  }
};

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "black_scholes", "Black-Scholes option prices, fp32 and fp64");
  const int n32 = options.small ? (1 << 14) : (1 << 24);
  const int n64 = n32 / 2;  // the same bytes per kernel
  print_header("black_scholes", std::to_string(n32) + " options in fp32, " + std::to_string(n64) + " in fp64");

  OptionBook<float> single(n32);
  OptionBook<double> dual(n64);
  auto fp32 = [&] {
    black_scholes_fp32<<<blocks_for(n32, kThreads), kThreads>>>(single.call_d.get(), single.put_d.get(),
                                                                single.spot_d.get(), single.strike_d.get(),
                                                                single.years_d.get(), n32);
  };
  auto fp64 = [&] {
    black_scholes_fp64<<<blocks_for(n64, kThreads), kThreads>>>(dual.call_d.get(), dual.put_d.get(),
                                                                dual.spot_d.get(), dual.strike_d.get(),
                                                                dual.years_d.get(), n64);
  };

  fp32();
  fp64();
  ROOFCAST_CHECK_LAUNCH();
  const double error32 = single.max_error(), error64 = dual.max_error();
  bool ok = report_check("black_scholes_fp32", error32 < 1e-4,
                         "max error " + scientific(error32) + " vs the formula in double");
  ok &= report_check("black_scholes_fp64", error64 < 1e-10,
                     "max error " + scientific(error64) + " vs the formula on the host");

  time_kernel("black_scholes_fp32", options, fp32);
  time_kernel("black_scholes_fp64", options, fp64);
  return ok ? 0 : 1;
}
