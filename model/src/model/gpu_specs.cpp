#include "roofcast/model/gpu_specs.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "roofcast/model/device_name.hpp"

namespace roofcast {

const GpuSpec* GpuSpecTable::find_gpu(std::string_view id) const {
  for (const auto& gpu : gpus)
    if (same_device_name(gpu.id, id)) return &gpu;
  return nullptr;
}

const ArchitectureSpec* GpuSpecTable::find_architecture(std::string_view arch) const {
  for (const auto& a : architectures)
    if (a.arch == arch) return &a;
  return nullptr;
}

const ArchitectureSpec& GpuSpecTable::architecture_of(const GpuSpec& gpu) const {
  if (const auto* a = find_architecture(gpu.arch)) return *a;
  throw std::logic_error("GPU " + gpu.id + " names architecture " + gpu.arch + ", which the table lacks");
}

const GpuSpec* GpuSpecTable::gpu_of_device_name(std::string_view device_name) const {
  for (const auto& gpu : gpus)
    for (const auto& name : gpu.device_names)
      if (same_device_name(name, device_name)) return &gpu;
  return nullptr;
}

int mps_partition_sm_count(int sm_count, double percentage) {
  if (percentage >= 100) return sm_count;
  const int tpcs = static_cast<int>(std::floor(sm_count * percentage / 100.0 / 2.0));
  return std::clamp(2 * tpcs, 2, sm_count);
}

}  // namespace roofcast
