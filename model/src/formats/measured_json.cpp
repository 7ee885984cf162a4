#include "roofcast/formats/measured_json.hpp"

#include <cmath>

#include <fmt/format.h>

#include "roofcast/formats/input_error.hpp"

namespace roofcast {

namespace {

using nlohmann::json;

constexpr const char* kFormat = "roofcast-measured";
constexpr int kVersion = 1;

[[noreturn]] void fail(const std::string& source, const std::string& path, std::string_view problem) {
  throw InputError(fmt::format("{}: {}: {}", source, path, problem));
}

const json& member(const json& object, const std::string& key, const std::string& source, const std::string& path) {
  const auto it = object.find(key);
  if (it == object.end()) fail(source, path.empty() ? key : path + "." + key, "missing");
  return *it;
}

double number_at(const json& object, const std::string& key, const std::string& source, const std::string& path,
                 bool allow_zero) {
  const std::string where = path + "." + key;
  const json& value = member(object, key, source, path);
  if (!value.is_number()) fail(source, where, fmt::format("expected a number, found {}", value.type_name()));
  const double number = value.get<double>();
  if (!std::isfinite(number)) fail(source, where, "expected a finite number");
  if (allow_zero ? number < 0 : number <= 0) fail(source, where, fmt::format("must be {} 0, found {}", allow_zero ? ">=" : ">", number));
  return number;
}

}  // namespace

MeasuredTimes parse_measured_times(std::string_view json_text, const std::string& source) {
  json document;
  try {
    document = json::parse(json_text);
  } catch (const json::parse_error& error) {
    throw InputError(fmt::format("{}: not valid JSON (byte {})", source, error.byte));
  }
  if (!document.is_object()) throw InputError(fmt::format("{}: expected a JSON object", source));
  const json& format = member(document, "format", source, "");
  if (!format.is_string() || format.get<std::string>() != kFormat)
    fail(source, "format", fmt::format("expected \"{}\", found {}", kFormat, format.dump()));
  const json& version = member(document, "version", source, "");
  if (!version.is_number_integer() || version.get<int>() < 1)
    fail(source, "version", "expected a positive integer");
  if (version.get<int>() > kVersion)
    fail(source, "version", fmt::format("version {} is newer than this roofcast reads ({}); upgrade roofcast",
                                        version.get<int>(), kVersion));
  MeasuredTimes times;
  const json& device = member(document, "device", source, "");
  if (!device.is_string() || device.get<std::string>().empty()) fail(source, "device", "expected a non-empty string");
  times.device = device.get<std::string>();
  const json& kernels = member(document, "kernels", source, "");
  if (!kernels.is_array()) fail(source, "kernels", "expected an array");
  for (size_t i = 0; i < kernels.size(); ++i) {
    std::string path = fmt::format("kernels[{}]", i);
    const json& entry = kernels[i];
    if (!entry.is_object()) fail(source, path, "expected an object");
    MeasuredKernel kernel;
    const json& name = member(entry, "name", source, path);
    if (!name.is_string() || name.get<std::string>().empty()) fail(source, path + ".name", "expected a non-empty string");
    kernel.name = name.get<std::string>();
    path = fmt::format("{} \"{}\"", path, kernel.name);
    const double invocations = number_at(entry, "invocations", source, path, false);
    if (invocations != std::floor(invocations) || invocations > 1e9)
      fail(source, path + ".invocations", "expected a whole number >= 1");
    kernel.invocations = static_cast<int>(invocations);
    kernel.measured_ms = number_at(entry, "measured_ms", source, path, false);
    kernel.min_ms = number_at(entry, "min_ms", source, path, true);
    kernel.median_ms = number_at(entry, "median_ms", source, path, true);
    kernel.max_ms = number_at(entry, "max_ms", source, path, true);
    if (!(kernel.min_ms <= kernel.median_ms && kernel.median_ms <= kernel.max_ms))
      fail(source, path, "expected min_ms <= median_ms <= max_ms");
    times.kernels.push_back(std::move(kernel));
  }
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
