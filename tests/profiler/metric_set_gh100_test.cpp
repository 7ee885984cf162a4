// Validates our metric set against chip GH100 (H100/H200) through the CUPTI Profiler Host
// API, offline: no GPU or driver needed (cupti-notes.md section 2.6, appendix A).
#include <catch2/catch.hpp>

#include <algorithm>

#include "host_metrics.hpp"
#include "roofcast/model/counter_names.hpp"
#include "roofcast/profiler/metric_set.hpp"

using namespace roofcast::profiler;

TEST_CASE("GH100 is a chip this CUPTI knows") {
  const auto chips = HostMetrics::supported_chips();
  CHECK(std::find(chips.begin(), chips.end(), "GH100") != chips.end());
}

TEST_CASE("every metric we collect is valid for GH100") {
  HostMetrics host("GH100");
  for (const auto& name : metric_names(MetricSetName::full)) {
    INFO(name);
    const MetricProperties p = host.properties(name);
    CHECK(p.valid);
    CHECK_FALSE(p.unit.empty());
  }
  // And the host API does reject names: the check above can fail.
  CHECK_FALSE(host.properties("achieved_occupancy").valid);
  CHECK_FALSE(host.properties("launch__registers_per_thread").valid);
}

TEST_CASE("the thesis set is the model's nine counters") {
  const auto names = metric_names(MetricSetName::thesis);
  REQUIRE(names.size() == roofcast::thesis_counter_names().size());
  for (const auto& counter : roofcast::thesis_counter_names())
    CHECK(std::find(names.begin(), names.end(), std::string(counter.cupti)) != names.end());
}

TEST_CASE("replay passes on GH100: thesis nine in 2 (1 hardware + 1 SASS-patched), full set in 4") {
  HostMetrics host("GH100");
  auto thesis = host.config_image(metric_names(MetricSetName::thesis));
  CHECK(HostMetrics::passes(thesis) == 2);
  auto full = host.config_image(metric_names(MetricSetName::full));
  CHECK(HostMetrics::passes(full) == 4);
  // Software (SASS) metrics alone fit one pass; hardware metrics need the rest.
  std::vector<std::string> sass, hardware;
  for (const auto& name : metric_names(MetricSetName::full)) (is_sass_metric(name) ? sass : hardware).push_back(name);
  auto sass_image = host.config_image(sass);
  CHECK(HostMetrics::passes(sass_image) == 1);
  auto hardware_image = host.config_image(hardware);
  CHECK(HostMetrics::passes(hardware_image) == 3);
}
