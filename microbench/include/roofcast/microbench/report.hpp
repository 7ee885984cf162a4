#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofcast/microbench/suite_result.hpp"
#include "roofcast/model/device_profile.hpp"

namespace roofcast::microbench {

// Where a profile came from, written beside the numbers.
struct Provenance {
  std::string profile_name;  // the device profile's "name"
  std::string command;       // the command line that produced it
  std::string date_utc;      // ISO 8601
  std::string roofcast_version;
  std::string roofcast_git;  // `git describe` of the source tree it was built from; empty: not written
};

// The thesis' six throughputs plus every further measured peak and the roofline sweep.
// Throws std::runtime_error naming the missing measurement when a thesis key is absent.
DeviceProfile make_device_profile(const SuiteResult& result, const std::string& name);

// The device-profile JSON of formats.md, with the hardware, clocks, theoretical peaks,
// fraction of theoretical per key, per-measurement statistics and provenance beside it.
nlohmann::json device_profile_json(const SuiteResult& result, const Provenance& provenance);

// One measurement's entry of the profile's `measurements` object (statistics, configuration, verified).
nlohmann::json measurement_json(const Measurement& m);

// Long format, one row per measured point: the peaks, every sweep point, every copy size.
std::string measurements_csv(const SuiteResult& result);

// A latency's SM cycles (unit "ns" at the clock measured in its kernel); none for other units
// or when no clock was measured.
std::optional<double> latency_cycles(const Measurement& m);

// Rows of the people-facing summary: quantity, measured, theoretical, percent.
struct SummaryRow {
  std::string label;
  std::string unit;
  double measured = 0;
  std::optional<double> theoretical;
  std::optional<double> cycles;  // latencies: at the clock measured in the kernel
  std::optional<double> percent() const {
    if (!theoretical || *theoretical <= 0) return std::nullopt;
    return 100.0 * measured / *theoretical;
  }
};
std::vector<SummaryRow> summary_rows(const SuiteResult& result);

// A markdown report: device, clocks, summary table, sweep, provenance.
std::string markdown_report(const SuiteResult& result, const Provenance& provenance);

// "4 KiB to 256 MiB (9)": a copy sweep's smallest and largest size and how many.
std::string transfer_size_range(const TransferSweep& sweep);

// Sweep points more than `tolerance` (0.03 = 3 %) below their left neighbour in GOP/s, per
// precision, as "fp32 at 96 iterations: 3.4 % below 80 iterations". Empty when monotonic.
std::vector<std::string> sweep_dips(const std::vector<SweepPoint>& sweep, double tolerance);

}  // namespace roofcast::microbench
