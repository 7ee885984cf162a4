#include <catch2/catch.hpp>

#include "roofcast/data/bundled_data.hpp"
#include "roofcast/model/prediction_grid.hpp"
#include "roofcast/model/thesis_prediction.hpp"

TEST_CASE("the batched prediction grid equals kernel-by-kernel prediction") {
  const auto profile = roofcast::find_bundled_profile("thesis-rodinia");
  REQUIRE(profile);
  std::vector<roofcast::KernelParameters> kernels;
  for (const auto& kernel : profile->kernels) kernels.push_back(roofcast::kernel_parameters_of(kernel));
  kernels.push_back(roofcast::kernel_parameters_of(roofcast::find_bundled_profile("thesis-redblack")->kernels[0]));
  std::vector<roofcast::DeviceThroughput> devices;
  for (const auto& device : roofcast::bundled_devices()) devices.push_back(device.throughput);
  REQUIRE(devices.size() == 6);

  const auto grid = roofcast::predict_thesis_grid(kernels, devices);
  REQUIRE(grid.predicted_ms.rows() == static_cast<Eigen::Index>(kernels.size()));
  REQUIRE(grid.predicted_ms.cols() == 6);
  for (size_t k = 0; k < kernels.size(); ++k) {
    for (size_t d = 0; d < devices.size(); ++d) {
      const auto scalar = roofcast::predict_thesis(kernels[k], devices[d]);
      const auto r = static_cast<Eigen::Index>(k), c = static_cast<Eigen::Index>(d);
      CHECK(grid.predicted_ms(r, c) == Approx(scalar.predicted_ms).epsilon(1e-12));
      CHECK(grid.T_op_adjusted(r, c) == Approx(scalar.T_op_adjusted).epsilon(1e-12));
      CHECK(grid.compute_bound(r, c) == (scalar.bound == roofcast::Bound::compute));
    }
  }
}
