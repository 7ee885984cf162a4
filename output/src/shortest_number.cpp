#include "shortest_number.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include <fmt/format.h>

namespace roofcast {

namespace {

// The exponent as nlohmann and fmt write it: a sign and at least two digits ("e+05", "e-300").
char* write_exponent(int exponent, char* out) {
  *out++ = exponent < 0 ? '-' : '+';
  const auto magnitude = static_cast<unsigned>(exponent < 0 ? -exponent : exponent);
  if (magnitude >= 100) *out++ = static_cast<char>('0' + magnitude / 100);
  *out++ = static_cast<char>('0' + magnitude / 10 % 10);
  *out++ = static_cast<char>('0' + magnitude % 10);
  return out;
}

// The number of decimal digits of `value` (> 0).
int digit_count(uint64_t value) {
  static constexpr auto kPowersOf10 = [] {
    std::array<uint64_t, 20> powers{};
    powers[0] = 1;
    for (size_t i = 1; i < powers.size(); ++i) powers[i] = 10 * powers[i - 1];
    return powers;
  }();
  // floor(log10(value)) from its bit width (1233 / 4096 ~ log10(2)), one less where it overshoots.
  const int log10_guess = (std::bit_width(value) * 1233) >> 12;
  return log10_guess + (value >= kPowersOf10[static_cast<size_t>(log10_guess)] ? 1 : 0);
}

// "00" to "99".
constexpr auto kPairs = [] {
  std::array<char, 200> pairs{};
  for (int i = 0; i < 100; ++i) {
    pairs[2 * i] = static_cast<char>('0' + i / 10);
    pairs[2 * i + 1] = static_cast<char>('0' + i % 10);
  }
  return pairs;
}();

void write_pair(uint32_t pair, char* out) { std::memcpy(out, &kPairs[2 * pair], 2); }

// The 8 digits of `value` (< 10^8, leading zeros written), ending at `end`: a shortest double's
// significand has 15 to 17 digits mostly, written 8 at a time without a loop.
void write_eight_digits(uint32_t value, char* end) {
  const uint32_t high = value / 10000, low = value % 10000;
  write_pair(high / 100, end - 8);
  write_pair(high % 100, end - 6);
  write_pair(low / 100, end - 4);
  write_pair(low % 100, end - 2);
}

// The `count` digits of `value` (at most 17: a double's shortest significand), ending at `end`.
void write_digits(uint64_t value, int count, char* end) {
  for (; count >= 8; count -= 8, value /= 100000000, end -= 8)
    write_eight_digits(static_cast<uint32_t>(value % 100000000), end);
  auto part = static_cast<uint32_t>(value);
  for (; count >= 2; count -= 2, part /= 100) write_pair(part % 100, end -= 2);
  if (count == 1) *--end = static_cast<char>('0' + part);
}

// The value significand x 10^exponent laid out as nlohmann's format_buffer() and fmt's
// do_write_float() lay it out: fixed notation while the decimal point falls at most 15 (nlohmann)
// or 16 (fmt) digits after the first (".0" after an integer for nlohmann, "0.000" before a
// fraction down to 1e-4), else one digit, the rest after a point, and the exponent. The digits
// are written where they go, a point inserted by moving the digits before it (a byte at a time:
// wider loads of the narrower stores just made would wait for them).
char* lay_out_number(uint64_t significand, int exponent, NumberLayout layout, char* out) {
  constexpr int kMinPoint = -4;
  const int max_point = layout == NumberLayout::nlohmann ? std::numeric_limits<double>::digits10 : 16;
  const int count = digit_count(significand);
  const int point = count + exponent;  // where the decimal point falls, counted from the first digit
  const auto point_after = [&](int digits) {  // the first `digits` digits one place to the left
    for (int i = 0; i < digits; ++i) out[i] = out[i + 1];
    out[digits] = '.';
  };
  if (count <= point && point <= max_point) {
    write_digits(significand, count, out + count);
    std::memcpy(out + count, "0000000000000000", 16);
    out += point;
    return layout == NumberLayout::nlohmann ? std::copy_n(".0", 2, out) : out;
  }
  if (0 < point && point <= max_point) {
    write_digits(significand, count, out + count + 1);
    point_after(point);
    return out + count + 1;
  }
  if (kMinPoint < point && point <= 0) {
    std::memcpy(out, "0.000", 5);
    write_digits(significand, count, out + 2 - point + count);
    return out + 2 - point + count;
  }
  write_digits(significand, count, out + count + 1);
  if (count > 1) {
    point_after(1);
    out += count + 1;
  } else {
    out[0] = out[1];
    out += 1;
  }
  *out++ = 'e';
  return write_exponent(point - 1, out);
}

}  // namespace

char* write_shortest(double number, NumberLayout layout, char* out) {
  if (std::signbit(number)) {
    *out++ = '-';
    number = -number;
  }
  if (number == 0) return layout == NumberLayout::nlohmann ? std::copy_n("0.0", 3, out) : std::copy_n("0", 1, out);
  // Dragonbox, fmt's own shortest round-trip digits, through its internal API (as nlohmann's
  // to_chars was used before): about a sixth of the time of nlohmann's grisu2.
  const auto decimal = fmt::detail::dragonbox::to_decimal(number);
  return lay_out_number(decimal.significand, decimal.exponent, layout, out);
}

}  // namespace roofcast
