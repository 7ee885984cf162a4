#include "roofcast/output/shortest_number.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <fmt/compile.h>
#include <fmt/format.h>

namespace roofcast {

char* write_shortest_number(double number, char* out) {
  // Below 2^53 every integer is a double, and a whole number's shortest form is its own digits:
  // fmt writes them as an integer, without the search for the shortest digits (a fifth of a
  // prediction's numbers are whole: zeros, counts).
  constexpr double kExactIntegers = 9007199254740992.0;  // 2^53
  if (std::abs(number) < kExactIntegers && std::trunc(number) == number) {
    if (std::signbit(number)) *out++ = '-';  // "-0" too
    const fmt::format_int digits(static_cast<uint64_t>(std::abs(number)));
    return std::copy_n(digits.data(), digits.size(), out);
  }
  return fmt::format_to(out, FMT_COMPILE("{}"), number);
}

}  // namespace roofcast
