#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <sstream>

#include <fmt/format.h>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/profiler/importers.hpp"
#include "roofcast/profiler/metric_set.hpp"

namespace roofcast::profiler {

namespace {

// "1,234.5" (ncu may group digits) -> 1234.5; nullopt for text that is not a number ("n/a").
std::optional<double> parse_number(std::string text) {
  std::string digits;
  for (char c : text)
    if (c != ',' && c != ' ') digits += c;
  if (digits.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(digits.c_str(), &end);
  if (end != digits.c_str() + digits.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

// The factor that turns a value in `unit` into the base unit (bytes, counts), or into
// milliseconds for time units.
double unit_factor(const std::string& unit) {
  static const std::map<std::string, double> time_ms = {
      {"nsecond", 1e-6}, {"usecond", 1e-3}, {"msecond", 1.0}, {"second", 1e3}, {"ns", 1e-6}, {"us", 1e-3}, {"ms", 1.0}};
  if (const auto it = time_ms.find(unit); it != time_ms.end()) return it->second;
  if (unit.size() > 1) {
    const std::string rest = unit.substr(1);
    if (rest == "byte" || rest == "sector" || rest == "inst" || rest == "request" || rest == "wavefront") {
      switch (unit[0]) {
        case 'K': return 1e3;
        case 'M': return 1e6;
        case 'G': return 1e9;
        case 'T': return 1e12;
        default: break;
      }
    }
  }
  return 1.0;
}

bool is_time_unit(const std::string& unit) {
  return unit == "nsecond" || unit == "usecond" || unit == "msecond" || unit == "second";
}

bool summable(const std::string& metric) {
  if (const MetricInfo* info = find_metric(metric)) return info->summable;
  return metric.ends_with(".sum");
}

// Counter columns look like unit__counter.rollup; ncu adds launch and device attributes
// (launch__*, device__attribute_*) and its own derived values, which are not counters.
bool is_counter_column(const std::string& column) {
  if (column.find("__") == std::string::npos || column.find('.') == std::string::npos) return false;
  for (const char* prefix : {"launch__", "device__", "derived__", "profiler__", "c2clink__", "nvlink__", "numa__"})
    if (column.starts_with(prefix)) return false;
  return true;
}

struct KernelRows {
  std::string name;
  int invocations = 0;
  double duration_ms = 0;
  bool has_duration = false;
  std::map<std::string, double> counters;
  std::map<std::string, int> counted;
};

}  // namespace

nlohmann::json import_ncu_csv(std::string_view text, const std::string& source, const std::string& device_name) {
  CsvRecords records(text, source);
  if (!records.find_header("ID"))
    throw InputError(fmt::format("{}: no ncu CSV header (\"ID\",\"Process ID\",...) found; expected the output of "
                                 "ncu --csv --page raw",
                                 source));
  const std::vector<std::string>& header = records.header();
  const auto name_column = records.column("Kernel Name");
  if (!name_column)
    throw InputError(fmt::format("{}:{}: no \"Kernel Name\" column; expected ncu --csv --page raw", source,
                                 records.line_number()));
  // Metric columns: everything after the launch-description columns, named like unit__counter.
  std::vector<size_t> metric_columns;
  for (size_t i = 0; i < header.size(); ++i)
    if (is_counter_column(header[i])) metric_columns.push_back(i);
  if (metric_columns.empty())
    throw InputError(fmt::format("{}:{}: the CSV has no metric columns", source, records.line_number()));

  std::vector<std::string> units(header.size());
  std::vector<KernelRows> kernels;
  std::map<std::string, size_t> position;
  std::string device_column_name;
  const auto display_name = records.column("device__attribute_display_name");
  for (std::vector<std::string> fields; records.next(fields);) {
    if (fields[0].empty()) {  // the units row
      units = fields;
      continue;
    }
    const std::string& name = fields[*name_column];
    auto [it, added] = position.try_emplace(name, kernels.size());
    if (added) kernels.push_back(KernelRows{name, 0, 0, false, {}, {}});
    KernelRows& kernel = kernels[it->second];
    ++kernel.invocations;
    if (display_name && device_column_name.empty()) device_column_name = fields[*display_name];
    for (size_t i : metric_columns) {
      const std::string& metric = header[i];
      const std::optional<double> value = parse_number(fields[i]);
      if (!value) continue;
      if (metric == "gpu__time_duration.sum" && is_time_unit(units[i])) {
        kernel.duration_ms += *value * unit_factor(units[i]);
        kernel.has_duration = true;
        continue;
      }
      kernel.counters[metric] += *value * unit_factor(units[i]);
      ++kernel.counted[metric];
    }
  }
  if (kernels.empty()) throw InputError(fmt::format("{}: the CSV has a header but no kernel rows", source));

  nlohmann::json list = nlohmann::json::array();
  for (auto& kernel : kernels) {
    for (auto& [metric, value] : kernel.counters)
      if (!summable(metric)) value /= kernel.counted[metric];
    nlohmann::json entry = {{"name", kernel.name}, {"invocations", kernel.invocations}, {"counters", kernel.counters}};
    if (kernel.has_duration && kernel.duration_ms > 0) entry["measured_ms"] = kernel.duration_ms;
    list.push_back(entry);
  }
  nlohmann::json profile = {{"format", "roofcast-profile"}, {"version", 1}};
  const std::string device = !device_name.empty() ? device_name : device_column_name;
  if (!device.empty()) profile["reference_device"] = device;
  profile["importer"] = {{"tool", "ncu"}, {"source", source}};
  profile["kernels"] = list;
  return profile;
}

}  // namespace roofcast::profiler
