#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands/commands.hpp"
#include "inputs.hpp"
#include "output/table.hpp"
#include "roofcast/model/device_ranking.hpp"

namespace roofcast {

namespace {

struct RankOptions {
  std::string profile;
  std::vector<std::string> devices;
  bool all_devices = false;
  size_t top = 3;
  std::string format = "table";
};

nlohmann::json rank_json(const std::vector<DeviceRank>& ranks, const std::string& profile) {
  nlohmann::json devices = nlohmann::json::array();
  for (size_t i = 0; i < ranks.size(); ++i) {
    nlohmann::json top = nlohmann::json::array();
    for (const auto& k : ranks[i].top_kernels)
      top.push_back({{"kernel", k.kernel}, {"predicted_ms", k.predicted_ms}, {"share", k.share},
                     {"bound", to_string(k.bound)}});
    devices.push_back({{"rank", i + 1},
                       {"device", ranks[i].device},
                       {"kernels_ms", ranks[i].kernels_ms},
                       {"speedup_vs_slowest", ranks[i].speedup_vs_slowest},
                       {"top_kernels", top}});
  }
  return {{"format", "roofcast-ranking"}, {"version", 1}, {"model", "thesis"}, {"profile", profile},
          {"devices", devices}};
}

void run_rank(const RankOptions& options) {
  const KernelProfile profile = load_profile(options.profile);
  const auto ranks =
      rank_devices(predict_profile(profile, load_devices(options.devices, options.all_devices)), options.top);
  if (options.format == "json") {
    std::cout << rank_json(ranks, options.profile).dump(2) << "\n";
    return;
  }
  Table table;
  table.columns = {{"rank"}, {"device", false}, {"kernels ms"}, {"speedup vs slowest"}, {"top kernels (share, bound)", false}};
  for (size_t i = 0; i < ranks.size(); ++i) {
    std::vector<std::string> top;
    for (const auto& k : ranks[i].top_kernels)
      top.push_back(fmt::format("{} {:.0f}% {}", k.kernel, 100 * k.share, to_string(k.bound)));
    table.add_row({fmt::format("{}", i + 1), ranks[i].device, fmt::format("{:.3f}", ranks[i].kernels_ms),
                   fmt::format("{:.2f}x", ranks[i].speedup_vs_slowest), fmt::format("{}", fmt::join(top, "; "))});
  }
  std::cout << (options.format == "csv" ? render_csv(table) : render_text(table));
}

}  // namespace

void add_rank_command(CLI::App& app) {
  auto options = std::make_shared<RankOptions>();
  CLI::App* command = app.add_subcommand("rank", "Order devices by the profile's predicted kernel time");
  command->add_option("--profile", options->profile, "Kernel profile: a file, or a bundled profile's name")
      ->required();
  command->add_option("--device", options->devices,
                      "Device: a bundled name or a device-profile file (repeatable; default: every bundled device)");
  command->add_flag("--all-devices", options->all_devices, "Rank every bundled device");
  command->add_option("--top", options->top, "Longest kernels shown per device")->check(CLI::PositiveNumber);
  command->add_option("--format", options->format, "Output format")->check(CLI::IsMember({"table", "json", "csv"}));
  command->callback([options] { run_rank(*options); });
}

}  // namespace roofcast
