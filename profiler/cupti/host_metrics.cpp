#include "host_metrics.hpp"

#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "cupti_status.hpp"

namespace roofcast::profiler {

namespace {

std::vector<const char*> c_names(const std::vector<std::string>& names) {
  std::vector<const char*> pointers;
  pointers.reserve(names.size());
  for (const auto& name : names) pointers.push_back(name.c_str());
  return pointers;
}

void deinitialize(CUpti_Profiler_Host_Object* object) {
  if (object == nullptr) return;
  CUpti_Profiler_Host_Deinitialize_Params params{CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
  params.pHostObject = object;
  cuptiProfilerHostDeinitialize(&params);
}

}  // namespace

HostMetrics::HostMetrics(const std::string& chip, const std::vector<uint8_t>& counter_availability)
    : chip_(chip), availability_(counter_availability) {
  object_ = fresh_object();
}

HostMetrics::~HostMetrics() { deinitialize(object_); }

CUpti_Profiler_Host_Object* HostMetrics::fresh_object() const {
  CUpti_Profiler_Host_Initialize_Params params{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  params.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  params.pChipName = chip_.c_str();
  params.pCounterAvailabilityImage = availability_.empty() ? nullptr : availability_.data();
  check_cupti(cuptiProfilerHostInitialize(&params),
              fmt::format("cuptiProfilerHostInitialize for chip {}", chip_).c_str());
  return params.pHostObject;
}

MetricProperties HostMetrics::properties(const std::string& metric) const {
  MetricProperties result;
  result.name = metric;
  CUpti_Profiler_Host_GetMetricProperties_Params params{CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
  params.pHostObject = object_;
  params.pMetricName = metric.c_str();
  const CUptiResult status = cuptiProfilerHostGetMetricProperties(&params);
  if (status != CUPTI_SUCCESS) {
    result.problem = describe_cupti_result(status);
    return result;
  }
  result.valid = true;
  if (params.pDescription) result.description = params.pDescription;
  if (params.pDimUnit) result.unit = params.pDimUnit;
  return result;
}

std::vector<uint8_t> HostMetrics::config_image(const std::vector<std::string>& metrics) const {
  // A config image holds every metric added to its host object, so each image gets a fresh one.
  CUpti_Profiler_Host_Object* object = fresh_object();
  std::vector<uint8_t> image;
  try {
    for (const auto& metric : metrics) {
      const MetricProperties p = properties(metric);
      if (!p.valid) throw std::runtime_error(fmt::format("metric {} is not valid for chip {}: {}", metric, chip_, p.problem));
    }
    std::vector<const char*> names = c_names(metrics);
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = object;
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    check_cupti(cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics");
    CUpti_Profiler_Host_GetConfigImageSize_Params size{CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = object;
    check_cupti(cuptiProfilerHostGetConfigImageSize(&size), "cuptiProfilerHostGetConfigImageSize");
    image.resize(size.configImageSize);
    CUpti_Profiler_Host_GetConfigImage_Params get{CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    get.pHostObject = object;
    get.configImageSize = image.size();
    get.pConfigImage = image.data();
    check_cupti(cuptiProfilerHostGetConfigImage(&get), "cuptiProfilerHostGetConfigImage");
  } catch (...) {
    deinitialize(object);
    throw;
  }
  deinitialize(object);
  return image;
}

size_t HostMetrics::passes(std::vector<uint8_t>& config_image) {
  CUpti_Profiler_Host_GetNumOfPasses_Params params{CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
  params.configImageSize = config_image.size();
  params.pConfigImage = config_image.data();
  check_cupti(cuptiProfilerHostGetNumOfPasses(&params), "cuptiProfilerHostGetNumOfPasses");
  return params.numOfPasses;
}

std::vector<double> HostMetrics::evaluate(const std::vector<uint8_t>& counter_data, size_t range_index,
                                          const std::vector<std::string>& metrics) const {
  std::vector<const char*> names = c_names(metrics);
  std::vector<double> values(metrics.size(), 0.0);
  CUpti_Profiler_Host_EvaluateToGpuValues_Params params{CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
  params.pHostObject = object_;
  params.pCounterDataImage = counter_data.data();
  params.counterDataImageSize = counter_data.size();
  params.rangeIndex = range_index;
  params.ppMetricNames = names.data();
  params.numMetrics = names.size();
  params.pMetricValues = values.data();
  check_cupti(cuptiProfilerHostEvaluateToGpuValues(&params), "cuptiProfilerHostEvaluateToGpuValues");
  return values;
}

std::vector<HostMetrics::BaseMetric> HostMetrics::base_metrics() const {
  constexpr std::pair<CUpti_MetricType, const char*> kTypes[] = {
      {CUPTI_METRIC_TYPE_COUNTER, "counter"}, {CUPTI_METRIC_TYPE_RATIO, "ratio"}, {CUPTI_METRIC_TYPE_THROUGHPUT, "throughput"}};
  std::vector<BaseMetric> metrics;
  for (const auto& [type, type_name] : kTypes) {
    CUpti_Profiler_Host_GetBaseMetrics_Params params{CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE};
    params.pHostObject = object_;
    params.metricType = type;
    check_cupti(cuptiProfilerHostGetBaseMetrics(&params), "cuptiProfilerHostGetBaseMetrics");
    for (size_t i = 0; i < params.numMetrics; ++i) metrics.push_back({params.ppMetricNames[i], type_name});
  }
  std::sort(metrics.begin(), metrics.end(), [](const BaseMetric& a, const BaseMetric& b) { return a.name < b.name; });
  return metrics;
}

std::vector<std::string> HostMetrics::supported_chips() {
  CUpti_Profiler_Host_GetSupportedChips_Params params{CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE};
  check_cupti(cuptiProfilerHostGetSupportedChips(&params), "cuptiProfilerHostGetSupportedChips");
  std::vector<std::string> chips;
  for (size_t i = 0; i < params.numChips; ++i) chips.emplace_back(params.ppChipNames[i]);
  return chips;
}

}  // namespace roofcast::profiler
