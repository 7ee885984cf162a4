// roofcast-cupti: the part of `roofcast profile` that needs CUPTI in the roofcast process
// itself (the collector proper is the injection library). `roofcast profile --list-metrics`
// runs it. Usage: roofcast-cupti list-metrics [--chip NAME] [--device INDEX] [--metrics thesis|full]
//                roofcast-cupti search-metrics REGEX [--chip NAME] [--device INDEX]
//   (every base metric of the chip whose name matches REGEX, with its type and unit: how the
//    metric set's names were found; offline with --chip)
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iostream>
#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "host_metrics.hpp"
#include "local_device.hpp"
#include "roofcast/profiler/metric_set.hpp"

namespace {

using namespace roofcast::profiler;

// The groups of the metric set (metric_set.hpp), as list-metrics labels them.
constexpr std::pair<std::span<const MetricInfo> (*)(), const char*> kGroups[] = {
    {thesis_metrics, "thesis"}, {extension_metrics, "ext"}, {pipes_metrics, "pipes"}, {latency_metrics, "latency"}};

// The chip to answer for: --chip offline, else the local GPU's (with its counter availability).
struct ChipChoice {
  std::string chip;
  std::vector<uint8_t> availability;
  std::string where;
};

// --chip NAME: one of the chips this CUPTI knows, in any case ("gh100" is GH100).
bool choose_offline_chip(const std::string& chip_option, ChipChoice& choice) {
  const std::vector<std::string> chips = HostMetrics::supported_chips();
  const auto lower = [](std::string text) {
    for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return text;
  };
  const auto known = std::find_if(chips.begin(), chips.end(),
                                  [&](const std::string& chip) { return lower(chip) == lower(chip_option); });
  if (known == chips.end()) {
    std::cerr << fmt::format("roofcast profile: --chip {}: not a chip this CUPTI knows (known: {})\n", chip_option,
                             fmt::join(chips, ", "));
    return false;
  }
  choice.chip = *known;
  choice.where = fmt::format("chip {} (offline, Profiler Host API, no GPU used)", choice.chip);
  return true;
}

bool choose_chip(const std::string& chip_option, int device_index, ChipChoice& choice) {
  if (!chip_option.empty()) return choose_offline_chip(chip_option, choice);
  try {
    const LocalDevice device = open_local_device(device_index);
    choice.chip = device.chip;
    choice.availability = device.counter_availability;
    choice.where = fmt::format("{} (device {}, chip {}, counters available on this GPU)", device.name, device_index,
                               device.chip);
    return true;
  } catch (const std::exception& error) {
    std::cerr << fmt::format("roofcast profile: {}; give --chip NAME (e.g. --chip GH100) to answer offline\n",
                             error.what());
    return false;
  }
}

int search_metrics(const std::string& pattern, const std::string& chip_option, int device_index) {
  std::regex regex;
  try {
    regex = std::regex(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& error) {
    std::cerr << fmt::format("roofcast-cupti: search-metrics: bad regular expression \"{}\": {}\n", pattern, error.what());
    return 2;
  }
  ChipChoice choice;
  if (!choose_chip(chip_option, device_index, choice)) return 1;
  HostMetrics host(choice.chip, choice.availability);
  const auto metrics = host.base_metrics();
  size_t matched = 0;
  for (const auto& metric : metrics) {
    if (!std::regex_search(metric.name, regex)) continue;
    ++matched;
    const MetricProperties p = host.properties(metric.name);
    std::cout << fmt::format("{:<64} {:<10} {:<12} {}\n", metric.name, metric.type, p.unit, p.description);
  }
  std::cerr << fmt::format("{} of {} base metrics of {} match \"{}\" (add a rollup such as .sum to collect one)\n",
                           matched, metrics.size(), choice.where, pattern);
  return matched > 0 ? 0 : 1;
}

int list_metrics(const std::string& chip_option, int device_index, const std::string& set_option) {
  MetricSetName set = MetricSetName::full;
  if (!parse_metric_set_name(set_option, set)) {
    std::cerr << fmt::format("roofcast profile: --metrics: expected thesis or full, found \"{}\"\n", set_option);
    return 2;
  }
  ChipChoice choice;
  if (!choose_chip(chip_option, device_index, choice)) return 1;
  const std::string& chip = choice.chip;
  const std::string& where = choice.where;

  HostMetrics host(chip, choice.availability);
  const std::vector<std::string> names = metric_names(set);
  int invalid = 0;
  std::cout << fmt::format("Metric set for {}\n\n", where);
  std::cout << fmt::format("{:<58} {:<4} {:<7} {:<20} {}\n", "metric (CUDA 13 name)", "kind", "set", "unit", "meaning");
  for (const auto& name : names) {
    const MetricInfo* info = find_metric(name);
    const MetricProperties p = host.properties(name);
    const char* group = "";
    for (const auto& [metrics, label] : kGroups)
      if (info >= metrics().data() && info < metrics().data() + metrics().size()) group = label;
    std::cout << fmt::format("{:<58} {:<4} {:<7} {:<20} {}\n", name, is_sass_metric(name) ? "SW" : "HW",
                             group, p.valid ? p.unit : "INVALID",
                             p.valid ? std::string(info->meaning) : p.problem);
    if (!p.valid) ++invalid;
  }
  if (invalid > 0) {
    std::cerr << fmt::format("roofcast profile: {} metric(s) are not valid for chip {}\n", invalid, chip);
    return 1;
  }
  std::vector<uint8_t> thesis_image = host.config_image(metric_names(MetricSetName::thesis));
  std::cout << fmt::format("\nreplay passes on {}: thesis set ({} metrics) {}", chip,
                           metric_names(MetricSetName::thesis).size(), HostMetrics::passes(thesis_image));
  if (set == MetricSetName::full) {
    std::vector<uint8_t> full_image = host.config_image(names);
    std::cout << fmt::format(", full set ({} metrics) {}", names.size(), HostMetrics::passes(full_image));
  }
  std::cout << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"roofcast-cupti: CUPTI helper of `roofcast profile`"};
  app.require_subcommand(1);
  std::string chip;
  int device = 0;
  std::string set = "full";
  int status = 0;
  CLI::App* list = app.add_subcommand("list-metrics", "Print the metric set with its replay pass count");
  list->add_option("--chip", chip, "Chip name for an offline answer (e.g. GH100); default: the local GPU's");
  list->add_option("--device", device, "Local GPU index");
  list->add_option("--metrics", set, "Metric set: thesis or full");
  list->callback([&] { status = list_metrics(chip, device, set); });
  std::string pattern;
  CLI::App* search = app.add_subcommand("search-metrics", "List the chip's base metrics whose names match a regex");
  search->add_option("regex", pattern, "ECMAScript regular expression, searched in each name")->required();
  search->add_option("--chip", chip, "Chip name for an offline answer (e.g. GH100); default: the local GPU's");
  search->add_option("--device", device, "Local GPU index");
  search->callback([&] { status = search_metrics(pattern, chip, device); });
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  } catch (const std::exception& error) {
    std::cerr << "roofcast profile: " << error.what() << "\n";
    return 1;
  }
  return status;
}
