#include <cmath>
#include <cctype>
#include <cstdint>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/input_limits.hpp"
#include "roofcast/formats/kernel_name_text.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/profiler/importers.hpp"
#include "roofcast/profiler/metric_set.hpp"

namespace roofcast::profiler {

namespace {

// Nanoseconds in one `unit` of time, or nullopt when `unit` is not a time unit.
std::optional<double> nanoseconds_in(std::string_view unit) {
  static const std::map<std::string_view, double> ns = {{"nsecond", 1},   {"ns", 1},   {"usecond", 1e3}, {"us", 1e3},
                                                        {"msecond", 1e6}, {"ms", 1e6}, {"second", 1e9},  {"s", 1e9}};
  const auto it = ns.find(unit);
  return it == ns.end() ? std::nullopt : std::optional<double>(it->second);
}

// What a value in `unit` is multiplied by to be in ncu's base units (those of
// `--print-units base`, which the collector records too): bytes, sectors, instructions, cycles
// ... without a K/M/G/T prefix, times in nanoseconds, rates per second ("Gbyte/second" -> 1e9,
// "cycle/nsecond" -> 1e9). A unit with no prefix ("%", "SM", "register/thread") is kept as is.
double base_unit_factor(std::string_view unit) {
  if (const auto slash = unit.find('/'); slash != std::string_view::npos) {
    const std::string_view per = unit.substr(slash + 1);
    const double numerator = base_unit_factor(unit.substr(0, slash));
    if (const auto ns = nanoseconds_in(per)) return numerator * 1e9 / *ns;
    return numerator / base_unit_factor(per);
  }
  if (const auto ns = nanoseconds_in(unit)) return *ns;
  if (unit.size() > 1 && std::islower(static_cast<unsigned char>(unit[1]))) {
    switch (unit[0]) {
      case 'K': return 1e3;
      case 'M': return 1e6;
      case 'G': return 1e9;
      case 'T': return 1e12;
      default: break;
    }
  }
  return 1.0;
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
  int64_t invocations = 0;
  double duration_ms = 0;
  bool has_duration = false;
  std::map<std::string, double> counters;
  std::map<std::string, int64_t> counted;
  std::set<std::string> not_available;  // metrics ncu wrote as "n/a" (or left empty) for some launch
  int64_t launches_without_duration = 0;  // of those, the launches whose duration is n/a
};

// Kernel time: gpu__time_duration.sum, in milliseconds (its unit must be a time unit).
constexpr std::string_view kDuration = "gpu__time_duration.sum";

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
  // A column the importer reads that appears twice is ambiguous: refused.
  std::vector<size_t> metric_columns;
  std::map<std::string_view, size_t> first_column;
  for (size_t i = 0; i < header.size(); ++i) {
    const bool read = is_counter_column(header[i]) || header[i] == "Kernel Name" ||
                      header[i] == "device__attribute_display_name" || i == 0;
    if (!read) continue;
    if (const auto [earlier, added] = first_column.try_emplace(header[i], i); !added)
      throw InputError(fmt::format("{}:{}: column \"{}\" appears twice (columns {} and {}): which one to read is "
                                   "ambiguous",
                                   source, records.line_number(), printable(header[i]), earlier->second + 1, i + 1));
    if (is_counter_column(header[i])) metric_columns.push_back(i);
  }
  if (metric_columns.empty())
    throw InputError(fmt::format("{}:{}: the CSV has no metric columns", source, records.line_number()));

  // The units row, right after the header (its ID cell empty): ncu writes one.
  std::vector<std::string> units;
  if (!records.next(units) || !units[0].empty())
    throw InputError(fmt::format("{}:{}: no units row after the header (its first cell empty); expected ncu --csv "
                                 "--page raw",
                                 source, records.line_number()));
  const auto duration_column = records.column(std::string(kDuration));
  if (duration_column && !nanoseconds_in(units[*duration_column]))
    throw InputError(fmt::format("{}:{}: {}: unit \"{}\" is not a time unit (expected ns, us, ms, s, nsecond, "
                                 "usecond, msecond or second)",
                                 source, records.line_number(), kDuration, printable(units[*duration_column])));

  std::vector<KernelRows> kernels;
  std::map<std::string, size_t> position;
  std::string device_column_name;
  const auto display_name = records.column("device__attribute_display_name");
  for (std::vector<std::string> fields; records.next(fields);) {
    if (fields[0].empty())
      throw InputError(fmt::format("{}:{}: a row with an empty ID cell: only the row right after the header can be "
                                   "the units row",
                                   source, records.line_number()));
    const std::string& name = fields[*name_column];
    auto [it, added] = position.try_emplace(name, kernels.size());
    if (added) {
      kernels.emplace_back();
      kernels.back().name = name;
    }
    KernelRows& kernel = kernels[it->second];
    ++kernel.invocations;
    if (display_name && device_column_name.empty()) device_column_name = fields[*display_name];
    for (size_t i : metric_columns) {
      const std::string& metric = header[i];
      const std::string& cell = fields[i];
      if (cell.empty() || cell == "n/a") {
        kernel.not_available.insert(metric);
        if (metric == kDuration) ++kernel.launches_without_duration;
        continue;
      }
      const std::optional<double> value = parse_csv_number(cell);
      auto fail = [&](std::string_view problem) {
        throw InputError(fmt::format("{}:{}: kernel \"{}\": {}: {}", source, records.line_number(), name, metric,
                                     problem));
      };
      if (!value) fail(fmt::format("not a number: \"{}\" (expected a number, or n/a)", printable(cell)));
      if (*value < 0) fail(fmt::format("must be >= 0, found {}", *value));
      const double in_base_units = *value * base_unit_factor(units[i]);
      if (in_base_units > input_limits::kLargest)
        fail(fmt::format("{:g} is beyond the largest value roofcast reads ({:g})", in_base_units,
                         input_limits::kLargest));
      if (metric == kDuration) {
        kernel.duration_ms += in_base_units * 1e-6;
        kernel.has_duration = true;
        continue;
      }
      kernel.counters[metric] += in_base_units;
      ++kernel.counted[metric];
    }
  }
  if (kernels.empty()) throw InputError(fmt::format("{}: the CSV has a header but no kernel rows", source));

  nlohmann::json list = nlohmann::json::array();
  nlohmann::json notes = nlohmann::json::array();
  for (auto& kernel : kernels) {
    if (kernel.launches_without_duration > 0)
      notes.push_back(fmt::format("kernel \"{}\": {} is n/a for {} of its {} launches: no measured time", kernel.name,
                                  kDuration, kernel.launches_without_duration, kernel.invocations));
    // A metric not available for one launch is left out rather than summed over the others.
    for (const auto& metric : kernel.not_available) kernel.counters.erase(metric);
    for (auto& [metric, value] : kernel.counters) {
      if (!summable(metric)) value /= static_cast<double>(kernel.counted[metric]);
      if (value > input_limits::kLargest)
        throw InputError(fmt::format("{}: kernel \"{}\": {}: the sum over its launches, {:g}, is beyond the largest "
                                     "value roofcast reads ({:g})",
                                     source, kernel.name, metric, value, input_limits::kLargest));
    }
    if (kernel.not_available.contains(std::string(kDuration))) kernel.has_duration = false;
    // Named as the collector names kernels (demangled), the mangled name kept beside it: ncu writes
    // mangled names with --print-kernel-base mangled.
    const std::string demangled = demangled_kernel_name(kernel.name);
    nlohmann::json entry = {{"name", demangled}, {"invocations", kernel.invocations}, {"counters", kernel.counters}};
    if (demangled != kernel.name) entry["mangled_name"] = kernel.name;
    if (kernel.has_duration && kernel.duration_ms > 0) entry["measured_ms"] = kernel.duration_ms;
    list.push_back(entry);
  }
  nlohmann::json profile = {{"format", "roofcast-profile"}, {"version", 1}};
  const std::string device = !device_name.empty() ? device_name : device_column_name;
  if (!device.empty()) profile["reference_device"] = device;
  profile["importer"] = {{"tool", "ncu"}, {"source", source}};
  profile["kernels"] = list;
  if (!notes.empty()) profile["notes"] = notes;
  return profile;
}

}  // namespace roofcast::profiler
