#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "output/table.hpp"
#include "roofcast/data/bundled_data.hpp"
#include "roofcast/formats/json_text.hpp"
#include "roofcast/formats/profile_json.hpp"

namespace roofcast {

namespace {

void run_devices(const std::string& format) {
  const std::vector<DeviceProfile> devices = bundled_devices();
  if (format == "json") {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& device : devices) list.push_back(to_json(device));
    std::cout << json_text(list);
    return;
  }
  Table table;
  table.columns = {{"device", false}, {"T_SP GFLOP/s"}, {"T_DP GFLOP/s"}, {"T_int GIOP/s"},
                   {"T_add GIOP/s"},  {"T_ldst G/s"},   {"B_mem GB/s"}};
  for (const auto& d : devices) {
    const auto& t = d.throughput;
    table.add_row({d.name, fmt::format("{:.2f}", t.fp32_gflops), fmt::format("{:.2f}", t.fp64_gflops),
                   fmt::format("{:.2f}", t.int32_mad_giops), fmt::format("{:.2f}", t.int32_add_giops),
                   fmt::format("{:.2f}", t.shared_ldst_gops), fmt::format("{:.2f}", t.dram_gbps)});
  }
  std::cout << (format == "csv" ? render_csv(table) : render_text(table));
  if (format == "table")
    std::cout << fmt::format("\nBundled kernel profiles: {}\n", fmt::join(bundled_profile_ids(), ", "));
}

}  // namespace

void add_devices_command(CLI::App& app) {
  auto format = std::make_shared<std::string>("table");
  CLI::App* command = app.add_subcommand("devices", "List the bundled device profiles");
  command->add_option("--format", *format, "Output format")->check(CLI::IsMember({"table", "json", "csv"}));
  command->callback([format] { run_devices(*format); });
}

}  // namespace roofcast
