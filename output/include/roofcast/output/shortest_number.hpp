#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

#include <fmt/compile.h>
#include <fmt/format.h>

namespace roofcast {

// A finite `number` in fmt's shortest form that reads back as `number` (fmt's "{}": "1", "-0",
// "0.001", "1e-05", "1e+16"), written at `out` (at most 26 bytes); returns its end. With
// `mark_whole`, a whole number written without an exponent gets ".0" after it, as nlohmann marks
// a double in JSON ("1.0", "-0.0", "9007199254740994.0"). The number writer of the JSON and CSV
// outputs; inline, as it runs for every number they write.
inline char* write_shortest_number(double number, char* out, bool mark_whole = false) {
  // Below 2^53 every integer is a double, and a whole number's shortest form is its own digits:
  // fmt writes them as an integer, without the search for the shortest digits (a fifth of a
  // prediction's numbers are whole: zeros, counts). A fraction's shortest form has a point or an
  // exponent.
  constexpr double kExactIntegers = 9007199254740992.0;  // 2^53
  if (std::abs(number) < kExactIntegers) {
    const auto whole = static_cast<int64_t>(number);  // not std::trunc: a call into libm
    if (static_cast<double>(whole) != number) return fmt::format_to(out, FMT_COMPILE("{}"), number);
    if (std::signbit(number)) *out++ = '-';  // "-0" too
    const fmt::format_int digits(static_cast<uint64_t>(whole < 0 ? -whole : whole));
    out = std::copy_n(digits.data(), digits.size(), out);
    return mark_whole ? std::copy_n(".0", 2, out) : out;
  }
  char* end = fmt::format_to(out, FMT_COMPILE("{}"), number);  // whole: its digits, or an exponent
  return mark_whole && std::find(out, end, 'e') == end ? std::copy_n(".0", 2, end) : end;
}

}  // namespace roofcast
