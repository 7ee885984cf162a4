#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands/commands.hpp"
#include "all_gpus.hpp"
#include "inputs.hpp"
#include "missing_bench_keys.hpp"
#include "roofcast/output/markdown.hpp"
#include "roofcast/output/table.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/json_text.hpp"
#include "roofcast/formats/kernel_name_text.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/model/device_ranking.hpp"
#include "roofcast/model/predictor.hpp"
#include "roofcast/model/profile_prediction.hpp"
#include "roofcast/plots/ranking_chart.hpp"
#include "roofcast/plots/render_chart.hpp"

namespace roofcast {

namespace {

struct RankOptions {
  std::string profile;
  std::vector<std::string> devices;
  bool all_devices = false;
  bool all_gpus = false;
  size_t top = 3;
  std::string format;
  std::string chart;
  std::string model;
};

nlohmann::json optional_number(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json transfers_json(const std::vector<TransferPrediction>& transfers) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& t : transfers)
    list.push_back({{"key", t.key}, {"count", t.count}, {"bytes", t.bytes}, {"predicted_ms", optional_number(t.predicted_ms)},
                    {"measured_ms", optional_number(t.measured_ms)}});
  return list;
}

nlohmann::json rank_json(const std::vector<DeviceRank>& ranks, const std::string& profile, const std::string& model,
                         const std::vector<std::string>& notes) {
  nlohmann::json devices = nlohmann::json::array();
  for (size_t i = 0; i < ranks.size(); ++i) {
    const DeviceRank& r = ranks[i];
    nlohmann::json top = nlohmann::json::array();
    for (const auto& k : r.top_kernels)
      top.push_back({{"kernel", k.kernel}, {"predicted_ms", k.predicted_ms}, {"share", k.share},
                     {"bound", to_string(k.bound)}});
    devices.push_back({{"rank", i + 1},
                       {"device", r.device},
                       {"derived", r.derived},
                       {"device_id", r.device_id},
                       {"total_ms", r.total_ms},
                       {"kernels_ms", r.kernels_ms},
                       {"launch_gaps_ms", r.launch_gaps_ms},
                       {"transfers_ms", r.transfers_ms},
                       {"transfer_share", r.transfer_share},
                       {"transfers", transfers_json(r.transfers)},
                       {"missing_transfer_fits", r.missing_transfer_fits},
                       {"speedup_vs_slowest", r.speedup_vs_slowest},
                       {"break_even_iterations", optional_number(r.break_even_iterations)},
                       {"top_kernels", top}});
  }
  return {{"format", "roofcast-ranking"}, {"version", 1}, {"model", model}, {"profile", profile},
          {"devices", devices}, {"notes", notes}};
}

// Kernel names in the top-kernels column of a table people read: shortened by the tables' rule,
// narrower than elsewhere as the column lists several (CSV keeps them whole).
constexpr size_t kTopKernelNameWidth = 40;

// Every time is a total over the profiled run: each kernel's profiled launches, their launch
// gaps and the application's copies.
Table rank_table(const std::vector<DeviceRank>& ranks, bool whole_names) {
  Table table;
  table.columns = {{"rank"},
                   {"device", false},
                   {"id", false},
                   {"app ms total"},
                   {"kernels ms total"},
                   {"launch gaps ms total"},
                   {"copies ms total"},
                   {"copies %"},
                   {"vs slowest"},
                   {"break-even"},
                   {"top kernels (share, bound)", false}};
  for (size_t i = 0; i < ranks.size(); ++i) {
    const DeviceRank& r = ranks[i];
    std::vector<std::string> top;
    for (const auto& k : r.top_kernels)
      top.push_back(fmt::format("{} {:.0f}% {}", whole_names ? k.kernel : shortened_kernel_name(k.kernel, kTopKernelNameWidth),
                                100 * k.share, to_string(k.bound)));
    table.add_row({fmt::format("{}", i + 1), r.device, r.device_id, fmt::format("{:.3f}", r.total_ms), fmt::format("{:.3f}", r.kernels_ms),
                   fmt::format("{:.3f}", r.launch_gaps_ms),
                   r.missing_transfer_fits.empty() ? fmt::format("{:.3f}", r.transfers_ms) : "?",
                   fmt::format("{:.1f}", 100 * r.transfer_share), fmt::format("{:.2f}x", r.speedup_vs_slowest),
                   r.break_even_iterations ? fmt::format("{:.1f} it.", *r.break_even_iterations) : "-",
                   fmt::format("{}", fmt::join(top, "; "))});
  }
  return table;
}

void run_rank(const RankOptions& options) {
  const KernelProfile profile = load_profile(options.profile);
  // --all-gpus alone ranks the current GPUs, not also the bundled thesis ones.
  std::vector<DeviceProfile> devices;
  if (!options.all_gpus || options.all_devices || !options.devices.empty())
    devices = load_devices(options.devices, options.all_devices, DefaultDevices::costing_everything);
  if (options.all_gpus) append_all_gpus(devices);
  // A ranking reads each prediction's time and bound only: the rest is not held (a million
  // predictions, 100,000 kernels x 10 devices, with their details would take gigabytes).
  const std::vector<TotalsEntry> predictions =
      predict_entries_on_every_core(*make_predictor(options.model), profile, devices, nullptr);
  const auto ranks = rank_devices(predictions, profile, devices, options.top);
  if (options.format != "json") warn_missing_bench_keys(devices, options.model);  // JSON: its notes
  if (options.format == "json") {
    std::cout << json_text(
        rank_json(ranks, printable(options.profile), options.model, missing_bench_key_notes(devices, options.model)));
  } else if (options.format == "csv") {
    std::cout << render_csv(rank_table(ranks, true));
  } else if (options.format == "markdown") {
    std::cout << render_markdown(rank_table(ranks, false));
  } else {
    std::cout << fmt::format("Times in ms, totals over the profiled run: each kernel's profiled launches, the gaps "
                             "between them and the copies\n\n");
    std::cout << render_text(rank_table(ranks, false));
    if (std::any_of(ranks.begin(), ranks.end(), [](const auto& r) { return r.derived; }))
      std::cout << "\n(derived): a device profile derived from the GPU's spec sheet and the achieved/peak of a measured "
                   "GPU, not a measurement (`roofcast devices --specs`, docs/derived-devices.md)\n";
    if (std::any_of(ranks.begin(), ranks.end(), [](const auto& r) { return r.break_even_iterations.has_value(); }))
      std::cout << "\nbreak-even: for a device whose kernels beat the first one's but whose copies cost more, the "
                   "kernel iterations per transfer from which it becomes the faster choice\n";
  }
  for (const auto& r : ranks) {
    if (!r.missing_transfer_fits.empty())
      std::cerr << fmt::format("roofcast: warning: {} ({}) has no transfer fit for {} (bench it with roofcast bench): "
                               "its copies are left out\n",
                               printable(r.device_id), printable(r.device), printable(fmt::format("{}", fmt::join(r.missing_transfer_fits, ", "))));
  }
  if (!options.chart.empty()) {
    const std::filesystem::path path(options.chart);
    const auto target = chart_target_for(path.filename().string());
    if (!target) throw InputError(fmt::format("--chart {}: unknown chart format: use .svg, .png or .pdf", options.chart));
    std::vector<DeviceRank> labelled = ranks;  // a name that two devices share gets the id beside it
    const auto names = with_distinct_names(devices);
    for (auto& r : labelled)
      for (const auto& d : names)
        if (d.id == r.device_id) r.device = d.name;
    const auto files = render_chart(ranking_chart(labelled, std::filesystem::path(options.profile).stem().string(), *target),
                                    path.has_parent_path() ? path.parent_path() : std::filesystem::path("."));
    std::cerr << printable(fmt::format("roofcast: wrote {} (data {}, script {})", files.chart.string(),
                                       files.data.string(), files.script.string()))
              << "\n";
  }
}

}  // namespace

void add_rank_command(CLI::App& app) {
  auto options = std::make_shared<RankOptions>();
  CLI::App* command =
      app.add_subcommand("rank", "Order devices by the profile's predicted application time (kernels, launch gaps, copies)");
  command->add_option("--profile", options->profile, "Kernel profile: a file, or a bundled profile's name")
      ->required();
  command->add_option("--device", options->devices, devices_option_help("Device", DefaultDevices::costing_everything));
  command->add_flag("--all-devices", options->all_devices,
                    "Every current device `roofcast devices` lists, the thesis' GPUs included (their copies are "
                    "not costed)");
  command->add_flag("--all-gpus", options->all_gpus,
                    "Rank every measured GPU of the data folders and, derived from its spec sheet (marked derived), "
                    "every GPU of the spec table without a measured profile");
  command->add_option("--top", options->top, "Longest kernels shown per device")->transform(whole_number(1, 1e9));
  add_format_option(*command, options->format, {"table", "csv", "json", "markdown"});
  add_model_option(*command, options->model);
  command->add_option("--chart", options->chart, "Also draw the ranking as a bar chart (.svg, .png or .pdf)");
  command->callback([options] { run_rank(*options); });
}

}  // namespace roofcast
