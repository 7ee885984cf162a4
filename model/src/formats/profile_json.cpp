#include "roofcast/formats/profile_json.hpp"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/input_limits.hpp"
#include "roofcast/formats/json_field.hpp"
#include "roofcast/formats/profile_json_fast_path.hpp"
#include "roofcast/model/counter_names.hpp"

namespace roofcast {

namespace {

using nlohmann::json;

constexpr int kSupportedVersion = 1;

// Throughput keys end in their unit: every key roofcast bench writes ("fp32_gflops",
// "dram_read_gbps", "kernel_floor_us", "latency_ffma_ns", "block_dispatch_gblocks", ...).
bool named_like_a_measurement(std::string_view key) {
  for (const char* unit : {"_gflops", "_giops", "_gops", "_gbps", "_gwips", "_gblocks", "_us", "_ns"})
    if (key.ends_with(unit)) return true;
  return false;
}

DeviceThroughput parse_throughput(const Field& throughput, std::map<std::string, double>& extra) {
  DeviceThroughput t;
  t.fp32_gflops = throughput.member("fp32_gflops").throughput();
  t.fp64_gflops = throughput.member("fp64_gflops").throughput();
  t.int32_mad_giops = throughput.member("int32_mad_giops").throughput();
  t.int32_add_giops = throughput.member("int32_add_giops").throughput();
  t.shared_ldst_gops = throughput.member("shared_ldst_gops").throughput();
  t.dram_gbps = throughput.member("dram_gbps").throughput();
  // The optional keys beside the six (latencies and overheads among them) are held to the same
  // range. A string is a note, not a throughput, and is left alone, unless its key is named
  // like a measured value (by its unit): a number belongs there. Any other type is an error.
  for (const auto& [key, value] : throughput.object().items()) {
    const Field field = throughput.member(key);
    if (value.is_number()) {
      if (!extra.contains(key)) extra[key] = field.throughput();
    } else if (!value.is_string() || named_like_a_measurement(key)) {
      const char* or_note = named_like_a_measurement(key) ? "" : " (or a string: a note)";
      field.fail(fmt::format("expected a number{}, found {}", or_note, value.type_name()));
    }
  }
  for (const char* required : {"fp32_gflops", "fp64_gflops", "int32_mad_giops", "int32_add_giops",
                               "shared_ldst_gops", "dram_gbps"})
    extra.erase(required);
  return t;
}

std::vector<RooflinePoint> parse_roofline_sweep(const Field& sweep) {
  std::vector<RooflinePoint> points;
  const json& array = sweep.array();
  for (size_t i = 0; i < array.size(); ++i) {
    const Field point = sweep.element(i);
    RooflinePoint p;
    p.precision = point.member("precision").string();
    p.iterations = point.member("iterations").non_negative();
    p.ops_per_byte = point.member("ops_per_byte").non_negative();
    p.time_ms = point.member("time_ms").positive();
    p.gops = point.member("gops").non_negative();
    p.gbps = point.member("gbps").non_negative();
    points.push_back(std::move(p));
  }
  return points;
}

KernelCounters parse_counters(const Field& counters) {
  KernelCounters result;
  std::map<std::string, double> thesis;  // nvprof name -> value
  std::map<std::string, std::string> spelled_as;
  for (const auto& [key, value] : counters.object().items()) {
    const Field field = counters.member(key);
    if (const auto canonical = canonical_thesis_counter(key)) {
      const std::string name(*canonical);
      const double count = field.non_negative();
      if (thesis.contains(name) && thesis[name] != count)
        field.fail(fmt::format("disagrees with {} given for the same counter", spelled_as[name]));
      thesis[name] = count;
      spelled_as[name] = key;
    } else if (value.is_number()) {
      result.extra[key] = field.non_negative();
    }
  }
  auto take = [&](std::string_view nvprof) {
    const auto it = thesis.find(std::string(nvprof));
    if (it == thesis.end()) {
      for (const auto& name : thesis_counter_names()) {
        if (name.nvprof == nvprof)
          counters.with_path(fmt::format("{}.{}", counters.path(), nvprof))
              .fail(fmt::format("missing (also accepted as {})", name.cupti));
      }
    }
    return it->second;
  };
  ThesisCounters& c = result.thesis;
  c.flop_count_sp_fma = take("flop_count_sp_fma");
  c.flop_count_dp_fma = take("flop_count_dp_fma");
  c.inst_compute_ld_st = take("inst_compute_ld_st");
  c.inst_executed = take("inst_executed");
  c.inst_fp_32 = take("inst_fp_32");
  c.inst_fp_64 = take("inst_fp_64");
  c.inst_integer = take("inst_integer");
  c.dram_read_transactions = take("dram_read_transactions");
  c.dram_write_transactions = take("dram_write_transactions");
  if (const auto problem = find_problem(c)) counters.fail(*problem);
  return result;
}

KernelParameters parse_parameters(const Field& parameters) {
  KernelParameters p;
  const Field type = parameters.member("K_type");
  const auto kernel_type = kernel_type_from_string(type.string());
  if (!kernel_type) type.fail(fmt::format("expected \"fp32\", \"fp64\" or \"int\", found \"{}\"", type.string()));
  p.type = *kernel_type;
  p.W_comp = parameters.member("W_comp").non_negative();
  p.W_traf = parameters.member("W_traf").non_negative();
  p.E_mix = parameters.member("E_mix").non_negative();
  p.D_ops = parameters.member("D_ops").non_negative();
  p.D_ldst = parameters.member("D_ldst").non_negative();
  if (const auto problem = find_problem(p)) parameters.fail(*problem);
  return p;
}

// [x, y, z], each a whole number from 1 to its CUDA limit in `max`.
std::array<double, 3> parse_dimensions(const Field& field, const double (&max)[3]) {
  const json& array = field.array();
  if (array.size() != 3) field.fail("expected [x, y, z]");
  std::array<double, 3> result{};
  for (size_t i = 0; i < 3; ++i) result[i] = static_cast<double>(field.element(i).whole(1, max[i]));
  return result;
}

LaunchShape parse_launch_shape(const Field& shape) {
  LaunchShape result;
  result.grid = parse_dimensions(shape.member("grid"), input_limits::kMaxGrid);
  result.block = parse_dimensions(shape.member("block"), input_limits::kMaxBlock);
  if (result.threads_per_block() > input_limits::kMaxThreadsPerBlock)
    shape.member("block").fail(fmt::format("{:.0f} threads per block, more than {:.0f}", result.threads_per_block(),
                                           input_limits::kMaxThreadsPerBlock));
  if (shape.has("invocations")) result.invocations = shape.member("invocations").whole(0, input_limits::kMaxCount);
  if (shape.has("registers"))
    result.registers_per_thread =
        static_cast<int>(shape.member("registers").whole(0, input_limits::kMaxRegistersPerThread));
  if (shape.has("static_shared_bytes"))
    result.static_shared_bytes =
        static_cast<double>(shape.member("static_shared_bytes").whole(0, input_limits::kMaxSharedBytesPerBlock));
  if (shape.has("dynamic_shared_bytes"))
    result.dynamic_shared_bytes =
        static_cast<double>(shape.member("dynamic_shared_bytes").whole(0, input_limits::kMaxSharedBytesPerBlock));
  return result;
}

TransferRecord parse_transfer(const Field& transfer) {
  transfer.object();
  TransferRecord record;
  const Field kind = transfer.member("kind");
  const auto parsed = transfer_kind_from_string(kind.string());
  if (!parsed) kind.fail(fmt::format("expected \"h2d\", \"d2h\" or \"d2d\", found \"{}\"", kind.string()));
  record.kind = *parsed;
  if (transfer.has("pinned")) record.pinned = transfer.member("pinned").boolean();
  record.count = transfer.member("count").positive();
  record.bytes = transfer.member("bytes").non_negative();
  if (transfer.has("measured_ms")) record.measured_ms = transfer.member("measured_ms").non_negative();
  return record;
}

// The occupancy limits' keys in the device profile's `device` object.
constexpr std::pair<const char*, double OccupancyLimits::*> kOccupancyFields[] = {
    {"max_threads_per_sm", &OccupancyLimits::max_threads_per_sm},
    {"max_blocks_per_sm", &OccupancyLimits::max_blocks_per_sm},
    {"registers_per_sm", &OccupancyLimits::registers_per_sm},
    {"register_allocation_unit", &OccupancyLimits::register_allocation_unit},
    {"shared_bytes_per_sm", &OccupancyLimits::shared_bytes_per_sm},
    {"reserved_shared_bytes_per_block", &OccupancyLimits::reserved_shared_bytes_per_block},
    {"shared_allocation_unit", &OccupancyLimits::shared_allocation_unit},
};

OccupancyLimits parse_occupancy_limits(const Field& device) {
  OccupancyLimits limits;
  for (const auto& [key, member] : kOccupancyFields)
    if (device.has(key))
      limits.*member = static_cast<double>(device.member(key).whole(0, input_limits::kMaxOccupancyLimit));
  return limits;
}

KernelRecord parse_kernel(const Field& kernel) {
  kernel.object();
  KernelRecord record;
  record.name = kernel.member("name").non_empty_string();
  const Field labelled = kernel.with_path(fmt::format("{} \"{}\"", kernel.path(), record.name));
  if (labelled.has("mangled_name")) record.mangled_name = labelled.member("mangled_name").string();
  if (labelled.has("invocations")) record.invocations = labelled.member("invocations").count();
  if (labelled.has("measured_ms")) record.measured_ms = labelled.member("measured_ms").positive();
  if (labelled.has("measured_ms_by_device")) {
    const Field by_device = labelled.member("measured_ms_by_device");
    for (const auto& item : by_device.object().items())
      record.measured_ms_by_device[item.key()] = by_device.member(item.key()).positive();
  }
  if (labelled.has("launch_shapes")) {
    const Field shapes = labelled.member("launch_shapes");
    for (size_t i = 0; i < shapes.array().size(); ++i) record.launch_shapes.push_back(parse_launch_shape(shapes.element(i)));
  }
  const bool has_counters = labelled.has("counters");
  const bool has_parameters = labelled.has("parameters");
  if (has_counters == has_parameters)
    labelled.fail("needs exactly one of \"counters\" or \"parameters\"");
  if (has_counters)
    record.description = parse_counters(labelled.member("counters"));
  else
    record.description = parse_parameters(labelled.member("parameters"));
  return record;
}

}  // namespace

DeviceProfile parse_device_profile(std::string_view json_text, const std::string& source) {
  const json document = parse_json_document(json_text, source);
  const Field root = check_header(document, source, "roofcast-device", kSupportedVersion);
  DeviceProfile device;
  device.name = root.member("name").non_empty_string();
  device.source = source;
  device.throughput = parse_throughput(root.member("throughput"), device.extra_throughput);
  if (root.has("roofline_sweep")) device.roofline_sweep = parse_roofline_sweep(root.member("roofline_sweep"));
  if (root.has("transfers")) {
    const Field transfers = root.member("transfers");
    for (const auto& item : transfers.object().items()) {
      const Field fit = transfers.member(item.key());
      device.transfers[item.key()] = {fit.member("bandwidth_gbps").throughput(), fit.member("latency_us").non_negative()};
    }
  }
  // `device` and `clocks` are objects where present (`"device": [1]` is an error, not a device
  // without its SM count); their keys roofcast reads are numbers.
  if (root.has("device")) {
    const Field hardware = root.member("device");
    hardware.object();
    if (hardware.has("sm_count"))
      device.sm_count = static_cast<int>(hardware.member("sm_count").whole(0, input_limits::kMaxSmCount));
    device.occupancy = parse_occupancy_limits(hardware);
    if (hardware.has("l2_bytes")) device.l2_bytes = hardware.member("l2_bytes").non_negative();
  }
  if (root.has("clocks")) {
    const Field clocks = root.member("clocks");
    clocks.object();
    if (clocks.has("sm_clock_mhz_in_kernel"))
      device.sm_clock_mhz = clocks.member("sm_clock_mhz_in_kernel").non_negative();
  }
  if (root.has("provenance") && root.member("provenance").has("derived")) {
    const Field derived = root.member("provenance").member("derived");
    derived.object();
    device.derivation = DeviceDerivation{derived.member("spec").non_empty_string(),
                                         derived.member("fractions_from").non_empty_string(),
                                         derived.has("relation") ? derived.member("relation").string() : ""};
  }
  return device;
}

namespace {

// The checked reader: every problem named as parse_kernel_profile promises. With `read_kernels`,
// the text's `kernels` array is empty ("[]") and these, already read, are the profile's kernels.
KernelProfile read_checked_profile(std::string_view json_text, const std::string& source,
                                   std::vector<KernelRecord>* read_kernels) {
  // Each kernel is read as soon as the parser has it and then dropped from the document: a
  // profile of 100,000 kernels never holds its whole JSON tree (hundreds of MB). A bad kernel
  // is reported after the file's syntax and header are checked, as if read from the tree.
  std::vector<KernelRecord> kernels;
  KernelNames names;  // no kernel listed twice, as parse_kernel_list checks
  std::optional<InputError> kernel_error;
  bool in_kernels = false;
  std::string top_level_key;
  auto read_kernel = [&](int depth, json::parse_event_t event, json& parsed) {
    if (depth == 1 && event == json::parse_event_t::key) {
      top_level_key = parsed.get<std::string>();
      // Members the reader never reads (a tool's own, however large) are skipped, not built.
      return top_level_key == "format" || top_level_key == "version" || top_level_key == "reference_device" ||
             top_level_key == "kernels" || top_level_key == "transfers";
    }
    if (depth == 1 && event == json::parse_event_t::array_start) {
      in_kernels = top_level_key == "kernels";
      if (in_kernels) {  // a repeated key: the last one counts, as in a JSON tree
        kernels.clear();
        names = KernelNames();
        kernel_error.reset();
      }
    }
    if (depth == 1 && event == json::parse_event_t::array_end) in_kernels = false;
    const bool kernel_read = event == json::parse_event_t::object_end || event == json::parse_event_t::array_end ||
                             event == json::parse_event_t::value;
    if (!in_kernels || depth != 2 || !kernel_read) return true;
    if (!kernel_error) {
      try {
        const Field entry(parsed, source, fmt::format("kernels[{}]", kernels.size()));
        kernels.push_back(parse_kernel(entry));
        names.add(kernels.back().name, kernels.size() - 1, entry);
      } catch (const InputError& error) {
        kernel_error = error;
      }
    }
    return false;
  };
  const json document = parse_json_document(json_text, source, read_kernel);
  const Field root = check_header(document, source, "roofcast-profile", kSupportedVersion);
  KernelProfile profile;
  if (root.has("reference_device")) profile.reference_device = root.member("reference_device").string();
  const Field kernels_field = root.member("kernels");
  kernels_field.array();
  if (kernel_error) throw *kernel_error;
  if (read_kernels) kernels = std::move(*read_kernels);
  if (kernels.empty()) kernels_field.fail("is empty, expected at least one kernel");
  profile.kernels = std::move(kernels);
  if (root.has("transfers")) {
    const Field transfers = root.member("transfers");
    for (size_t i = 0; i < transfers.array().size(); ++i)
      profile.transfers.push_back(parse_transfer(transfers.element(i)));
  }
  return profile;
}

// Refuses a string longer than input_limits::kMaxProfileStringBytes, naming where it starts.
// Strings are found as the parser finds them (a quote opens one, a backslash escapes the next
// byte), each end looked for no further than the limit; text that is not JSON is the parser's.
void check_string_lengths(std::string_view text, const std::string& source) {
  constexpr size_t kMax = input_limits::kMaxProfileStringBytes;
  for (size_t quote = text.find('"'); quote != std::string_view::npos;) {
    const size_t start = quote + 1;
    const std::string_view within = text.substr(0, std::min(text.size(), start + kMax + 1));
    // The next quote not escaped: after an even number of backslashes (memchr finds the quotes).
    auto escaped = [&](size_t at) {
      size_t backslashes = 0;
      while (at - backslashes > start && within[at - backslashes - 1] == '\\') ++backslashes;
      return backslashes % 2 == 1;
    };
    size_t end = within.find('"', start);
    while (end != std::string_view::npos && escaped(end)) end = within.find('"', end + 1);
    if (end == std::string_view::npos && within.size() < text.size())
      throw InputError(fmt::format("{}: the string at byte {} is longer than {} MiB, the most a profile's string (a "
                                   "kernel name, a note) can be; not read",
                                   source, quote, kMax >> 20));
    if (end == std::string_view::npos) return;  // not closed: the parser says so
    quote = text.find('"', end + 1);
  }
}

}  // namespace

KernelProfile parse_kernel_profile(std::string_view json_text, const std::string& source) {
  // The fast path for a well-formed profile (100,000 kernels in well under a second): its kernels
  // found by a scan of the brackets, each read by a SAX parser, on every core; the rest of the
  // document, with an empty kernels array in their place, by the checked reader. Anything it
  // refuses (a string longer than a profile's may be among them: the scan stops at it), and any
  // error, is read again by the checked reader alone, so that every message (and its byte
  // offset) is the one the whole text gives.
  if (auto array = read_kernel_array(json_text)) {
    std::string outside;
    outside.reserve(json_text.size() - (array->end - array->begin) + 2);
    outside.append(json_text.substr(0, array->begin)).append("[]").append(json_text.substr(array->end));
    try {
      return read_checked_profile(outside, source, &array->kernels);
    } catch (const InputError&) {  // reported below, as found in the whole text
    }
  }
  return parse_kernel_profile_checked(json_text, source);
}

KernelProfile parse_kernel_profile_checked(std::string_view json_text, const std::string& source) {
  check_string_lengths(json_text, source);
  return read_checked_profile(json_text, source, nullptr);
}

json to_json(const DeviceProfile& device) {
  json throughput = {
      {"fp32_gflops", device.throughput.fp32_gflops},
      {"fp64_gflops", device.throughput.fp64_gflops},
      {"int32_mad_giops", device.throughput.int32_mad_giops},
      {"int32_add_giops", device.throughput.int32_add_giops},
      {"shared_ldst_gops", device.throughput.shared_ldst_gops},
      {"dram_gbps", device.throughput.dram_gbps},
  };
  for (const auto& [key, value] : device.extra_throughput) throughput[key] = value;
  json result = {{"format", "roofcast-device"}, {"version", kSupportedVersion}, {"name", device.name},
                 {"throughput", throughput}};
  if (!device.roofline_sweep.empty()) {
    json sweep = json::array();
    for (const auto& p : device.roofline_sweep)
      sweep.push_back({{"precision", p.precision}, {"iterations", p.iterations}, {"ops_per_byte", p.ops_per_byte},
                       {"time_ms", p.time_ms}, {"gops", p.gops}, {"gbps", p.gbps}});
    result["roofline_sweep"] = sweep;
  }
  if (device.sm_count > 0) result["device"] = {{"sm_count", device.sm_count}};
  for (const auto& [key, member] : kOccupancyFields)
    if (device.occupancy.*member > 0) result["device"][key] = device.occupancy.*member;
  if (device.l2_bytes > 0) result["device"]["l2_bytes"] = device.l2_bytes;
  if (device.sm_clock_mhz > 0) result["clocks"] = {{"sm_clock_mhz_in_kernel", device.sm_clock_mhz}};
  for (const auto& [key, fit] : device.transfers)
    result["transfers"][key] = {{"bandwidth_gbps", fit.bandwidth_gbps}, {"latency_us", fit.latency_us}};
  if (device.derivation)
    result["provenance"]["derived"] = {{"spec", device.derivation->spec_id},
                                       {"fractions_from", device.derivation->fractions_from},
                                       {"relation", device.derivation->relation}};
  return result;
}

namespace {

// `extra` with `format`'s members over it: the format's own values win.
json merged(json extra, const json& format) {
  if (!extra.is_object() || !format.is_object()) return format;
  for (const auto& [key, value] : format.items()) extra[key] = extra.contains(key) ? merged(extra[key], value) : value;
  return extra;
}

}  // namespace

json to_json(const DeviceProfile& device, const DeviceProfileDetails& details) {
  json result = to_json(device);
  if (result.contains("roofline_sweep"))
    for (size_t i = 0; i < details.roofline_sweep.size() && i < result["roofline_sweep"].size(); ++i)
      result["roofline_sweep"][i] = merged(details.roofline_sweep[i], result["roofline_sweep"][i]);
  for (const auto& [key, extra] : details.transfers)
    if (result.contains("transfers") && result["transfers"].contains(key))
      result["transfers"][key] = merged(extra, result["transfers"][key]);
  return merged(details.members, result);
}

json to_json(const KernelProfile& profile) {
  json kernels = json::array();
  for (const auto& kernel : profile.kernels) {
    json entry = {{"name", kernel.name}, {"invocations", kernel.invocations}};
    if (!kernel.mangled_name.empty()) entry["mangled_name"] = kernel.mangled_name;
    if (kernel.measured_ms) entry["measured_ms"] = *kernel.measured_ms;
    if (!kernel.measured_ms_by_device.empty()) entry["measured_ms_by_device"] = kernel.measured_ms_by_device;
    for (const auto& shape : kernel.launch_shapes)
    {
      json written = {{"grid", shape.grid}, {"block", shape.block}, {"invocations", shape.invocations}};
      if (shape.registers_per_thread > 0) written["registers"] = shape.registers_per_thread;
      if (shape.registers_per_thread > 0 || shape.shared_bytes_per_block() > 0) {
        written["static_shared_bytes"] = shape.static_shared_bytes;
        written["dynamic_shared_bytes"] = shape.dynamic_shared_bytes;
      }
      entry["launch_shapes"].push_back(written);
    }
    if (const auto* counters = std::get_if<KernelCounters>(&kernel.description)) {
      const ThesisCounters& c = counters->thesis;
      json values = {{"flop_count_sp_fma", c.flop_count_sp_fma},   {"flop_count_dp_fma", c.flop_count_dp_fma},
                     {"inst_compute_ld_st", c.inst_compute_ld_st}, {"inst_executed", c.inst_executed},
                     {"inst_fp_32", c.inst_fp_32},                 {"inst_fp_64", c.inst_fp_64},
                     {"inst_integer", c.inst_integer},             {"dram_read_transactions", c.dram_read_transactions},
                     {"dram_write_transactions", c.dram_write_transactions}};
      for (const auto& [key, value] : counters->extra) values[key] = value;
      entry["counters"] = values;
    } else {
      const auto& p = std::get<KernelParameters>(kernel.description);
      entry["parameters"] = {{"K_type", std::string(to_string(p.type))}, {"W_comp", p.W_comp}, {"W_traf", p.W_traf},
                             {"E_mix", p.E_mix}, {"D_ops", p.D_ops}, {"D_ldst", p.D_ldst}};
    }
    kernels.push_back(entry);
  }
  json result = {{"format", "roofcast-profile"}, {"version", kSupportedVersion}, {"kernels", kernels}};
  for (const auto& t : profile.transfers) {
    json entry = {{"kind", to_string(t.kind)}, {"pinned", t.pinned}, {"count", t.count}, {"bytes", t.bytes}};
    if (t.measured_ms) entry["measured_ms"] = *t.measured_ms;
    result["transfers"].push_back(entry);
  }
  if (!profile.reference_device.empty()) result["reference_device"] = profile.reference_device;
  return result;
}

}  // namespace roofcast
