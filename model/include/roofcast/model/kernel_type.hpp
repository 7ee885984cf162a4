#pragma once

#include <optional>
#include <string_view>

namespace roofcast {

// Which compute throughput a kernel is bounded by (thesis K_type).
enum class KernelType { fp32, fp64, int32 };

std::string_view to_string(KernelType type);
std::optional<KernelType> kernel_type_from_string(std::string_view text);

}  // namespace roofcast
