#include "roofcast/profiler/process_clock.hpp"

#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <string>

namespace roofcast::profiler {

std::optional<uint64_t> start_ticks(std::string_view line) {
  const size_t name_end = line.rfind(')');
  if (name_end == std::string_view::npos) return std::nullopt;
  std::string_view rest = line.substr(name_end + 1);
  // After the name: field 3 (state) onwards; the start time is field 22, the 20th of them.
  for (int field = 3; field <= 22; ++field) {
    const size_t begin = rest.find_first_not_of(' ');
    if (begin == std::string_view::npos) return std::nullopt;
    rest.remove_prefix(begin);
    const size_t end = std::min(rest.find(' '), rest.size());
    if (field == 22) {
      uint64_t ticks = 0;
      const auto [stop, error] = std::from_chars(rest.data(), rest.data() + end, ticks);
      if (error != std::errc() || stop != rest.data() + end) return std::nullopt;
      return ticks;
    }
    rest.remove_prefix(end);
  }
  return std::nullopt;
}

double boot_clock_seconds() {
  timespec now{};
  clock_gettime(CLOCK_BOOTTIME, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

std::optional<double> process_start_seconds() {
  std::ifstream stat("/proc/self/stat");
  std::string line;
  if (!std::getline(stat, line)) return std::nullopt;
  const std::optional<uint64_t> ticks = start_ticks(line);
  const long ticks_per_second = sysconf(_SC_CLK_TCK);
  if (!ticks || ticks_per_second <= 0) return std::nullopt;
  return static_cast<double>(*ticks) / static_cast<double>(ticks_per_second);
}

}  // namespace roofcast::profiler
