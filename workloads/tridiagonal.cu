// Held-out (docs/validation/heldout): a batch of tridiagonal systems solved by the Thomas
// algorithm, one system per thread, as ADI solvers and spline fits do for their many small
// systems (the layout of cuSPARSE's gtsvInterleavedBatch: element k of system s at k * S + s,
// so a warp's loads are coalesced). Each thread runs a forward sweep (a recurrence of 512 steps,
// one division each, storing the modified coefficients) and a back substitution reading them
// again: 32,768 systems give 1,024 warps, under 8 per SM, so the sweeps wait on memory latency
// rather than bandwidth (576 MiB moved).
#include <string>
#include <vector>

#include "common/workload_support.hpp"

using namespace roofcast::workloads;

constexpr unsigned kThreads = 128;

// Solves a_k x_{k-1} + b_k x_k + c_k x_{k+1} = d_k (a_0 and c_{m-1} unused) for every system;
// c_prime and d_prime are scratch of the same shape.
__global__ void thomas_batched(float* __restrict__ x, float* __restrict__ c_prime, float* __restrict__ d_prime,
                               const float* __restrict__ a, const float* __restrict__ b,
                               const float* __restrict__ c, const float* __restrict__ d, int systems, int m) {
  const int s = blockIdx.x * blockDim.x + threadIdx.x;
  if (s >= systems) return;
  float inverse = 1.0f / b[s];
  float cp = c[s] * inverse, dp = d[s] * inverse;
  c_prime[s] = cp;
  d_prime[s] = dp;
  for (int k = 1; k < m; ++k) {
    const size_t i = static_cast<size_t>(k) * systems + s;
    const float ak = a[i];
    inverse = 1.0f / (b[i] - ak * cp);
    cp = c[i] * inverse;
    dp = (d[i] - ak * dp) * inverse;
    c_prime[i] = cp;
    d_prime[i] = dp;
  }
  float xk = dp;
  x[static_cast<size_t>(m - 1) * systems + s] = xk;
  for (int k = m - 2; k >= 0; --k) {
    const size_t i = static_cast<size_t>(k) * systems + s;
    xk = d_prime[i] - c_prime[i] * xk;
    x[i] = xk;
  }
}

namespace {

// System s in double, read from the interleaved arrays.
std::vector<double> host_solve(const std::vector<float>& a, const std::vector<float>& b, const std::vector<float>& c,
                               const std::vector<float>& d, int systems, int m, int s) {
  std::vector<double> cp(m), dp(m), x(m);
  cp[0] = static_cast<double>(c[s]) / b[s];
  dp[0] = static_cast<double>(d[s]) / b[s];
  for (int k = 1; k < m; ++k) {
    const size_t i = static_cast<size_t>(k) * systems + s;
    const double denominator = b[i] - a[i] * cp[k - 1];
    cp[k] = c[i] / denominator;
    dp[k] = (d[i] - a[i] * dp[k - 1]) / denominator;
  }
  x[m - 1] = dp[m - 1];
  for (int k = m - 2; k >= 0; --k) x[k] = dp[k] - cp[k] * x[k + 1];
  return x;
}

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_options(argc, argv, "tridiagonal", "batched tridiagonal solves (Thomas), fp32");
  const int systems = options.small ? 1024 : 32768;
  const int m = options.small ? 64 : 512;
  const size_t n = static_cast<size_t>(systems) * m;
  print_header("tridiagonal", std::to_string(systems) + " systems of " + std::to_string(m) + " unknowns");

  // Diagonally dominant (|b| > |a| + |c|): the recurrence is stable without pivoting.
  std::vector<float> a(n), b(n), c(n), d(n);
  fill_uniform(a, 0.1f, 1.0f, fresh_seed());
  fill_uniform(b, 2.5f, 3.5f, fresh_seed() + 1);
  fill_uniform(c, 0.1f, 1.0f, fresh_seed() + 2);
  fill_uniform(d, 0.5f, 1.5f, fresh_seed() + 3);
  DeviceBuffer<float> a_d(n), b_d(n), c_d(n), d_d(n), x_d(n), c_prime_d(n), d_prime_d(n);
  a_d.upload(a);
  b_d.upload(b);
  c_d.upload(c);
  d_d.upload(d);

  auto solve = [&] {
    thomas_batched<<<blocks_for(systems, kThreads), kThreads>>>(x_d.get(), c_prime_d.get(), d_prime_d.get(), a_d.get(),
                                                                b_d.get(), c_d.get(), d_d.get(), systems, m);
  };
  x_d.poison();
  solve();
  ROOFCAST_CHECK_LAUNCH();
  const std::vector<float> x = x_d.download();
  std::vector<double> got, want;
  for (const size_t s : elements_to_check(systems, 512)) {
    const std::vector<double> solution = host_solve(a, b, c, d, systems, m, static_cast<int>(s));
    for (int k = 0; k < m; ++k) {
      got.push_back(x[static_cast<size_t>(k) * systems + s]);
      want.push_back(solution[k]);
    }
  }
  // The solutions lie within about -0.2..0.7 (some near zero): errors relative to at least 0.1.
  const double error = max_relative_error(got, want, 0.1);
  const bool ok = report_check("thomas_batched", error < 1e-5,
                               "max relative error " + scientific(error) + " vs host in double, " +
                                   std::to_string(got.size() / m) + " systems");

  time_kernel("thomas_batched", options, solve);
  return ok ? 0 : 1;
}
