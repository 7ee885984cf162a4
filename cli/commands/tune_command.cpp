#include <cmath>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands/commands.hpp"
#include "inputs.hpp"
#include "missing_bench_keys.hpp"
#include "roofcast/output/table.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/json_text.hpp"
#include "roofcast/formats/kernel_lookup.hpp"
#include "roofcast/formats/kernel_name_text.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/model/launch_tuning.hpp"
#include "roofcast/model/predictor.hpp"
#include "roofcast/model/two_configurations.hpp"

namespace roofcast {

namespace {

struct TuneOptions {
  std::string profile;
  std::string second_profile;  // a second profiled configuration of the kernel ("": none)
  std::string kernel;
  std::vector<std::string> devices;
  bool all_devices = false;
  std::vector<std::string> block_sizes{"32", "64", "96", "128", "192", "256", "384", "512", "768", "1024"};
  std::vector<int> registers;
  std::vector<double> shared_bytes;
  std::vector<double> work_per_thread;
  bool fixed_tile = false;
  std::vector<double> grid_blocks_per_sm;
  double threads = 0;
  int top = 5;
  std::string format = "table";
  std::vector<std::string> terms_off;  // --ablate
};

// "256" or "16x16" or "8x8x4".
std::array<double, 3> parse_block(const std::string& text) {
  std::array<double, 3> block{1, 1, 1};
  size_t start = 0;
  for (int axis = 0; axis < 3; ++axis) {
    const size_t end = text.find('x', start);
    const std::string part = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (part.empty() || part.size() > 5 || part.find_first_not_of("0123456789") != std::string::npos ||
        std::stod(part) < 1)
      throw InputError(fmt::format("--block-sizes {}: give threads per block as N, NxM or NxMxK (each >= 1)", text));
    block[static_cast<size_t>(axis)] = std::stod(part);
    if (end == std::string::npos) return block;
    start = end + 1;
  }
  throw InputError(fmt::format("--block-sizes {}: at most three dimensions", text));
}

std::string block_text(const std::array<double, 3>& b) {
  if (b[1] == 1 && b[2] == 1) return fmt::format("{:.0f}", b[0]);
  if (b[2] == 1) return fmt::format("{:.0f}x{:.0f}", b[0], b[1]);
  return fmt::format("{:.0f}x{:.0f}x{:.0f}", b[0], b[1], b[2]);
}

// The second configuration: the kernel of the same name, or the file's only kernel (another
// instance of a template has another name).
const KernelRecord& find_second_kernel(const KernelProfile& profile, const std::string& file, const std::string& name) {
  for (const auto& kernel : profile.kernels)
    if (kernel.name == name) return kernel;
  if (profile.kernels.size() == 1) return profile.kernels.front();
  throw InputError(fmt::format("--second-profile {}: holds {} kernels and none named \"{}\"", printable(file),
                               profile.kernels.size(), printable(name)));
}

// Whether `t` was predicted: only those are ranked.
bool predicted(const TunedLaunch& t) { return t.problem.empty() && t.cannot_cost.empty(); }

// `rank`: its place among the predicted configurations (left out for one that was not).
nlohmann::json launch_json(const TunedLaunch& t, size_t rank) {
  nlohmann::json j = {{"block", t.shape.block},
                       {"threads_per_block", t.shape.threads_per_block()},
                       {"blocks", t.shape.blocks()},
                       {"registers_per_thread", t.shape.registers_per_thread},
                       {"shared_bytes_per_block", t.shape.shared_bytes_per_block()},
                       {"work_per_thread", t.candidate.work_per_thread},
                       {"profiled", t.profiled}};
  if (predicted(t)) j["rank"] = rank;
  if (!t.problem.empty()) {
    j["problem"] = t.problem;
    return j;
  }
  j["blocks_per_sm"] = t.occupancy.blocks_per_sm;
  j["occupancy_limiter"] = t.occupancy.limiter;
  j["occupancy"] = t.occupancy_share;
  j["waves"] = t.waves;
  j["tail_idle_share"] = t.tail_idle_share;
  if (!t.cannot_cost.empty()) {
    j["cannot_cost"] = t.cannot_cost;
    j["worth_measuring"] = false;
    return j;
  }
  j["predicted_ms"] = t.prediction.predicted_ms;
  j["predicted_ms_per_launch"] = t.per_launch_ms;
  j["compute_ms"] = t.prediction.compute_ms;
  j["memory_ms"] = t.prediction.memory_ms;
  j["latency_ms"] = t.prediction.latency.ms;
  j["dispatch_ms"] = t.prediction.dispatch_ms;
  j["limiter"] = t.prediction.limiter;
  j["speedup_vs_profiled"] = t.speedup;
  j["worth_measuring"] = t.worth_measuring;
  return j;
}

// `with_totals` (CSV): each time as the total over the profiled launches beside the time per launch.
void add_rows(const LaunchTuning& tuning, const std::string& device_id, bool with_totals, Table& table) {
  size_t rank = 0;
  for (const auto& t : tuning.ranked) {
    if (predicted(t)) ++rank;
    std::vector<std::string> row{tuning.device, device_id, predicted(t) ? fmt::format("{}", rank) : "-",
                                 block_text(t.shape.block) + (t.profiled ? " *" : ""),
                                 fmt::format("{:.0f}", t.shape.blocks()), fmt::format("{}", t.shape.registers_per_thread),
                                 fmt::format("{:.0f}", t.shape.shared_bytes_per_block()),
                                 fmt::format("{:.3g}", t.candidate.work_per_thread)};
    if (!t.problem.empty()) {
      row.insert(row.end(), {"-", "-", "-", "-", "-", "-", "-", "cannot launch: " + t.problem, ""});
      if (with_totals) row.insert(row.end() - 3, "-");
    } else {
      const bool known = t.occupancy.blocks_per_sm > 0;
      row.insert(row.end(), {known ? fmt::format("{}", t.occupancy.blocks_per_sm) : "?",
                             known ? fmt::format("{:.0f}", 100 * t.occupancy_share) : "?",
                             known ? t.occupancy.limiter : "?", known ? fmt::format("{:.2f}", t.waves) : "?",
                             fmt::format("{:.0f}", 100 * t.tail_idle_share)});
      if (!t.cannot_cost.empty())
        row.insert(row.end(), {"-", "-", "cannot be costed: " + t.cannot_cost, ""});
      else
        row.insert(row.end(), {fmt::format("{:.4f}", t.per_launch_ms), fmt::format("{:.2f}", t.speedup),
                               t.prediction.limiter, t.worth_measuring ? "yes" : ""});
      if (with_totals)
        row.insert(row.end() - 3, t.cannot_cost.empty() ? fmt::format("{:.4f}", t.prediction.predicted_ms) : "-");
    }
    table.add_row(row);
  }
}

void run_tune(const TuneOptions& options) {
  const KernelProfile profile = load_profile(options.profile);
  const KernelRecord& kernel = find_kernel(profile, options.kernel, options.profile);
  if (const std::string problem = tuning_problem(kernel); !problem.empty())
    throw InputError(fmt::format("kernel \"{}\" of {}: {}", printable(kernel.name), printable(options.profile), problem));
  KernelProfile second_profile;
  const KernelRecord* second = nullptr;
  if (!options.second_profile.empty()) {
    second_profile = load_profile(options.second_profile);
    second = &find_second_kernel(second_profile, options.second_profile, kernel.name);
    if (const std::string problem = second_configuration_problem(kernel, *second, options.fixed_tile); !problem.empty())
      throw InputError(fmt::format("--second-profile {}: kernel \"{}\": {}", printable(options.second_profile),
                                   printable(second->name), problem));
  }
  for (double w : options.work_per_thread)
    if (!(w >= 1e-6) || w > 1e6) throw InputError("--work-per-thread: each factor must be in [1e-6, 1e6]");
  for (double g : options.grid_blocks_per_sm)
    if (!(g > 0) || g > 1e6) throw InputError("--grid-blocks-per-sm: each count must be in (0, 1e6]");
  std::vector<std::array<double, 3>> blocks;
  for (const auto& text : options.block_sizes) blocks.push_back(parse_block(text));
  if (options.fixed_tile && (!options.work_per_thread.empty() || !options.grid_blocks_per_sm.empty()))
    throw UsageError("--fixed-tile sets each thread's work from its block size: leave out --work-per-thread and "
                     "--grid-blocks-per-sm");
  const auto candidates =
      options.fixed_tile ? fixed_tile_candidates(kernel, blocks, options.registers, options.shared_bytes)
                         : candidate_space(blocks, options.registers, options.shared_bytes, options.work_per_thread,
                                           options.grid_blocks_per_sm);
  const std::vector<DeviceProfile> devices = load_devices(options.devices, options.all_devices);

  const std::string model = pipes_model_without(options.terms_off);
  const PipesTerms terms = pipes_terms_of_model(model);
  std::vector<LaunchTuning> tunings;
  for (const auto& device : devices)
    tunings.push_back(tune_launch(kernel, device, candidates, options.threads, options.top, second, terms));

  if (options.format == "json") {
    nlohmann::json devices_json = nlohmann::json::array();
    for (const auto& tuning : tunings) {
      nlohmann::json launches = nlohmann::json::array();
      size_t rank = 0;
      for (const auto& launch : tuning.ranked) launches.push_back(launch_json(launch, predicted(launch) ? ++rank : 0));
      devices_json.push_back({{"device", tuning.device},
                              {"device_id", devices[static_cast<size_t>(&tuning - tunings.data())].id},
                              {"launches", launches},
                              {"not_modelled", tuning.not_modelled}});
    }
    nlohmann::json out = {{"format", "roofcast-tune"}, {"version", 1}, {"model", model},
                          {"profile", printable(options.profile)}, {"kernel", kernel.name},
                          {"problem_threads", tunings.front().problem_threads}, {"top", options.top},
                          {"devices", devices_json}, {"notes", missing_bench_key_notes(devices, "pipes")}};
    if (second) {
      out["second_profile"] = printable(options.second_profile);
      out["second_kernel"] = second->name;
    }
    std::cout << json_text(out);
    return;
  }
  warn_missing_bench_keys(devices, "pipes");
  const bool with_totals = options.format == "csv";
  Table table;
  table.columns = {{"device", false}, {"id", false}, {"rank"}, {"block", false}, {"blocks"}, {"regs"}, {"shared B"},
                   {"work/thread"}, {"blocks/SM"}, {"occupancy %"}, {"occupancy limiter", false}, {"waves"},
                   {"tail idle %"}, {"predicted ms/launch"}, {"speedup"}, {"model limiter", false}, {"measure", false}};
  if (with_totals) table.columns.insert(table.columns.end() - 3, {"predicted ms total"});
  for (size_t d = 0; d < tunings.size(); ++d) {
    const LaunchTuning& tuning = tunings[d];
    add_rows(tuning, devices[d].id, with_totals, table);
    if (&tuning != &tunings.back()) table.rules_after.push_back(table.row_count() - 1);
  }
  if (options.format == "csv") {
    write_csv(table, std::cout);
    for (const auto& tuning : tunings)
      for (const auto& note : tuning.not_modelled)
        std::cerr << fmt::format("roofcast tune: {}: {}\n", printable(tuning.device), printable(note));
    return;
  }
  std::cout << fmt::format("Kernel {} of {}: {:.0f} threads of work, model {}; * = the profiled configuration\n"
                           "Times in ms per launch (CSV and JSON: the total over the {} profiled launches too)\n",
                           printable(shortened_kernel_name(kernel.name)), printable(options.profile),
                           tunings.front().problem_threads, model, kernel.invocations);
  if (second)
    std::cout << fmt::format("Each block's work on the line through it and {} of {} ({:.0f} threads per block)\n",
                             printable(shortened_kernel_name(second->name)), printable(options.second_profile),
                             profiled_shape(*second).threads_per_block());
  std::cout << "\n";
  write_text(table, std::cout);
  std::cout << fmt::format("\nWorth measuring: the {} fastest predicted per device (measure = yes). tail idle % is the "
                           "share of block slots left idle by a partial last wave.\n",
                           options.top);
  for (const auto& tuning : tunings)
    for (const auto& note : tuning.not_modelled)
      std::cout << fmt::format("Not modelled on {}: {}\n", printable(tuning.device), printable(note));
}

}  // namespace

void add_tune_command(CLI::App& app) {
  auto options = std::make_shared<TuneOptions>();
  CLI::App* command = app.add_subcommand(
      "tune", "Predict a kernel's time over launch configurations and list the ones worth measuring");
  command->add_option("--profile", options->profile, "Kernel profile: a file, or a bundled profile's name")
      ->required();
  command->add_option("--kernel", options->kernel, kKernelOptionHelp);
  command->add_option("--second-profile", options->second_profile,
                      "A profile of the same kernel at another block size (or another instance of a template): "
                      "each block's work follows the line through the two configurations");
  command->add_option("--device", options->devices, devices_option_help("Target device"));
  command->add_flag("--all-devices", options->all_devices, kAllDevicesHelp);
  command->add_option("--block-sizes", options->block_sizes,
                      "Threads per block to try: N, NxM or NxMxK (default 32 to 1024)")
      ->delimiter(',');
  command->add_option("--registers", options->registers, "Registers per thread to try (default: as profiled)")
      ->delimiter(',')
      ->transform(whole_number(1, 255));
  command->add_option("--shared-bytes", options->shared_bytes,
                      "Shared memory per block to try, bytes (default: the profiled bytes per thread x the block)")
      ->delimiter(',')
      ->transform(whole_number(0, 1e9));
  command->add_option("--work-per-thread", options->work_per_thread,
                      "Work of one thread as a multiple of the profiled thread's (coarsening; default 1)")
      ->delimiter(',');
  command->add_flag("--fixed-tile", options->fixed_tile,
                    "Each block keeps the profiled block's tile of work and shared memory, its threads sharing it "
                    "(work per thread = profiled threads per block / the candidate's)");
  command->add_option("--grid-blocks-per-sm", options->grid_blocks_per_sm,
                      "Also try persistent grids of this many blocks per SM, each thread doing its share of the problem")
      ->delimiter(',');
  command->add_option("--threads", options->threads,
                      "Threads of the problem at the profiled per-thread work (default: profiled grid x block)")
      ->transform(whole_number(1, 1e15));
  command->add_option("--top", options->top, "How many of the fastest predicted to mark worth measuring")
      ->transform(whole_number(1, 1e6));
  command->add_option("--format", options->format, "Output format")
      ->check(CLI::IsMember({"table", "csv", "json"}));
  add_ablate_option(*command, options->terms_off);
  command->callback([options] { run_tune(*options); });
}

}  // namespace roofcast
