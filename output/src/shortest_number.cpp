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

// Pieces of at most kPieceBytes are copied whole, a fixed-size copy being a few moves where a
// copy of the exact size is a call: the bytes past the piece's end are written over next, or
// left past the number's end (kMaxShortestNumberChars leaves room for them).
constexpr size_t kPieceBytes = 24;

// The digits of `value` (> 0, at most 17 of them: a double's shortest significand) at `out`;
// returns how many. Two digits at a time, in 32-bit arithmetic where it fits.
int write_digits(uint64_t value, char* out) {
  static constexpr auto kPairs = [] {
    std::array<char, 200> pairs{};
    for (int i = 0; i < 100; ++i) {
      pairs[2 * i] = static_cast<char>('0' + i / 10);
      pairs[2 * i + 1] = static_cast<char>('0' + i % 10);
    }
    return pairs;
  }();
  static constexpr auto kPowersOf10 = [] {
    std::array<uint64_t, 20> powers{};
    powers[0] = 1;
    for (size_t i = 1; i < powers.size(); ++i) powers[i] = 10 * powers[i - 1];
    return powers;
  }();
  // floor(log10(value)) from its bit width (1233 / 4096 ~ log10(2)), one less where it overshoots.
  const int log10_guess = (std::bit_width(value) * 1233) >> 12;
  const int count = log10_guess + (value >= kPowersOf10[static_cast<size_t>(log10_guess)] ? 1 : 0);
  char* end = out + count;
  const auto write_pairs = [&](uint32_t part, int digits) {
    for (; digits >= 2; digits -= 2, part /= 100) std::memcpy(end -= 2, &kPairs[2 * (part % 100)], 2);
    if (digits == 1) *--end = static_cast<char>('0' + part);
  };
  if (count > 8) {
    write_pairs(static_cast<uint32_t>(value % 100000000), 8);
    value /= 100000000;
  }
  write_pairs(static_cast<uint32_t>(value), static_cast<int>(end - out));
  return count;
}

// The value digits x 10^exponent laid out as nlohmann's format_buffer() and fmt's do_write_float()
// lay it out: fixed notation while the decimal point falls at most 15 (nlohmann) or 16 (fmt)
// digits after the first (".0" after an integer for nlohmann, "0.000" before a fraction down to
// 1e-4), else one digit, the rest after a point, and the exponent. `digits` has kPieceBytes readable bytes after any digit.
char* lay_out_number(const char* digits, int count, int exponent, NumberLayout layout, char* out) {
  constexpr int kMinPoint = -4;
  const int max_point = layout == NumberLayout::nlohmann ? std::numeric_limits<double>::digits10 : 16;
  constexpr char kZeros[] = "0000000000000000";
  const int point = count + exponent;  // where the decimal point falls, counted from the first digit
  if (count <= point && point <= max_point) {
    std::memcpy(out, digits, kPieceBytes);
    std::memcpy(out + count, kZeros, 16);
    out += point;
    return layout == NumberLayout::nlohmann ? std::copy_n(".0", 2, out) : out;
  }
  if (0 < point && point <= max_point) {
    std::memcpy(out, digits, kPieceBytes);
    out[point] = '.';
    std::memcpy(out + point + 1, digits + point, kPieceBytes);
    return out + count + 1;
  }
  if (kMinPoint < point && point <= 0) {
    std::memcpy(out, "0.000", 5);
    std::memcpy(out + 2 - point, digits, kPieceBytes);
    return out + 2 - point + count;
  }
  *out++ = digits[0];
  if (count > 1) {
    *out++ = '.';
    std::memcpy(out, digits + 1, kPieceBytes);
    out += count - 1;
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
  std::array<char, 17 + kPieceBytes> digits{};
  const int count = write_digits(decimal.significand, digits.data());
  return lay_out_number(digits.data(), count, decimal.exponent, layout, out);
}

}  // namespace roofcast
