#pragma once

#include <cstddef>
#include <cstdint>

namespace roofcast::input_limits {

// The ranges every reader accepts (docs/formats.md, "Numbers every reader accepts"). They are
// wide enough for any real GPU and run, and narrow enough that no product or quotient the
// models form can overflow a double, underflow to 0, or wrap an integer.

// Counts of launches (`invocations`): whole numbers up to 10^12 (a trillion launches).
inline constexpr double kMaxCount = 1e12;

// Any other quantity (counters, bytes, times, fractions, ratios): 0, or a magnitude in
// [kSmallest, kLargest]. Denormals and values near the double range are refused.
inline constexpr double kSmallest = 1e-12;
inline constexpr double kLargest = 1e20;

// A device's throughputs (GFLOP/s, GB/s, GIOP/s, ... and the optional keys beside them),
// in their own unit: 10^-6 .. 10^12.
inline constexpr double kMinThroughput = 1e-6;
inline constexpr double kMaxThroughput = 1e12;

// Launch configurations, as CUDA allows them: grid x up to 2^31 - 1, y and z up to 65535;
// block x and y up to 1024, z up to 64, at most 1024 threads per block.
inline constexpr double kMaxGrid[3] = {2147483647.0, 65535.0, 65535.0};
inline constexpr double kMaxBlock[3] = {1024.0, 1024.0, 64.0};
inline constexpr double kMaxThreadsPerBlock = 1024;
inline constexpr double kMaxRegistersPerThread = 65536;
inline constexpr double kMaxSharedBytesPerBlock = 1 << 30;  // 1 GiB

// A device's occupancy limits (whole numbers) and SM count.
inline constexpr double kMaxSmCount = 1e6;
inline constexpr double kMaxOccupancyLimit = 1 << 30;

// One string of a kernel profile (a kernel's name, a note, a member no reader reads): far longer
// than any C++ template's name. Checked before the profile is parsed: JSON parsers hold a string
// whole, twice, so a profile whose bulk was one string took five times its size to read.
inline constexpr size_t kMaxProfileStringBytes = 16 << 20;

// A device profile's file: `roofcast bench` writes about 100 KB. A larger file is refused before
// it is read (`roofcast devices` reads every .json of the data folders: a stray 1 GB file took
// 40 s and 4 GB of memory to find out it was not a device profile).
inline constexpr uint64_t kMaxDeviceProfileBytes = 16 << 20;

}  // namespace roofcast::input_limits
