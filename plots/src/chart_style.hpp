#pragma once

// Colours shared by the charts so that a precision keeps one colour everywhere
// (Okabe-Ito palette: distinguishable with the common colour-vision deficiencies).

#include <string>
#include <string_view>

#include "roofcast/model/kernel_type.hpp"

namespace roofcast::chart_style {

inline constexpr std::string_view fp64 = "#d55e00";
inline constexpr std::string_view fp32 = "#0072b2";
inline constexpr std::string_view int32 = "#009e73";
inline constexpr std::string_view fp16 = "#cc79a7";
inline constexpr std::string_view tensor = "#e69f00";
inline constexpr std::string_view other = "#56b4e9";
inline constexpr std::string_view copy = "#6e6e6e";  // kernels that only move data
inline constexpr std::string_view memory_region = "#fbe3cf";
inline constexpr std::string_view compute_region = "#d6e8f5";

// The colour of a precision or ceiling name ("fp64", "fp32", "int32 MAD", "tensor fp16"...).
std::string_view color_of(std::string_view precision_or_ceiling);
std::string_view color_of(KernelType type);

// A palette for things without a precision (devices, kernels): i-th colour, cycling.
std::string_view palette(size_t index);

// "#0072b2" as the integer gnuplot's `lc rgb variable` reads (0x0072b2).
long rgb_value(std::string_view hex);

}  // namespace roofcast::chart_style
