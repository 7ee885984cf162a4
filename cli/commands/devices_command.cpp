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
#include "roofcast/data/device_files.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/formats/json_text.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/model/bench_keys.hpp"

namespace roofcast {

namespace {

// A device that --device accepts by name, and where it comes from.
struct NamedDevice {
  std::string id;      // what --device takes
  std::string source;  // "bundled", or the file
  DeviceProfile device;
};

// A device file as the table shows it: relative to the current folder when it lies below it
// (so the table's widths do not depend on where the data folder is), else its whole path.
std::string shown_path(const std::filesystem::path& file) {
  std::error_code error;
  const std::filesystem::path relative = std::filesystem::proximate(file, error);
  if (!error && !relative.empty() && *relative.begin() != "..") return relative.string();
  return file.string();
}

std::vector<NamedDevice> named_devices() {
  std::vector<NamedDevice> devices;
  for (auto& device : bundled_devices()) {
    std::string id = device.name;
    devices.push_back({std::move(id), "bundled", std::move(device)});
  }
  for (const auto& file : device_files()) {
    try {
      devices.push_back({file.id, shown_path(file.path), read_device_profile_file(file.path)});
    } catch (const InputError& error) {
      std::cerr << "roofcast: warning: " << printable(error.what()) << "\n";
    }
  }
  return devices;
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

void run_devices(const std::string& format) {
  const std::vector<NamedDevice> devices = named_devices();
  if (format == "json") {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& d : devices) {
      nlohmann::json entry = to_json(d.device);
      entry["id"] = d.id;
      entry["source"] = printable(d.source);
      entry["missing_bench_keys"] = missing_bench_keys(d.device);
      list.push_back(std::move(entry));
    }
    std::cout << json_text(list);
    return;
  }
  Table table;
  table.columns = {{"device", false}, {"name", false}, {"T_SP GFLOP/s"}, {"T_DP GFLOP/s"}, {"T_int GIOP/s"},
                   {"T_add GIOP/s"},  {"T_ldst G/s"},   {"B_mem GB/s"},  {"bench keys", false}, {"source", false}};
  for (const auto& d : devices) {
    const auto& t = d.device.throughput;
    table.add_row({d.id, d.device.name, fmt::format("{:.2f}", t.fp32_gflops), fmt::format("{:.2f}", t.fp64_gflops),
                   fmt::format("{:.2f}", t.int32_mad_giops), fmt::format("{:.2f}", t.int32_add_giops),
                   fmt::format("{:.2f}", t.shared_ldst_gops), fmt::format("{:.2f}", t.dram_gbps),
                   bench_keys_cell(d.device), d.source});
  }
  std::cout << (format == "csv" ? render_csv(table) : format == "markdown" ? render_markdown(table) : render_text(table));
  if (format == "table") {
    std::cout << "\nbench keys: of those the pipes model reads (all, lacks N: `roofcast bench --complete FILE` on that "
                 "GPU measures them; none: the thesis' six throughputs only)\n";
    std::cout << fmt::format("Bundled kernel profiles: {}\n", fmt::join(bundled_profile_ids(), ", "));
  }
}

}  // namespace

void add_devices_command(CLI::App& app) {
  auto format = std::make_shared<std::string>();
  CLI::App* command = app.add_subcommand(
      "devices", "List the devices --device takes by name: the bundled ones and the device profiles of the data folders "
                 "($ROOFCAST_DATA_DIR, share/roofcast beside bin/, the source tree's data/)");
  add_format_option(*command, *format, {"table", "csv", "json", "markdown"});
  command->callback([format] { run_devices(*format); });
}

}  // namespace roofcast
