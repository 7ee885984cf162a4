#include "roofcast/model/kernel_type.hpp"

namespace roofcast {

std::string_view to_string(KernelType type) {
  switch (type) {
    case KernelType::fp32: return "fp32";
    case KernelType::fp64: return "fp64";
    case KernelType::int32: return "int";
  }
  return "unknown";
}

std::optional<KernelType> kernel_type_from_string(std::string_view text) {
  if (text == "fp32") return KernelType::fp32;
  if (text == "fp64") return KernelType::fp64;
  if (text == "int" || text == "int32") return KernelType::int32;
  return std::nullopt;
}

}  // namespace roofcast
