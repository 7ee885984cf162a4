#include <catch2/catch.hpp>

#include <stdexcept>

#include "roofcast/microbench/transfer_fit.hpp"

using namespace roofcast::microbench;

namespace {

// Exact times of a copy with `latency_us` start-up and `gbps` bandwidth, 4 KiB to 256 MiB.
std::vector<CopyTimeSample> exact_line(double latency_us, double gbps) {
  std::vector<CopyTimeSample> samples;
  for (double bytes = 4096; bytes <= 256.0 * (1 << 20); bytes *= 4)
    samples.push_back({bytes, latency_us * 1e-3 + bytes / (gbps * 1e6)});
  return samples;
}

}  // namespace

TEST_CASE("a copy-time fit recovers the latency and bandwidth of exact points") {
  const auto fit = fit_copy_times(exact_line(2.5, 52));
  CHECK(fit.latency_us == Approx(2.5).epsilon(1e-9));
  CHECK(fit.bandwidth_gbps == Approx(52).epsilon(1e-9));
  CHECK(fit.worst_relative_residual < 1e-9);
  CHECK(fitted_copy_ms(fit, 52e6) == Approx(1.0025));  // 52 MB at 52 GB/s = 1 ms, plus 2.5 us
}

TEST_CASE("a copy-time fit weighs small and large copies by their relative error") {
  // 1000 GB/s and 10 us, the smallest copy measured 20 % slow, the largest 20 % fast.
  auto samples = exact_line(10, 1000);
  samples.front().time_ms *= 1.2;
  samples.back().time_ms *= 0.8;
  const auto fit = fit_copy_times(samples);
  // Neither end dominates: latency stays near 10 us (a plain least-squares line on absolute
  // times would follow the largest copy and misplace the small ones by far more).
  CHECK(fit.latency_us == Approx(10).epsilon(0.25));
  CHECK(fit.bandwidth_gbps > 1000);
  CHECK(fit.worst_relative_residual > 0.05);
  CHECK(fit.worst_relative_residual < 0.2);
}

TEST_CASE("a copy-time fit with a negative intercept is refitted through the origin") {
  // Pure bandwidth, 10 GB/s, with small copies measured a little fast.
  std::vector<CopyTimeSample> samples = {{1e3, 0.5e-4}, {1e6, 0.1}, {1e8, 10}};
  const auto fit = fit_copy_times(samples);
  CHECK(fit.latency_us == 0);
  // Through the origin, weighted by 1 / time^2: slope = sum(x t / t^2) / sum(x^2 / t^2) = 1 / 15 GB/s,
  // which leaves every point off by a third.
  CHECK(fit.bandwidth_gbps == Approx(15));
  CHECK(fit.worst_relative_residual == Approx(1.0 / 3));
}

TEST_CASE("a copy-time fit refuses too few sizes, bad values and shrinking times") {
  CHECK_THROWS_AS(fit_copy_times({}), std::invalid_argument);
  CHECK_THROWS_WITH(fit_copy_times({{4096, 0.01}, {4096, 0.02}}), Catch::Contains("two different sizes"));
  CHECK_THROWS_WITH(fit_copy_times({{4096, 0.01}, {8192, 0}}), Catch::Contains("positive"));
  CHECK_THROWS_AS(fit_copy_times({{4096, 0.01}, {8192, std::nan("")}}), std::invalid_argument);
  CHECK_THROWS_WITH(fit_copy_times({{4096, 0.02}, {8192, 0.01}}), Catch::Contains("no positive bandwidth"));
}

TEST_CASE("fitting a transfer sweep stores its fit and names it when the fit fails") {
  TransferSweep sweep;
  sweep.key = "h2d_pinned";
  for (const auto& s : exact_line(3, 25)) {
    TransferPoint p;
    p.bytes = s.bytes;
    p.time_ms = {s.time_ms, s.time_ms * 0.99, s.time_ms * 1.1, 10};
    sweep.points.push_back(p);
  }
  fit_transfer_sweep(sweep);
  CHECK(sweep.bandwidth_gbps == Approx(25));
  CHECK(sweep.latency_us == Approx(3));
  CHECK(sweep.points.back().gbps() == Approx(25).epsilon(0.001));

  sweep.points.resize(1);
  CHECK_THROWS_WITH(fit_transfer_sweep(sweep), Catch::StartsWith("h2d_pinned: "));
}
