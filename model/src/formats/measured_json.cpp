#include "roofcast/formats/measured_json.hpp"

#include <fmt/format.h>

#include "roofcast/formats/json_field.hpp"

namespace roofcast {

namespace {

using nlohmann::json;

constexpr const char* kFormat = "roofcast-measured";
constexpr int kVersion = 1;

MeasuredKernel parse_kernel(const Field& entry) {
  entry.object();
  MeasuredKernel kernel;
  kernel.name = entry.member("name").non_empty_string();
  const Field labelled = entry.with_path(fmt::format("{} \"{}\"", entry.path(), kernel.name));
  kernel.invocations = labelled.member("invocations").count();
  kernel.measured_ms = labelled.member("measured_ms").positive();
  kernel.min_ms = labelled.member("min_ms").non_negative();
  kernel.median_ms = labelled.member("median_ms").non_negative();
  kernel.max_ms = labelled.member("max_ms").non_negative();
  if (!(kernel.min_ms <= kernel.median_ms && kernel.median_ms <= kernel.max_ms))
    labelled.fail("expected min_ms <= median_ms <= max_ms");
  return kernel;
}

}  // namespace

MeasuredTimes parse_measured_times(std::string_view json_text, const std::string& source) {
  const json document = parse_json_document(json_text, source);
  const Field root = check_header(document, source, kFormat, kVersion);
  MeasuredTimes times;
  times.device = root.member("device").non_empty_string();
  times.kernels = parse_kernel_list(root.member("kernels"), parse_kernel);
  return times;
}

nlohmann::json to_json(const MeasuredTimes& times) {
  json kernels = json::array();
  for (const auto& k : times.kernels)
    kernels.push_back({{"name", k.name}, {"invocations", k.invocations}, {"measured_ms", k.measured_ms},
                       {"min_ms", k.min_ms}, {"median_ms", k.median_ms}, {"max_ms", k.max_ms}});
  return {{"format", kFormat}, {"version", kVersion}, {"device", times.device}, {"kernels", kernels}};
}

}  // namespace roofcast
