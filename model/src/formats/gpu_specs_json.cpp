#include "roofcast/formats/gpu_specs_json.hpp"

#include <algorithm>
#include <array>
#include <set>

#include <fmt/format.h>

#include "roofcast/formats/json_field.hpp"
#include "roofcast/formats/profile_json.hpp"

namespace roofcast {

namespace {

using nlohmann::json;

constexpr int kSupportedVersion = 1;

// A number within [low, high] of `unit`.
double in_range(const Field& field, double low, double high, std::string_view unit) {
  const double value = field.number();
  if (value < low || value > high) field.fail(fmt::format("must be {} to {} {}, found {}", low, high, unit, value));
  return value;
}

double whole_in_range(const Field& field, double low, double high, std::string_view unit) {
  const double value = in_range(field, low, high, unit);
  if (value != static_cast<double>(static_cast<int64_t>(value))) field.fail(fmt::format("must be a whole number of {}", unit));
  return value;
}

// Every field in `required` names a source of the table in the entry's `sources`.
void check_sources(const Field& entry, const std::set<std::string>& known, std::initializer_list<const char*> required) {
  const Field sources = entry.member("sources");
  sources.object();
  for (const char* field : required) {
    const std::string id = sources.member(field).non_empty_string();
    if (!known.contains(id)) sources.member(field).fail(fmt::format("\"{}\" is not in the table's sources", id));
  }
}

// A map of named numbers, each in range; `required` must all be there, no others.
std::map<std::string, double> named_numbers(const Field& field, std::initializer_list<const char*> allowed, bool all_required,
                                            double low, double high, std::string_view unit) {
  std::map<std::string, double> values;
  for (const auto& item : field.object().items()) {
    if (std::find_if(allowed.begin(), allowed.end(), [&](const char* a) { return item.key() == a; }) == allowed.end())
      field.member(item.key()).fail(fmt::format("unknown; expected one of {}", fmt::join(allowed, ", ")));
    values[item.key()] = in_range(field.member(item.key()), low, high, unit);
  }
  if (all_required)
    for (const char* key : allowed) field.member(key);  // "missing" when absent
  return values;
}

ArchitectureSpec parse_architecture(const Field& entry, const std::set<std::string>& sources) {
  ArchitectureSpec a;
  a.arch = entry.member("arch").non_empty_string();
  a.family = entry.member("family").non_empty_string();
  a.vendor = entry.member("vendor").non_empty_string();
  if (a.vendor != "nvidia" && a.vendor != "amd") entry.member("vendor").fail("must be \"nvidia\" or \"amd\"");
  a.compute_capability = static_cast<int>(whole_in_range(entry.member("compute_capability"), 0, 200, "(major x 10 + minor)"));
  a.lanes_per_clock = named_numbers(entry.member("lanes_per_clock"), {"fp32_fma", "fp64_fma", "fp16", "int32_mad", "int32_add"},
                                    true, 1, 1024, "results per clock per SM");
  a.pipe_warp_instructions_per_clock =
      named_numbers(entry.member("pipe_warp_instructions_per_clock"),
                    {"fma", "alu", "fmaheavy", "fp64", "fp16", "xu", "lsu", "issue"}, true, 1.0 / 64, 16,
                    "warp instructions per clock per SM");
  a.shared_bytes_per_clock = in_range(entry.member("shared_bytes_per_clock"), 16, 1024, "bytes per clock per SM");
  a.l1_bytes_per_clock = in_range(entry.member("l1_bytes_per_clock"), 16, 1024, "bytes per clock per SM");
  a.tensor_full_rate_instruction = entry.member("tensor_full_rate_instruction").non_empty_string();
  constexpr std::array kInstructions = {"mma.sync", "wgmma", "tcgen05", "mfma"};
  if (std::find(kInstructions.begin(), kInstructions.end(), a.tensor_full_rate_instruction) == kInstructions.end())
    entry.member("tensor_full_rate_instruction").fail("must be mma.sync, wgmma, tcgen05 or mfma");
  const Field o = entry.member("occupancy");
  a.occupancy.max_threads_per_sm = whole_in_range(o.member("max_threads_per_sm"), 256, 4096, "threads");
  a.occupancy.max_blocks_per_sm = whole_in_range(o.member("max_blocks_per_sm"), 1, 64, "blocks");
  a.occupancy.registers_per_sm = whole_in_range(o.member("registers_per_sm"), 8192, 1 << 20, "32-bit registers");
  a.occupancy.register_allocation_unit = whole_in_range(o.member("register_allocation_unit"), 1, 1024, "registers per warp");
  a.occupancy.shared_bytes_per_sm = whole_in_range(o.member("shared_bytes_per_sm"), 16384, 1 << 21, "bytes");
  a.occupancy.reserved_shared_bytes_per_block = whole_in_range(o.member("reserved_shared_bytes_per_block"), 0, 65536, "bytes");
  a.occupancy.shared_allocation_unit = whole_in_range(o.member("shared_allocation_unit"), 1, 4096, "bytes");
  a.register_file_bytes_per_sm = whole_in_range(entry.member("register_file_bytes_per_sm"), 32768, 1 << 22, "bytes");
  a.l1_shared_bytes_per_sm = whole_in_range(entry.member("l1_shared_bytes_per_sm"), 16384, 1 << 22, "bytes");
  if (a.register_file_bytes_per_sm != 4 * a.occupancy.registers_per_sm)
    entry.member("register_file_bytes_per_sm").fail("must be 4 bytes x occupancy.registers_per_sm");
  check_sources(entry, sources,
                {"lanes_per_clock", "pipe_warp_instructions_per_clock", "shared_bytes_per_clock", "l1_bytes_per_clock",
                 "tensor_full_rate_instruction", "occupancy", "register_allocation_unit", "shared_allocation_unit",
                 "register_file_bytes_per_sm", "l1_shared_bytes_per_sm"});
  return a;
}

GpuSpec parse_gpu(const Field& entry, const std::set<std::string>& sources) {
  GpuSpec g;
  g.id = entry.member("id").non_empty_string();
  if (g.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos)
    entry.member("id").fail("must be lowercase letters, digits and dashes");
  g.name = entry.member("name").non_empty_string();
  const Field names = entry.member("device_names");
  for (size_t i = 0; i < names.array().size(); ++i) g.device_names.push_back(names.element(i).non_empty_string());
  if (g.device_names.empty()) names.fail("is empty, expected the name the driver reports");
  g.arch = entry.member("arch").non_empty_string();
  g.sm_count = static_cast<int>(whole_in_range(entry.member("sm_count"), 1, 1024, "SMs"));
  g.boost_clock_mhz = in_range(entry.member("boost_clock_mhz"), 300, 4000, "MHz");
  g.memory_gb = in_range(entry.member("memory_gb"), 1, 2048, "GB");
  g.memory_type = entry.member("memory_type").non_empty_string();
  g.memory_gbps = in_range(entry.member("memory_gbps"), 50, 50000, "GB/s");
  g.l2_bytes = whole_in_range(entry.member("l2_bytes"), 1 << 20, 1 << 30, "bytes");
  g.host_link = entry.member("host_link").non_empty_string();
  g.host_link_gbps = in_range(entry.member("host_link_gbps"), 1, 512, "GB/s");
  g.peer_link_gbps = in_range(entry.member("peer_link_gbps"), 0, 20000, "GB/s");
  g.vector_tflops = named_numbers(entry.member("vector_tflops"), {"fp32", "fp64"}, true, 0.01, 1000, "TFLOP/s");
  g.tensor_tflops = named_numbers(entry.member("tensor_tflops"), {"fp16", "bf16", "tf32", "fp64", "int8"}, false, 1, 100000,
                                  "TFLOP/s (TOP/s for int8), dense");
  check_sources(entry, sources,
                {"sm_count", "boost_clock_mhz", "memory_gb", "memory_gbps", "l2_bytes", "host_link_gbps", "peer_link_gbps",
                 "vector_tflops", "tensor_tflops"});
  return g;
}

}  // namespace

GpuSpecTable parse_gpu_spec_table(std::string_view json_text, const std::string& source) {
  const json document = parse_json_document(json_text, source);
  const Field root = check_header(document, source, "roofcast-gpu-specs", kSupportedVersion);
  std::set<std::string> sources;
  const Field source_list = root.member("sources");
  for (const auto& item : source_list.object().items()) {
    const Field s = source_list.member(item.key());
    s.member("title").non_empty_string();
    s.member("url").non_empty_string();
    sources.insert(item.key());
  }
  GpuSpecTable table;
  table.source = source;
  const Field archs = root.member("architectures");
  for (size_t i = 0; i < archs.array().size(); ++i) {
    const Field entry = archs.element(i);
    table.architectures.push_back(parse_architecture(entry, sources));
    if (std::count_if(table.architectures.begin(), table.architectures.end(),
                      [&](const auto& a) { return a.arch == table.architectures.back().arch; }) > 1)
      entry.member("arch").fail("is listed again");
  }
  const Field gpus = root.member("gpus");
  for (size_t i = 0; i < gpus.array().size(); ++i) {
    const Field entry = gpus.element(i);
    GpuSpec gpu = parse_gpu(entry, sources);
    if (!table.find_architecture(gpu.arch)) entry.member("arch").fail(fmt::format("\"{}\" is not in architectures", gpu.arch));
    if (table.find_gpu(gpu.id)) entry.member("id").fail(fmt::format("\"{}\" is listed again", gpu.id));
    table.gpus.push_back(std::move(gpu));
  }
  if (table.gpus.empty()) gpus.fail("is empty");
  return table;
}

MeasuredReference parse_measured_reference(std::string_view json_text, const std::string& source, std::string id) {
  MeasuredReference reference;
  reference.id = std::move(id);
  reference.profile = parse_device_profile(json_text, source);
  const json document = parse_json_document(json_text, source);
  const Field root(document, source, "");
  reference.device_name = reference.profile.name;
  if (root.has("device")) {
    const Field device = root.member("device");
    if (device.has("name")) reference.device_name = device.member("name").non_empty_string();
    if (device.has("sm_clock_mhz_attribute")) reference.max_sm_clock_mhz = device.member("sm_clock_mhz_attribute").non_negative();
    if (device.has("mps_active_thread_percentage")) {
      const Field share = device.member("mps_active_thread_percentage");
      // roofcast bench writes the environment variable as it found it: "" when unset.
      const std::string text = share.value().is_string() ? share.string() : fmt::format("{}", share.number());
      if (!text.empty()) {
        try {
          reference.mps_percentage = std::stod(text);
        } catch (const std::exception&) {
          share.fail("must be a percentage");
        }
        if (!(reference.mps_percentage > 0 && reference.mps_percentage <= 100)) share.fail("must be a percentage");
      }
    }
  }
  if (root.has("clocks") && root.member("clocks").has("nvml_max_sm_clock_mhz"))
    reference.max_sm_clock_mhz = root.member("clocks").member("nvml_max_sm_clock_mhz").non_negative();
  return reference;
}

nlohmann::json derived_device_json(const DerivedDevice& derived, const std::string& command) {
  json scaling = json::object();
  for (const auto& k : derived.keys) {
    json entry = {{"scaled_by", std::string(to_string(k.scaling))}, {"reference_value", k.reference_value}, {"ratio", k.ratio}};
    if (k.reference_key != k.key) entry["reference_key"] = k.reference_key;
    scaling[k.key] = entry;
  }
  const DeviceDerivation& d = *derived.profile.derivation;
  DeviceProfileDetails details;
  details.members = {
      {"device",
       {{"name", derived.gpu->name}, {"arch", derived.gpu->arch}, {"memory_gb", derived.gpu->memory_gb},
        {"memory_type", derived.gpu->memory_type}, {"host_link", derived.gpu->host_link}}},
      {"provenance",
       {{"command", command},
        {"derived",
         {{"spec", d.spec_id},
          {"fractions_from", d.fractions_from},
          {"fractions_from_device", derived.reference->device_name},
          {"relation", d.relation},
          {"mps_percentage", derived.mps_percentage},
          {"sm_clock_ratio", derived.sm_clock_ratio},
          {"notes", derived.notes},
          {"scaling", scaling},
          {"what", "not a measurement: the published specifications of this GPU with the achieved/peak of a measured "
                   "one (docs/derived-devices.md)"}}}}}};
  if (derived.mps_percentage < 100)
    details.members["device"]["mps_active_thread_percentage"] = fmt::format("{:g}", derived.mps_percentage);
  return to_json(derived.profile, details);
}

}  // namespace roofcast
