#pragma once

#include <cmath>
#include <string>

namespace roofcast::testing {

// Whether `value` rounds to `printed` (e.g. "34.803") at the printed number of decimals.
inline bool matches_printed(double value, const std::string& printed) {
  const auto dot = printed.find('.');
  const int decimals = dot == std::string::npos ? 0 : static_cast<int>(printed.size() - dot - 1);
  return std::abs(value - std::stod(printed)) <= std::pow(10.0, -decimals) / 2 + 1e-12;
}

}  // namespace roofcast::testing
