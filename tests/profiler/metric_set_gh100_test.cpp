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

TEST_CASE("the full set holds the thesis nine, the extension set, the pipes and latency groups, each name once") {
  const auto names = metric_names(MetricSetName::full);
  CHECK(names.size() ==
        thesis_metrics().size() + extension_metrics().size() + pipes_metrics().size() + latency_metrics().size());
  for (const auto& group : {thesis_metrics(), extension_metrics(), pipes_metrics(), latency_metrics()})
    for (const auto& metric : group) {
      INFO(metric.name);
      CHECK(std::count(names.begin(), names.end(), std::string(metric.name)) == 1);
      CHECK(find_metric(metric.name) == &metric);
    }
  // The multi-pipeline model's names (issue 7), spelled as GH100 spells them.
  for (const char* name : {"smsp__inst_executed_pipe_alu.sum", "smsp__inst_executed_pipe_fmaheavy.sum",
                           "smsp__inst_executed_pipe_fmalite.sum", "smsp__inst_executed_pipe_fma_type_fp16.sum",
                           "smsp__inst_executed_pipe_fp64.sum", "smsp__inst_executed_pipe_xu.sum",
                           "smsp__inst_executed_pipe_lsu.sum", "smsp__inst_executed_pipe_tensor_op_dmma.sum",
                           "sm__ops_path_tensor_src_fp16.sum", "smsp__sass_inst_executed_op_global_atom.sum",
                           "lts__t_sectors_srcunit_tex_op_read.sum", "sm__cycles_elapsed.avg.per_second"}) {
    INFO(name);
    CHECK(std::find(names.begin(), names.end(), name) != names.end());
  }
  CHECK_FALSE(find_metric("sm__cycles_elapsed.avg.per_second")->summable);  // a clock: mean over launches
}

TEST_CASE("the latency group holds every stall reason GH100 has and the issue 13 contract's names") {
  const auto names = metric_names(MetricSetName::full);
  const auto collected = [&](const std::string& name) {
    return std::find(names.begin(), names.end(), name) != names.end();
  };
  // Every smsp__warps_issue_stalled_<reason> counter of the chip, as listed offline.
  HostMetrics host("GH100");
  size_t reasons = 0;
  for (const auto& metric : host.base_metrics()) {
    if (metric.name.rfind("smsp__warps_issue_stalled_", 0) != 0) continue;
    ++reasons;
    INFO(metric.name);
    CHECK(collected(metric.name + ".sum"));
  }
  CHECK(reasons == 19);
  for (const char* name : {"sm__warps_launched.sum", "smsp__cycles_active.sum", "smsp__warps_active.sum",
                           "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
                           "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
                           "lts__t_sectors_srcunit_tex_lookup_hit.sum", "lts__t_sectors_srcunit_tex_lookup_miss.sum",
                           "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
                           "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
                           "lts__t_requests_srcunit_tex_op_atom.sum", "lts__t_requests_srcunit_tex_op_red.sum",
                           "lts__d_atomic_input_cycles_active.max", "lts__cycles_elapsed.avg",
                           "l1tex__t_set_conflicts_pipe_lsu_mem_global_op_red.sum",
                           "smsp__sass_inst_executed_op_tma_ld.sum", "l1tex__m_xbar2l1tex_read_bytes_pipe_tma.sum"}) {
    INFO(name);
    CHECK(collected(name));
  }
}

TEST_CASE("replay passes on GH100: thesis nine in 2 (1 hardware + 1 SASS-patched), full set in 19") {
  HostMetrics host("GH100");
  auto thesis = host.config_image(metric_names(MetricSetName::thesis));
  CHECK(HostMetrics::passes(thesis) == 2);
  // Thesis + extension alone: 4 passes (what the full set took before the pipes group).
  std::vector<std::string> without_pipes;
  for (const auto& group : {thesis_metrics(), extension_metrics()})
    for (const auto& metric : group) without_pipes.emplace_back(metric.name);
  auto before = host.config_image(without_pipes);
  CHECK(HostMetrics::passes(before) == 4);
  // Thesis + extension + pipes: 13 (what the full set took before the latency group). The pipe
  // instruction counters take 4 per pass, the tensor op counters by source type 5 more.
  std::vector<std::string> without_latency = without_pipes;
  for (const auto& metric : pipes_metrics()) without_latency.emplace_back(metric.name);
  auto before_latency = host.config_image(without_latency);
  CHECK(HostMetrics::passes(before_latency) == 13);
  // The 19 stall reasons fit 3 or 4 to a pass (+6); the rest of the latency group fits in
  // existing passes.
  auto full = host.config_image(metric_names(MetricSetName::full));
  CHECK(HostMetrics::passes(full) == 19);
  // Software (SASS) metrics alone fit one pass; hardware metrics need the rest.
  std::vector<std::string> sass, hardware;
  for (const auto& name : metric_names(MetricSetName::full)) (is_sass_metric(name) ? sass : hardware).push_back(name);
  auto sass_image = host.config_image(sass);
  CHECK(HostMetrics::passes(sass_image) == 1);
  auto hardware_image = host.config_image(hardware);
  CHECK(HostMetrics::passes(hardware_image) == 18);
}

TEST_CASE("the chip's base metrics can be listed offline, and hold the pipes group's names") {
  HostMetrics host("GH100");
  const auto base = host.base_metrics();
  CHECK(base.size() > 1000);
  const auto has = [&](const std::string& name) {
    return std::any_of(base.begin(), base.end(), [&](const auto& metric) { return metric.name == name; });
  };
  CHECK(has("smsp__inst_executed_pipe_xu"));
  CHECK(has("sm__ops_path_tensor_src_fp16"));
  CHECK_FALSE(has("smsp__inst_executed_pipe_fp16"));  // not on GH100: fp16 is pipe_fma_type_fp16
}
