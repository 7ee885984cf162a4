#include "roofcast/formats/collector_records.hpp"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/input_limits.hpp"
#include "roofcast/formats/json_field.hpp"

namespace roofcast {

namespace {

using nlohmann::json;
namespace record = collector_record;

// Record lines are held to the ranges of the profile they become (input_limits.hpp).
constexpr double kMaxIndex = 9007199254740992.0;  // 2^53: launch indices exact in a double
constexpr double kMaxDevices = 1e6;

std::array<unsigned, 3> dims(const Field& field, const double (&max)[3]) {
  if (field.array().size() != 3) field.fail("expected [x, y, z]");
  std::array<unsigned, 3> result{};
  for (size_t i = 0; i < 3; ++i) result[i] = static_cast<unsigned>(field.element(i).whole(1, max[i]));
  return result;
}

unsigned optional_whole(const Field& line, const std::string& key, double max) {
  return line.has(key) ? static_cast<unsigned>(line.member(key).whole(0, max)) : 0u;
}

int device_index(const Field& line) {
  return line.has(record::kDeviceKey) ? static_cast<int>(line.member(record::kDeviceKey).whole(0, kMaxDevices)) : 0;
}

LaunchRecord parse_launch(const Field& line) {
  LaunchRecord launch;
  launch.index = static_cast<uint64_t>(line.member(record::kIndexKey).whole(0, kMaxIndex));
  launch.name = line.member(record::kNameKey).non_empty_string();
  launch.demangled =
      line.has(record::kDemangledKey) ? line.member(record::kDemangledKey).non_empty_string() : launch.name;
  launch.device = device_index(line);
  launch.grid = dims(line.member(record::kGridKey), input_limits::kMaxGrid);
  launch.block = dims(line.member(record::kBlockKey), input_limits::kMaxBlock);
  if (static_cast<double>(launch.block[0]) * launch.block[1] * launch.block[2] > input_limits::kMaxThreadsPerBlock)
    line.member(record::kBlockKey)
        .fail(fmt::format("more than {:g} threads per block", input_limits::kMaxThreadsPerBlock));
  launch.dynamic_shared_bytes =
      optional_whole(line, record::kDynamicSharedBytesKey, input_limits::kMaxSharedBytesPerBlock);
  if (line.has(record::kDurationNsKey)) launch.duration_ns = line.member(record::kDurationNsKey).non_negative();
  launch.registers = optional_whole(line, record::kRegistersKey, input_limits::kMaxRegistersPerThread);
  launch.static_shared_bytes =
      optional_whole(line, record::kStaticSharedBytesKey, input_limits::kMaxSharedBytesPerBlock);
  if (line.has(record::kMetricsKey)) {
    const Field metrics = line.member(record::kMetricsKey);
    for (const auto& item : metrics.object().items())
      if (item.value().is_number()) launch.metrics[item.key()] = metrics.member(item.key()).non_negative();
  }
  return launch;
}

CopyRecord parse_copy(const Field& line, const std::string& type) {
  CopyRecord copy;
  copy.kind = type == record::kMemset ? record::kMemset : line.member(record::kDirectionKey).non_empty_string();
  copy.pinned = line.has(record::kPinnedKey) && line.member(record::kPinnedKey).boolean();
  copy.bytes = line.member(record::kBytesKey).non_negative();
  copy.count = line.has(record::kCountKey) ? line.member(record::kCountKey).positive() : 1.0;
  copy.duration_ns = line.member(record::kDurationNsKey).non_negative();
  copy.device = device_index(line);
  return copy;
}

ProcessRecord parse_process(const Field& line) {
  ProcessRecord process;
  if (line.has(record::kStartNsKey))
    process.start_ns = static_cast<int64_t>(line.member(record::kStartNsKey).whole(0, 9.2e18));
  if (line.has(record::kPidKey)) process.pid = static_cast<int>(line.member(record::kPidKey).whole(0, 2147483647.0));
  if (line.has(record::kEnvKey)) {
    const Field env = line.member(record::kEnvKey);
    for (const auto& item : env.object().items()) process.env[item.key()] = env.member(item.key()).string();
  }
  return process;
}

DeviceRecord parse_device(const Field& line) {
  DeviceRecord device;
  device.index = static_cast<int>(line.member(record::kIndexKey).whole(0, kMaxDevices));
  if (line.has(record::kNameKey)) device.name = line.member(record::kNameKey).string();
  if (line.has(record::kChipKey)) device.chip = line.member(record::kChipKey).string();
  return device;
}

CollectorRecord parse_record(const Field& line) {
  const std::string type = line.member(record::kType).string();
  if (type == record::kProcess) return parse_process(line);
  if (type == record::kDevice) return parse_device(line);
  if (type == record::kConfig)
    return ConfigRecord{static_cast<size_t>(line.member(record::kPassesKey).whole(0, kMaxIndex))};
  if (type == record::kLaunch) return parse_launch(line);
  if (type == record::kCopy || type == record::kMemset) return parse_copy(line, type);
  if (type == record::kError) return ErrorRecord{line.member(record::kMessageKey).string()};
  if (type == record::kWarning) return WarningRecord{line.member(record::kMessageKey).string()};
  if (type == record::kEnd)
    return EndRecord{line.has(record::kAbortedKey) && line.member(record::kAbortedKey).boolean()};
  return OtherRecord{};
}

json parse_line(std::string_view line) { return json::parse(line, nullptr, false); }

[[noreturn]] void not_json(const std::string& where) {
  throw InputError(fmt::format("{}: bad collector record: not valid JSON", where));
}

// Adds one record to its process' file.
struct AddTo {
  CollectorFile& file;

  void operator()(OtherRecord) const {}
  void operator()(ProcessRecord&& process) const {
    if (process.start_ns) file.start_ns = *process.start_ns;
    if (process.pid) file.pid = *process.pid;
    for (auto& [name, value] : process.env) file.env[name] = std::move(value);
  }
  void operator()(DeviceRecord&& device) const { file.devices.push_back(std::move(device)); }
  void operator()(ConfigRecord config) const { file.passes = config.passes; }
  void operator()(LaunchRecord&& launch) const { file.launches.push_back(std::move(launch)); }
  void operator()(CopyRecord&& copy) const { file.copies.push_back(std::move(copy)); }
  void operator()(ErrorRecord&& error) const { file.errors.push_back(std::move(error.message)); }
  void operator()(WarningRecord&& warning) const { file.warnings.push_back(std::move(warning.message)); }
  void operator()(EndRecord end) const {
    file.ended = true;
    file.aborted = end.aborted;
  }
};

}  // namespace

CollectorFile parse_collector_file(std::string_view text, const std::string& file) {
  CollectorFile result;
  size_t start = 0;
  for (int number = 1; start < text.size(); ++number) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    const json parsed = parse_line(line);
    const std::string where = fmt::format("{}:{}", file, number);
    if (parsed.is_discarded()) {
      // A process killed mid-write leaves a cut last line; anything else is a real fault.
      if (start >= text.size()) break;
      not_json(where);
    }
    std::visit(AddTo{result}, parse_record(Field(parsed, where, "")));
  }
  std::sort(result.launches.begin(), result.launches.end(),
            [](const LaunchRecord& a, const LaunchRecord& b) { return a.index < b.index; });
  return result;
}

}  // namespace roofcast
