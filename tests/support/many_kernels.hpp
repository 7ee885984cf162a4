#pragma once

#include <cmath>
#include <string>

#include "roofcast/data/bundled_data.hpp"
#include "roofcast/model/kernel_profile.hpp"

namespace roofcast::testing {

// A profile of `count` copies of the thesis' sor_red, each with its own name and a measured
// time: large enough that a lookup by name per kernel (quadratic) takes seconds.
inline KernelProfile many_kernels(size_t count) {
  const KernelProfile redblack = *find_bundled_profile("thesis-redblack");
  KernelProfile profile{redblack.reference_device, {}, {}};
  for (size_t i = 0; i < count; ++i) {
    KernelRecord kernel = redblack.kernels.at(0);
    kernel.name = "sor_red_variant_" + std::to_string(i);
    kernel.measured_ms = 1.0 + static_cast<double>(i % 7);
    profile.kernels.push_back(std::move(kernel));
  }
  return profile;
}

// Kernel parameters the thesis model cannot predict (W_comp is NaN): a kernel that fails.
inline KernelParameters unpredictable_kernel() {
  KernelParameters bad;
  bad.type = KernelType::fp32;
  bad.W_comp = std::nan("");
  bad.W_traf = 1e6;
  bad.E_mix = 1;
  bad.D_ops = 0.5;
  return bad;
}

}  // namespace roofcast::testing
