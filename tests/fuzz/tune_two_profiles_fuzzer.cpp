// Fuzz target: `roofcast tune --second-profile` (two_configurations.hpp): two kernel profiles read
// as tune reads them, and each block's work on the line through their block sizes, tuned on every
// bundled device and on an H100's device profile. The input is one JSON object:
//   {"first": PROFILE, "second": PROFILE, "fixed_tile": true, "block_sizes": [64, 128, ...]}
// ("fixed_tile" and "block_sizes", at most 16 of 1 to 2048 threads, are optional: tune's
// defaults). What tune would refuse with an error (the two are not one problem) is skipped.
// Checked: every prediction tune ranks is finite and > 0, of a re-cut kernel that issues
// instructions (no negative or zero work ranked) and whose every count is finite and >= 0; the
// ranking is fastest first, then what cannot be costed (the line gives no work), then what cannot
// launch; only ranked ones are worth measuring.
#include <array>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "fuzz_checks.hpp"
#include "roofcast/formats/json_field.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/model/launch_tuning.hpp"
#include "roofcast/model/two_configurations.hpp"

namespace {

using namespace roofcast;

constexpr int kTop = 3;

// Occupancy limits, pipes, latencies and the block dispatch rate, which the thesis' devices
// lack: values of docs/validation/2026-11-27-tune-h100/device.json (5 digits).
const DeviceProfile& h100() {
  static const DeviceProfile device = parse_device_profile(R"json({"format": "roofcast-device", "version": 1,
    "name": "H100 (tune fuzzing)",
    "throughput": {"fp32_gflops": 65633, "fp64_gflops": 33211, "int32_mad_giops": 33123, "int32_add_giops": 32460,
      "shared_ldst_gops": 8293.5, "dram_gbps": 3180.2, "dram_read_gbps": 3207.7, "dram_write_gbps": 3292.6,
      "dram_copy_gbps": 3040.2, "l2_gbps": 6932.8, "l1_gbps": 35089, "kernel_floor_us": 0.78637,
      "dram_latency_ns": 267.42, "pipe_fma_gwips": 1010.3, "pipe_alu_gwips": 515.18, "pipe_lsu_gwips": 259.21,
      "pipe_issue_gwips": 1002.1, "pipe_fp64_gwips": 518.61, "pipe_xu_gwips": 129.79,
      "block_dispatch_gblocks": 1.6445, "warp_issue_interval_ns": 0.51772, "latency_ffma_ns": 2.0578,
      "latency_l1_hit_ns": 16.413, "latency_l2_hit_ns": 136.35, "latency_dram_ns": 341.67,
      "latency_shared_load_ns": 11.829},
    "device": {"sm_count": 132, "max_threads_per_sm": 2048, "max_blocks_per_sm": 32, "registers_per_sm": 65536,
      "register_allocation_unit": 256, "shared_bytes_per_sm": 233472, "reserved_shared_bytes_per_block": 1024,
      "shared_allocation_unit": 128, "l2_bytes": 52428800},
    "clocks": {"sm_clock_mhz_in_kernel": 1966.8}})json",
                                                           "h100 (tune fuzzing)");
  return device;
}

// The first kernel tune can re-cut, and its second configuration as tune finds it: the kernel of
// the same name, or the second profile's only kernel. nullptr where tune would refuse.
std::pair<const KernelRecord*, const KernelRecord*> kernels_of(const KernelProfile& first, const KernelProfile& second,
                                                               bool fixed_tile) {
  for (const auto& kernel : first.kernels) {
    if (!tuning_problem(kernel).empty()) continue;
    const KernelRecord* other = second.kernels.size() == 1 ? &second.kernels.front() : nullptr;
    for (const auto& candidate : second.kernels)
      if (candidate.name == kernel.name) other = &candidate;
    if (other && second_configuration_problem(kernel, *other, fixed_tile).empty()) return {&kernel, other};
    return {nullptr, nullptr};
  }
  return {nullptr, nullptr};
}

void check_tuning(const LaunchTuning& tuning, const KernelRecord& kernel, const KernelRecord& second,
                  const DeviceProfile& device) {
  fuzz::check_finite_non_negative(tuning.problem_threads, "problem threads");
  int group_before = 0, worth_measuring = 0;
  double time_before = 0;
  for (const auto& t : tuning.ranked) {
    const std::string where = fmt::format("{:.0f} threads per block on {}", t.shape.threads_per_block(), device.name);
    const int group = !t.problem.empty() ? 2 : !t.cannot_cost.empty() ? 1 : 0;
    if (group < group_before) fuzz::finding("ranked out of order: predicted, cannot be costed, cannot launch", where);
    group_before = group;
    if (t.worth_measuring) ++worth_measuring;
    if (group != 0) {
      if (t.worth_measuring) fuzz::finding("a configuration that was not predicted is worth measuring", where);
      if (group == 1 && line_work_problem(kernel, second, t.shape).empty())
        fuzz::finding("cannot be costed, but the line gives its block work", where + ": " + t.cannot_cost);
      continue;
    }
    fuzz::check_pipes(t.prediction, where);
    if (!(t.prediction.predicted_ms > 0)) fuzz::finding("a ranked prediction of 0 ms", where);
    if (t.prediction.predicted_ms < time_before) fuzz::finding("ranked, but not fastest first", where);
    time_before = t.prediction.predicted_ms;
    for (const double value : {t.per_launch_ms, t.speedup, t.occupancy_share, t.waves, t.tail_idle_share})
      fuzz::check_finite_non_negative(value, "a value of " + where);
    if (!line_work_problem(kernel, second, t.shape).empty())
      fuzz::finding("ranked, but the line gives its block no work", where);
    // The re-cut kernel tune predicted: it issues instructions, and every count is a count.
    KernelProfile recut;
    recut.kernels = {kernel_with_launch(kernel, t.candidate, device, tuning.problem_threads, &second)};
    fuzz::check_profile(recut);
    if (!(std::get<KernelCounters>(recut.kernels.front().description).thesis.inst_executed > 0))
      fuzz::finding("ranked with no instructions (zero work)", where);
  }
  if (worth_measuring > kTop) fuzz::finding("more worth measuring than --top", device.name);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return fuzz::run_reader(data, size, [](std::string_view text) {
    const nlohmann::json document = parse_json_document(text, fuzz::kSource);
    const Field root(document, fuzz::kSource, "");
    root.object();
    const KernelProfile first = parse_kernel_profile(root.member("first").value().dump(), fuzz::kSource);
    const KernelProfile second = parse_kernel_profile(root.member("second").value().dump(), fuzz::kSource);
    const bool fixed_tile = root.has("fixed_tile") && root.member("fixed_tile").boolean();
    std::vector<std::array<double, 3>> blocks;
    if (root.has("block_sizes")) {
      const Field sizes = root.member("block_sizes");
      for (size_t i = 0; i < sizes.array().size() && i < 16; ++i)
        blocks.push_back({static_cast<double>(sizes.element(i).whole(1, 2048)), 1, 1});
    } else {
      for (double threads : {32, 64, 96, 128, 192, 256, 384, 512, 768, 1024}) blocks.push_back({threads, 1, 1});
    }
    const auto [kernel, other] = kernels_of(first, second, fixed_tile);
    if (!kernel) return;
    const auto candidates =
        fixed_tile ? fixed_tile_candidates(*kernel, blocks, {}, {}) : candidate_space(blocks, {}, {}, {});
    std::vector<const DeviceProfile*> devices{&h100()};
    for (const auto& device : fuzz::bundled_devices_for_fuzzing()) devices.push_back(&device);
    for (const DeviceProfile* device : devices)
      check_tuning(tune_launch(*kernel, *device, candidates, 0, kTop, other), *kernel, *other, *device);
  });
}
