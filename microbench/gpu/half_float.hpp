#pragma once
// IEEE binary16 <-> binary32 on the host, for checking half2 results without the
// backend's host intrinsics.

#include <cmath>
#include <cstdint>
#include <cstring>

namespace roofcast::gpu {

inline float half_bits_to_float(uint16_t h) {
  const uint32_t sign = (h & 0x8000u) << 16;
  const int exponent = (h >> 10) & 0x1f;
  const uint32_t mantissa = h & 0x3ffu;
  float magnitude;
  if (exponent == 0) magnitude = std::ldexp(static_cast<float>(mantissa), -24);
  else if (exponent == 31) magnitude = mantissa ? NAN : INFINITY;
  else magnitude = std::ldexp(static_cast<float>(mantissa | 0x400u), exponent - 25);
  uint32_t bits;
  std::memcpy(&bits, &magnitude, 4);
  bits |= sign;
  float result;
  std::memcpy(&result, &bits, 4);
  return result;
}

// Round to nearest even, as the hardware does.
inline uint16_t float_to_half_bits(double value) {
  const uint16_t sign = std::signbit(value) ? 0x8000u : 0;
  double a = std::fabs(value);
  if (std::isnan(value)) return 0x7e00u;
  if (a >= 65520.0) return sign | 0x7c00u;
  if (a < std::ldexp(1.0, -14)) {  // subnormal: multiples of 2^-24
    return sign | static_cast<uint16_t>(std::nearbyint(a * std::ldexp(1.0, 24)));
  }
  int exponent;
  const double fraction = std::frexp(a, &exponent);  // a = fraction * 2^exponent, fraction in [0.5, 1)
  double mantissa = std::nearbyint(std::ldexp(fraction, 11));  // 11 significant bits
  if (mantissa >= 2048) {
    mantissa /= 2;
    ++exponent;
  }
  if (exponent + 14 >= 31) return sign | 0x7c00u;
  return sign | static_cast<uint16_t>(((exponent + 14) << 10) | (static_cast<uint32_t>(mantissa) & 0x3ffu));
}

}  // namespace roofcast::gpu
