// roofcast-cupti: the part of `roofcast profile` that needs CUPTI in the roofcast process
// itself (the collector proper is the injection library). `roofcast profile --list-metrics`
// runs it. Usage: roofcast-cupti list-metrics [--chip NAME] [--device INDEX] [--set thesis|full]
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "host_metrics.hpp"
#include "local_device.hpp"
#include "roofcast/profiler/metric_set.hpp"

namespace {

using namespace roofcast::profiler;

int list_metrics(const std::string& chip_option, int device_index, const std::string& set_option) {
  MetricSetName set = MetricSetName::full;
  if (!parse_metric_set_name(set_option, set)) {
    std::cerr << fmt::format("roofcast profile: --metrics: expected thesis or full, found \"{}\"\n", set_option);
    return 2;
  }
  std::string chip = chip_option;
  std::vector<uint8_t> availability;
  std::string where;
  if (chip.empty()) {
    try {
      const LocalDevice device = open_local_device(device_index);
      chip = device.chip;
      availability = device.counter_availability;
      where = fmt::format("{} (device {}, chip {}, counters available on this GPU)", device.name, device_index, chip);
    } catch (const std::exception& error) {
      std::cerr << fmt::format("roofcast profile: {}; give --chip NAME (e.g. --chip GH100) to list offline\n",
                               error.what());
      return 1;
    }
  } else {
    where = fmt::format("chip {} (offline, Profiler Host API, no GPU used)", chip);
  }

  HostMetrics host(chip, availability);
  const std::vector<std::string> names = metric_names(set);
  int invalid = 0;
  std::cout << fmt::format("Metric set for {}\n\n", where);
  std::cout << fmt::format("{:<58} {:<4} {:<7} {:<20} {}\n", "metric (CUDA 13 name)", "kind", "set", "unit", "meaning");
  for (const auto& name : names) {
    const MetricInfo* info = find_metric(name);
    const MetricProperties p = host.properties(name);
    const bool thesis = info >= thesis_metrics().data() && info < thesis_metrics().data() + thesis_metrics().size();
    std::cout << fmt::format("{:<58} {:<4} {:<7} {:<20} {}\n", name, is_sass_metric(name) ? "SW" : "HW",
                             thesis ? "thesis" : "ext", p.valid ? p.unit : "INVALID",
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
