#include <cmath>
#include <cstdint>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/input_limits.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/profiler/importers.hpp"
#include "roofcast/profiler/metric_set.hpp"

namespace roofcast::profiler {

namespace {

// nvprof metrics that count events (their totals are Avg x Invocations); the rest (rates,
// efficiencies, ratios, utilization levels) are kept as the average over invocations.
bool is_count_metric(const std::string& metric) {
  return metric.starts_with("inst_") || metric.starts_with("flop_count_") || metric.ends_with("_transactions") ||
         metric.ends_with("_requests") || metric == "dram_read_bytes" || metric == "dram_write_bytes" ||
         metric.starts_with("shared_load") || metric.starts_with("shared_store");
}

// "GeForce GTX 480 (0)" -> "GeForce GTX 480".
std::string device_name_of(std::string device) {
  const auto open = device.rfind(" (");
  if (open != std::string::npos && device.ends_with(")")) device.erase(open);
  return device;
}

struct KernelMetrics {
  std::string name;
  int64_t invocations = 0;
  std::map<std::string, double> counters;
};

}  // namespace

nlohmann::json import_nvprof_csv(std::string_view text, const std::string& source, const std::string& device_name) {
  CsvRecords records(text, source);
  if (!records.find_header("Device"))
    throw InputError(fmt::format("{}: no nvprof metric header (\"Device\",\"Kernel\",\"Invocations\",\"Metric Name\",...) "
                                 "found; expected the output of nvprof --csv --metrics",
                                 source));
  std::map<std::string, size_t> column;
  for (const char* needed : {"Device", "Kernel", "Invocations", "Metric Name", "Avg"}) {
    const auto found = records.column(needed);
    if (!found)
      throw InputError(fmt::format("{}:{}: no \"{}\" column in the nvprof header", source, records.line_number(), needed));
    column[needed] = *found;
  }

  std::vector<KernelMetrics> kernels;
  std::map<std::string, size_t> position;
  std::string device;
  for (std::vector<std::string> fields; records.next(fields);) {
    const int number = records.line_number();
    const std::string row_device = device_name_of(fields[column["Device"]]);
    if (device.empty()) device = row_device;
    if (row_device != device)
      throw InputError(fmt::format("{}:{}: rows of two devices ({} and {}); import one device's rows at a time", source,
                                   number, device, row_device));
    const std::string& kernel_name = fields[column["Kernel"]];
    const std::optional<double> invocations = parse_csv_number(fields[column["Invocations"]]);
    if (!invocations || *invocations < 1 || *invocations != std::floor(*invocations) ||
        *invocations > input_limits::kMaxCount)
      throw InputError(fmt::format("{}:{}: Invocations: expected a whole number from 1 to {:g}, found \"{}\"", source,
                                   number, input_limits::kMaxCount, printable(fields[column["Invocations"]])));
    auto [it, added] = position.try_emplace(kernel_name, kernels.size());
    if (added) kernels.push_back(KernelMetrics{kernel_name, static_cast<int64_t>(*invocations), {}});
    KernelMetrics& kernel = kernels[it->second];
    if (kernel.invocations != static_cast<int64_t>(*invocations))
      throw InputError(fmt::format("{}:{}: kernel {}: Invocations {} disagrees with an earlier row ({})", source, number,
                                   kernel_name, *invocations, kernel.invocations));
    const std::string metric = fields[column["Metric Name"]];
    const std::string& cell = fields[column["Avg"]];
    const std::optional<double> average = parse_csv_number(cell);
    auto fail = [&](std::string_view problem) {
      throw InputError(fmt::format("{}:{}: kernel \"{}\": {}: Avg: {}", source, number, kernel_name, metric, problem));
    };
    if (!average) {
      // Rates with units ("12.3GB/s") and percentages ("45%") are not imported; a count must be a number.
      if (is_count_metric(metric)) fail(fmt::format("not a number: \"{}\"", printable(cell)));
      continue;
    }
    if (*average < 0) fail(fmt::format("must be >= 0, found {}", *average));
    const double value = is_count_metric(metric) ? *average * static_cast<double>(kernel.invocations) : *average;
    if (value > input_limits::kLargest)
      fail(fmt::format("{:g} is beyond the largest value roofcast reads ({:g})", value, input_limits::kLargest));
    if (metric == "achieved_occupancy") {
      kernel.counters["sm__warps_active.avg.pct_of_peak_sustained_active"] = *average * 100;
      continue;
    }
    kernel.counters[metric] = value;
  }
  if (kernels.empty()) throw InputError(fmt::format("{}: the nvprof CSV has a header but no metric rows", source));
  nlohmann::json list = nlohmann::json::array();
  for (const auto& kernel : kernels)
    list.push_back({{"name", kernel.name}, {"invocations", kernel.invocations}, {"counters", kernel.counters}});
  nlohmann::json profile = {{"format", "roofcast-profile"}, {"version", 1}};
  profile["reference_device"] = device_name.empty() ? device : device_name;
  profile["importer"] = {{"tool", "nvprof"}, {"source", source}};
  profile["kernels"] = list;
  return profile;
}

}  // namespace roofcast::profiler
