#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

struct CUpti_Profiler_Host_Object;

namespace roofcast::profiler {

// What the Profiler Host API says about one metric name on a chip.
struct MetricProperties {
  std::string name;
  bool valid = false;
  std::string problem;      // CUPTI's answer when not valid
  std::string description;
  std::string unit;
};

// The CUPTI Profiler Host API for one chip (e.g. "GH100"). It needs no GPU: without a counter
// availability image it answers for the whole chip, with one (taken from a live context) for
// what that context can collect. Builds config images, counts passes, evaluates counter data.
class HostMetrics {
 public:
  explicit HostMetrics(const std::string& chip, const std::vector<uint8_t>& counter_availability = {});
  ~HostMetrics();
  HostMetrics(const HostMetrics&) = delete;
  HostMetrics& operator=(const HostMetrics&) = delete;

  const std::string& chip() const { return chip_; }
  MetricProperties properties(const std::string& metric) const;

  // The config image collecting `metrics` (throws CuptiError naming a bad metric), and its passes.
  std::vector<uint8_t> config_image(const std::vector<std::string>& metrics) const;
  static size_t passes(std::vector<uint8_t>& config_image);

  // The values of `metrics` in range `range_index` of a decoded counter-data image.
  std::vector<double> evaluate(const std::vector<uint8_t>& counter_data, size_t range_index,
                               const std::vector<std::string>& metrics) const;

  static std::vector<std::string> supported_chips();

  // Every base metric of the chip (counters, ratios, throughputs), sorted; no GPU needed.
  // Base names take a rollup (".sum", ".avg", ...) to become collectable metrics.
  struct BaseMetric {
    std::string name;
    std::string type;  // "counter", "ratio" or "throughput"
  };
  std::vector<BaseMetric> base_metrics() const;

 private:
  CUpti_Profiler_Host_Object* fresh_object() const;

  std::string chip_;
  std::vector<uint8_t> availability_;
  CUpti_Profiler_Host_Object* object_ = nullptr;
};

}  // namespace roofcast::profiler
