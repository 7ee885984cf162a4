#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace roofcast::profiler {

// The clock a process' start is recorded on (CLOCK_BOOTTIME), in seconds.
double boot_clock_seconds();

// When this process started on that clock (/proc/self/stat), so that a Python program's
// interpreter start counts in its run time; nullopt where that cannot be read.
std::optional<double> process_start_seconds();

// The start time of a /proc/PID/stat line (field 22), in clock ticks after boot; nullopt when the
// line is not one. The process name (field 2) may hold spaces and parentheses.
std::optional<uint64_t> start_ticks(std::string_view stat_line);

}  // namespace roofcast::profiler
