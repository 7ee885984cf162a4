#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace roofcast::test {

// Doubles for a number formatter's differential tests: `random_bits` random bit patterns (every
// exponent, subnormals included; the non-finite ones dropped), `in_range` values spread over
// predictions' range (e^-40 to e^40), the integers -`integers` to `integers` and every power of ten.
inline std::vector<double> doubles_of_every_magnitude(uint64_t seed, int random_bits, int in_range, int integers) {
  std::mt19937_64 random(seed);
  std::vector<double> numbers;
  for (int i = 0; i < random_bits; ++i) {
    double number;
    const uint64_t bits = random();
    std::memcpy(&number, &bits, sizeof bits);
    if (std::isfinite(number)) numbers.push_back(number);
  }
  std::uniform_real_distribution<double> unit(0, 1);
  for (int i = 0; i < in_range; ++i) numbers.push_back(std::exp(unit(random) * 80 - 40));
  for (int64_t i = -integers; i <= integers; ++i) numbers.push_back(static_cast<double>(i));
  for (int e = -324; e <= 308; ++e) numbers.push_back(std::strtod(("1e" + std::to_string(e)).c_str(), nullptr));
  return numbers;
}

}  // namespace roofcast::test
