#include <catch2/catch.hpp>

#include "roofcast/data/bundled_data.hpp"
#include "roofcast/model/device_ranking.hpp"
#include "many_kernels.hpp"

TEST_CASE("devices rank by predicted kernel time with their longest kernels") {
  const auto profile = roofcast::find_bundled_profile("thesis-redblack");
  REQUIRE(profile);
  const auto devices = roofcast::bundled_devices();
  const auto ranks = roofcast::rank_devices(roofcast::predict_profile(*roofcast::make_predictor("thesis"), *profile, devices), *profile, devices);
  REQUIRE(ranks.size() == 6);
  // Thesis Table 5.6 times: GTX-480 20.414 < GTX-1060 20.631 < K20c 21.980 < M2050 31.039 < GTX-660 34.803 < GTX-960 38.620.
  const std::vector<std::string> expected{"GTX-480", "GTX-1060 6GB", "Tesla K20c", "Tesla M2050", "GTX-660", "GTX-960"};
  for (size_t i = 0; i < ranks.size(); ++i) CHECK(ranks[i].device == expected[i]);
  CHECK(ranks.front().speedup_vs_slowest == Approx(38.620 / 20.414).epsilon(1e-4));
  CHECK(ranks.back().speedup_vs_slowest == 1);
  REQUIRE(ranks.front().top_kernels.size() == 1);
  CHECK(ranks.front().top_kernels[0].share == 1);
  CHECK(ranks.front().top_kernels[0].bound == roofcast::Bound::memory);
  CHECK(ranks.front().transfers_ms == 0);
  CHECK(ranks.front().launch_gaps_ms == 0);  // the thesis devices have no launch overhead measured
}

namespace {
roofcast::DeviceProfile device(const std::string& name, double gflops, double h2d_gbps, double latency_us) {
  roofcast::DeviceProfile d;
  d.name = name;
  d.throughput = {gflops, gflops / 2, gflops / 4, gflops / 2, gflops / 4, 100};
  d.transfers["h2d_pinned"] = {h2d_gbps, latency_us};
  d.extra_throughput["launch_overhead_us"] = 5;
  return d;
}
}  // namespace

TEST_CASE("transfers and launch gaps add to the kernels, and a break-even is found") {
  roofcast::KernelProfile profile;
  roofcast::KernelRecord kernel;
  kernel.name = "k";
  kernel.invocations = 10;
  // fp32, 1e9 ops, no DRAM traffic, every instruction an FMA: time = 1e9 / (T_SP x 1e9) s.
  kernel.description = roofcast::KernelParameters{roofcast::KernelType::fp32, 1e9, 0, 1, 1, 0};
  profile.kernels.push_back(kernel);
  profile.transfers.push_back({roofcast::TransferKind::host_to_device, true, 4, 1e9, std::nullopt});
  // A: 1000 GFLOP/s -> 1 ms of kernels; copies 4 x 10 us + 1e9 B / 50 GB/s = 0.04 + 20 ms.
  // B: 2000 GFLOP/s -> 0.5 ms; copies 4 x 10 us + 1e9 B / 25 GB/s = 0.04 + 40 ms.
  const std::vector<roofcast::DeviceProfile> devices{device("A", 1000, 50, 10), device("B", 2000, 25, 10)};
  const auto ranks = roofcast::rank_devices(roofcast::predict_profile(*roofcast::make_predictor("thesis"), profile, devices), profile, devices);
  REQUIRE(ranks.size() == 2);
  CHECK(ranks[0].device == "A");
  CHECK(ranks[0].kernels_ms == Approx(1.0));
  CHECK(ranks[0].transfers_ms == Approx(20.04));
  CHECK(ranks[0].launch_gaps_ms == 0);  // 0.1 ms per invocation > 5 us
  CHECK(ranks[0].total_ms == Approx(21.04));
  CHECK(ranks[0].transfer_share == Approx(20.04 / 21.04));
  CHECK(ranks[1].total_ms == Approx(40.54));
  // B's kernels save 0.5 ms per iteration; its copies cost 20 ms more: B wins after 40 iterations.
  REQUIRE(ranks[1].break_even_iterations);
  CHECK(*ranks[1].break_even_iterations == Approx(40.0));
  CHECK_FALSE(ranks[0].break_even_iterations);
}

TEST_CASE("kernels shorter than a launch are charged the launch time, and missing fits are named") {
  roofcast::KernelProfile profile;
  roofcast::KernelRecord kernel;
  kernel.name = "tiny";
  kernel.invocations = 100;
  kernel.description = roofcast::KernelParameters{roofcast::KernelType::fp32, 1e5, 0, 1, 1, 0};  // 1e-4 ms at 1000 GFLOP/s
  profile.kernels.push_back(kernel);
  profile.transfers.push_back({roofcast::TransferKind::device_to_host, false, 1, 10, std::nullopt});
  const std::vector<roofcast::DeviceProfile> devices{device("A", 1000, 50, 10)};
  const auto ranks = roofcast::rank_devices(roofcast::predict_profile(*roofcast::make_predictor("thesis"), profile, devices), profile, devices);
  // 100 invocations x (5 us - 0.001 us each): 100 x 0.004999 ms.
  CHECK(ranks[0].launch_gaps_ms == Approx(100 * (5e-3 - 1e-6)));
  CHECK(ranks[0].missing_transfer_fits == std::vector<std::string>{"d2h_pageable"});
}

TEST_CASE("launch gaps of a kernel launched more than 2^31 times are counted in full, never wrapped") {
  roofcast::KernelProfile profile;
  roofcast::KernelRecord kernel;
  kernel.name = "tiny";
  kernel.invocations = 3'000'000'000;
  kernel.description = roofcast::KernelParameters{roofcast::KernelType::fp32, 1e5, 0, 1, 1, 0};  // 1e-4 ms in all
  profile.kernels.push_back(kernel);
  const std::vector<roofcast::DeviceProfile> devices{device("A", 1000, 50, 10)};
  const auto ranks = roofcast::rank_devices(roofcast::predict_profile(*roofcast::make_predictor("thesis"), profile, devices), profile, devices);
  // 3e9 launches x 5 us each, less the 1e-4 ms of work.
  CHECK(ranks[0].launch_gaps_ms == Approx(3e9 * 5e-3 - 1e-4));
}

TEST_CASE("ranking 40,000 kernels: every kernel counted once, equal times in profile order") {
  const roofcast::KernelProfile profile = roofcast::testing::many_kernels(40000);
  std::vector<roofcast::DeviceProfile> devices{*roofcast::find_bundled_device("GTX-660")};
  devices[0].extra_throughput["launch_overhead_us"] = 5;
  const roofcast::ProfilePrediction prediction = roofcast::predict_profile(*roofcast::make_predictor("thesis"), profile, devices);
  // Its time on 100,000 kernels (a lookup by name per kernel once took minutes) is measured by
  // scripts/dev/scale-bench.sh, not here.
  const std::vector<roofcast::DeviceRank> ranks = roofcast::rank_devices(prediction, profile, devices, 2);
  REQUIRE(ranks.size() == 1);
  CHECK(ranks[0].kernels_ms == Approx(40000 * prediction.kernels[0].predicted_ms()));
  REQUIRE(ranks[0].top_kernels.size() == 2);  // equal times: the first two in profile order
  CHECK(ranks[0].top_kernels[0].kernel == "sor_red_variant_0");
  CHECK(ranks[0].top_kernels[1].kernel == "sor_red_variant_1");
}

TEST_CASE("ranking refuses a prediction of another profile or other devices") {
  const roofcast::KernelProfile profile = roofcast::testing::many_kernels(3);
  const std::vector<roofcast::DeviceProfile> devices{*roofcast::find_bundled_device("GTX-660")};
  const roofcast::ProfilePrediction prediction = roofcast::predict_profile(*roofcast::make_predictor("thesis"), profile, devices);
  const roofcast::KernelProfile other = roofcast::testing::many_kernels(2);
  CHECK_THROWS_AS(roofcast::rank_devices(prediction, other, devices), std::invalid_argument);
}
