#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "inputs.hpp"
#include "roofcast/output/markdown.hpp"
#include "roofcast/output/table.hpp"
#include "roofcast/data/bundled_data.hpp"
#include "roofcast/data/device_catalog.hpp"
#include "roofcast/data/spec_devices.hpp"
#include "roofcast/formats/command_line.hpp"
#include "roofcast/formats/gpu_specs_json.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/formats/json_text.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/model/bench_keys.hpp"

namespace roofcast {

namespace {

struct DevicesOptions {
  std::string format;
  std::string from_spec;       // a GPU of the spec table: its derived profile
  std::string fractions_from;  // the measured profile whose achieved/peak it takes
  double mps = 0;              // an MPS share of the derived GPU
  std::string output;          // the derived profile's JSON file
  bool specs = false;          // list the spec table's GPUs
  bool all = false;            // also the older profiles of the same devices
};

// A device file as the table shows it: relative to the current folder when it lies below it
// (so the table's widths do not depend on where the data folder is), else its whole path.
std::string shown_path(const std::filesystem::path& file) {
  std::error_code error;
  const std::filesystem::path relative = std::filesystem::proximate(file, error);
  if (!error && !relative.empty() && *relative.begin() != "..") return relative.string();
  return file.string();
}

// "2026-11-24" of "2026-11-24T18:39:26Z"; "published" for figures that were not measured here.
std::string measured_text(const CatalogDevice& entry) {
  return entry.measured_utc.empty() ? "published" : entry.measured_utc.substr(0, 10);
}

// Whether the pipes model has every bench key it reads on this device: "all", "lacks N"
// (`roofcast bench --complete` measures them), or "none" (the thesis' six throughputs only).
std::string bench_keys_cell(const DeviceProfile& device) {
  const size_t missing = missing_bench_keys(device).size();
  if (missing == 0) return "all";
  const auto keys = pipes_bench_keys();
  const bool any = std::any_of(keys.begin(), keys.end(),
                               [&](const BenchKey& k) { return device.extra_throughput.contains(std::string(k.key)); });
  return any ? fmt::format("lacks {}", missing) : "none";
}

void run_devices(const DevicesOptions& options) {
  std::vector<CatalogDevice> devices =
      device_catalog([](const std::string& problem) { std::cerr << "roofcast: warning: " << printable(problem) << "\n"; });
  if (!options.all) std::erase_if(devices, [](const CatalogDevice& d) { return !d.current; });
  if (options.format == "json") {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& d : devices) {
      nlohmann::json entry = to_json(d.device);
      entry["id"] = d.device.id;
      entry["source"] = printable(d.source);
      entry["missing_bench_keys"] = missing_bench_keys(d.device);
      entry["current"] = d.current;
      entry["measured_utc"] = d.measured_utc;
      list.push_back(std::move(entry));
    }
    std::cout << json_text(list);
    return;
  }
  Table table;
  table.columns = {{"id", false},         {"name", false},       {"measured", false}, {"T_SP GFLOP/s"},
                   {"T_DP GFLOP/s"},      {"T_int GIOP/s"},      {"T_add GIOP/s"},    {"T_ldst G/s"},
                   {"B_mem GB/s"},        {"bench keys", false}, {"source", false}};
  if (options.all) table.columns.insert(table.columns.begin() + 3, {"current", false});
  for (const auto& d : devices) {
    const auto& t = d.device.throughput;
    std::vector<std::string> row = {d.device.id, d.device.name, measured_text(d),
                                    fmt::format("{:.2f}", t.fp32_gflops), fmt::format("{:.2f}", t.fp64_gflops),
                                    fmt::format("{:.2f}", t.int32_mad_giops), fmt::format("{:.2f}", t.int32_add_giops),
                                    fmt::format("{:.2f}", t.shared_ldst_gops), fmt::format("{:.2f}", t.dram_gbps),
                                    bench_keys_cell(d.device), d.source == "bundled" ? d.source : shown_path(d.source)};
    if (options.all) row.insert(row.begin() + 3, d.current ? "yes" : "older");
    table.add_row(row);
  }
  std::cout << (options.format == "csv"        ? render_csv(table)
                : options.format == "markdown" ? render_markdown(table)
                                               : render_text(table));
  if (options.format == "table") {
    std::cout << "\nbench keys: of those the pipes model reads (all, lacks N: `roofcast bench --complete FILE` on that "
                 "GPU measures them; none: the thesis' six throughputs only)\n";
    std::cout << fmt::format("Commands use every device listed when none is named (rank: those measured by roofcast "
                             "bench).{}\nBundled kernel profiles: {}\n",
                             options.all ? " older: a later profile of the same device is current."
                                         : " --all also lists older profiles of the same devices.",
                             fmt::join(bundled_profile_ids(), ", "));
  }
}

std::string number_text(double value) {
  return value >= 1000 ? fmt::format("{:.0f}", value) : fmt::format("{:.4g}", value);
}

std::string render(const Table& table, const std::string& format) {
  return format == "csv" ? render_csv(table) : format == "markdown" ? render_markdown(table) : render_text(table);
}

// `roofcast devices --from-spec NAME`: the derived profile, key by key, or its JSON.
void run_from_spec(const DevicesOptions& options) {
  // ID or spec:ID, each with an optional -mpsNN, as --device takes them.
  auto named = spec_device_request(options.from_spec, "--from-spec");
  if (!named) named = spec_device_request("spec:" + options.from_spec, "--from-spec");
  DerivationRequest request = *named;
  if (options.mps > 0) {
    if (request.mps_percentage < 100 && request.mps_percentage != options.mps)
      throw InputError(fmt::format("--from-spec {} names an MPS {:g} % partition and --mps says {:g} %: give one",
                                   printable(options.from_spec), request.mps_percentage, options.mps));
    request.mps_percentage = options.mps;
  }
  request.fractions_from = options.fractions_from;
  const SpecInputs inputs = load_spec_inputs();
  const DerivedDevice derived = derive_device(inputs.table, inputs.references, request);
  std::vector<std::string> words = {"roofcast", "devices", "--from-spec", request.spec_id};
  if (request.mps_percentage < 100) words.insert(words.end(), {"--mps", fmt::format("{:g}", request.mps_percentage)});
  if (!request.fractions_from.empty()) words.insert(words.end(), {"--fractions-from", request.fractions_from});
  const std::string document = json_text(derived_device_json(derived, shell_command(words)));
  if (!options.output.empty()) {
    write_file_atomically(options.output, document);
    std::cerr << printable(fmt::format("roofcast: wrote {} ({}; --device {} takes it too)", options.output,
                                       derived.profile.name, spec_device_name(derived.gpu->id, derived.mps_percentage)))
              << "\n";
    if (options.format == "table") return;
  }
  if (options.format == "json") {
    std::cout << document;
    return;
  }
  const GpuSpec& gpu = *derived.gpu;
  Table table;
  table.columns = {{"key", false}, {"value"}, {"scaled by", false}, {"from", false}, {"reference"}, {"ratio"}};
  for (const auto& k : derived.keys)
    table.add_row({k.key, number_text(k.value), std::string(to_string(k.scaling)), k.reference_key,
                   number_text(k.reference_value), fmt::format("{:.3f}", k.ratio)});
  if (options.format != "table") {
    std::cout << render(table, options.format);
    return;
  }
  const DeviceProfile& p = derived.profile;
  std::cout << fmt::format("{} (--device {}): derived, not measured\n", printable(p.name),
                           spec_device_name(gpu.id, derived.mps_percentage));
  std::cout << fmt::format("GPU: {}, {}, {} SMs{} at {:g} MHz boost, {:g} GB {} at {:g} GB/s, L2 {:.0f} MiB, {}\n",
                           printable(gpu.name), gpu.arch, gpu.sm_count,
                           derived.mps_percentage < 100 ? fmt::format(" ({} under MPS {:g} %)", p.sm_count, derived.mps_percentage) : "",
                           gpu.boost_clock_mhz, gpu.memory_gb, gpu.memory_type, gpu.memory_gbps, gpu.l2_bytes / (1 << 20),
                           gpu.host_link);
  std::cout << fmt::format("achieved/peak of: {} ({}), {}; its benches ran at {:.3f} of its maximum SM clock: {:.0f} MHz here\n\n",
                           derived.reference->id, printable(derived.reference->device_name), p.derivation->relation,
                           derived.sm_clock_ratio, p.sm_clock_mhz);
  std::cout << render_text(table);
  for (const auto& note : derived.notes) std::cout << "note: " << printable(note) << "\n";
  std::cout << "\nvalue = reference x ratio, the ratio of the two GPUs' published capacities for what limits the key "
               "(docs/derived-devices.md); --output FILE writes the profile\n";
}

// `roofcast devices --specs`: the GPUs of the spec table, each with the reference it would take.
void run_specs(const std::string& format) {
  const SpecInputs inputs = load_spec_inputs();
  Table table;
  table.columns = {{"device", false}, {"name", false},     {"arch", false}, {"SMs"},          {"boost MHz"},
                   {"memory GB"},     {"memory GB/s"},     {"FP32 TFLOP/s"}, {"FP16 tensor TFLOP/s"}, {"achieved/peak of", false}};
  for (const auto& gpu : inputs.table.gpus) {
    const DerivedDevice derived = derive_device(inputs.table, inputs.references, {gpu.id, 100, ""});
    const auto fp16 = gpu.tensor_tflops.find("fp16");
    table.add_row({spec_device_name(gpu.id, 100), gpu.name, gpu.arch, fmt::format("{}", gpu.sm_count),
                   fmt::format("{:g}", gpu.boost_clock_mhz), fmt::format("{:g}", gpu.memory_gb),
                   fmt::format("{:g}", gpu.memory_gbps), fmt::format("{:g}", gpu.vector_tflops.at("fp32")),
                   fp16 == gpu.tensor_tflops.end() ? "-" : fmt::format("{:g}", fp16->second),
                   fmt::format("{} ({})", derived.reference->id, derived.profile.derivation->relation)});
  }
  std::cout << render(table, format);
  if (format == "table")
    std::cout << fmt::format("\nFrom {}: `roofcast devices --from-spec ID` shows a derived profile key by key; "
                             "--device spec:ID (spec:ID-mpsNN for an MPS partition) predicts with it\n",
                             printable(inputs.table.source));
}

}  // namespace

void add_devices_command(CLI::App& app) {
  auto options = std::make_shared<DevicesOptions>();
  CLI::App* command = app.add_subcommand(
      "devices", "List the devices --device takes by id, name or short name (H100, h200-mps25): the bundled ones and "
                 "the device profiles of the data folders ($ROOFCAST_DATA_DIR, share/roofcast beside bin/, the "
                 "source tree's data/); each device's latest profile is current; derive one from a spec sheet");
  add_format_option(*command, options->format, {"table", "csv", "json", "markdown"});
  command->add_flag("--all", options->all, "Also list older profiles of the same devices (measured earlier)");
  command->add_flag("--specs", options->specs, "List the GPUs of the spec table (data/specs/gpus.json) that --from-spec takes");
  auto* from_spec = command->add_option(
      "--from-spec", options->from_spec,
      "Derive the device profile of a GPU of the spec table (ID or spec:ID[-mpsNN]) from its published specifications and "
      "the achieved/peak of a measured GPU; not a measurement");
  command->add_option("--fractions-from", options->fractions_from,
                      "With --from-spec: the measured device profile (id) whose achieved/peak to take (default: the same "
                      "GPU, else the same architecture, else the nearest)")
      ->needs(from_spec);
  command->add_option("--mps", options->mps, "With --from-spec: an MPS partition of this share, percent")
      ->needs(from_spec)
      ->check(CLI::Range(0.01, 100.0));
  command->add_option("--output", options->output, "With --from-spec: write the derived profile (JSON) to this file")
      ->needs(from_spec);
  command->callback([options] {
    if (!options->from_spec.empty()) run_from_spec(*options);
    else if (options->specs) run_specs(options->format);
    else run_devices(*options);
  });
}

}  // namespace roofcast
