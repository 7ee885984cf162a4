#include "chart_style.hpp"

#include <array>
#include <string>

namespace roofcast::chart_style {

std::string_view color_of(std::string_view name) {
  if (name.find("tensor") != std::string_view::npos) return tensor;
  if (name.starts_with("fp64")) return fp64;
  if (name.starts_with("fp32")) return fp32;
  if (name.starts_with("int")) return int32;
  if (name.starts_with("fp16") || name.starts_with("half") || name.starts_with("bf16")) return fp16;
  return other;
}

std::string_view color_of(KernelType type) {
  switch (type) {
    case KernelType::fp64: return fp64;
    case KernelType::fp32: return fp32;
    case KernelType::int32: return int32;
  }
  return other;
}

std::string_view palette(size_t index) {
  static constexpr std::array<std::string_view, 8> colors{"#0072b2", "#d55e00", "#009e73", "#cc79a7",
                                                          "#e69f00", "#56b4e9", "#000000", "#8c564b"};
  return colors[index % colors.size()];
}

long rgb_value(std::string_view hex) { return std::stol(std::string(hex.substr(1)), nullptr, 16); }

}  // namespace roofcast::chart_style
