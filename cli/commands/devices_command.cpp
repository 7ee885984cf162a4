#include <algorithm>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "inputs.hpp"
#include "roofcast/output/markdown.hpp"
#include "roofcast/output/table.hpp"
#include "roofcast/data/bundled_data.hpp"
#include "roofcast/data/device_catalog.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/formats/json_text.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/model/bench_keys.hpp"

namespace roofcast {

namespace {

struct DevicesOptions {
  std::string format;
  bool all = false;
};

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
                                    bench_keys_cell(d.device), d.source};
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

}  // namespace

void add_devices_command(CLI::App& app) {
  auto options = std::make_shared<DevicesOptions>();
  CLI::App* command = app.add_subcommand(
      "devices", "List the devices --device takes by id, name or short name (H100, h200-mps25): the bundled ones and "
                 "the device profiles of the data folders ($ROOFCAST_DATA_DIR, share/roofcast beside bin/, the "
                 "source tree's data/); each device's latest profile is current");
  add_format_option(*command, options->format, {"table", "csv", "json", "markdown"});
  command->add_flag("--all", options->all, "Also list older profiles of the same devices (measured earlier)");
  command->callback([options] { run_devices(*options); });
}

}  // namespace roofcast
