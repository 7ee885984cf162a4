#include "roofcast/model/two_configurations.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

#include <fmt/format.h>

#include "roofcast/model/counter_names.hpp"
#include "roofcast/model/kernel_parameters.hpp"
#include "roofcast/model/launch_tuning.hpp"

namespace roofcast {

namespace {

constexpr const char* kWarpsLaunched = "sm__warps_launched.sum";
constexpr const char* kInstructions = "smsp__inst_executed.sum";

// Blocks over all the profiled launches.
double profiled_blocks(const KernelRecord& kernel) {
  double blocks = 0;
  for (const auto& shape : kernel.launch_shapes)
    blocks += shape.blocks() * static_cast<double>(std::max<int64_t>(shape.invocations, 1));
  return blocks;
}

// Where a block of `warps` warps lies on the line from the first configuration (0) to the
// second (1).
double along_line(const KernelRecord& first, const KernelRecord& second, double warps) {
  const double warps_a = profiled_shape(first).warps_per_block(), warps_b = profiled_shape(second).warps_per_block();
  return (warps - warps_a) / (warps_b - warps_a);
}

double counter_or_zero(const KernelCounters& counters, const char* name) {
  const auto it = counters.extra.find(name);
  return it == counters.extra.end() ? 0 : it->second;
}

}  // namespace

std::string second_configuration_problem(const KernelRecord& first, const KernelRecord& second, bool fixed_tile) {
  if (const std::string problem = tuning_problem(second); !problem.empty()) return problem;
  const LaunchShape& a = profiled_shape(first);
  const LaunchShape& b = profiled_shape(second);
  if (a.warps_per_block() == b.warps_per_block())
    return fmt::format("its block ({:.0f} threads) has as many warps as the first profile's ({:.0f}): profile another "
                       "block size",
                       b.threads_per_block(), a.threads_per_block());
  if (fixed_tile && a.blocks() != b.blocks())
    return fmt::format("--fixed-tile: its grid has {:.0f} blocks, the first profile's {:.0f}: profile the same tiles",
                       b.blocks(), a.blocks());
  const double threads_a = a.blocks() * a.threads_per_block(), threads_b = b.blocks() * b.threads_per_block();
  if (!fixed_tile && std::abs(threads_b / threads_a - 1) > 0.01)
    return fmt::format("its launch covers {:.0f} threads, the first profile's {:.0f}: profile the same problem "
                       "(or give --fixed-tile for blocks that each cover a fixed tile)",
                       threads_b, threads_a);
  return "";
}

std::string line_work_problem(const KernelRecord& first, const KernelRecord& second, const LaunchShape& shape) {
  const auto* a = std::get_if<KernelCounters>(&first.description);
  const auto* b = std::get_if<KernelCounters>(&second.description);
  const double blocks_a = profiled_blocks(first), blocks_b = profiled_blocks(second);
  if (!a || !b || blocks_a <= 0 || blocks_b <= 0 ||
      profiled_shape(first).warps_per_block() == profiled_shape(second).warps_per_block())
    return "";
  const double along = along_line(first, second, shape.warps_per_block());
  const auto& totals = thesis_counter_totals();
  const auto names = thesis_counter_names();
  for (size_t i = 0; i < totals.size(); ++i) {
    const double per_block_a = a->thesis.*totals[i] / blocks_a, per_block_b = b->thesis.*totals[i] / blocks_b;
    const double per_block = per_block_a + (per_block_b - per_block_a) * along;
    // A block that issues no instruction is no kernel: its warp instructions must stay above zero.
    const bool instructions = totals[i] == &ThesisCounters::inst_executed;
    if (per_block < 0 || (instructions && per_block <= 0))
      return fmt::format("the two profiles' line gives a {:.0f}-warp block {} = {:.3g} (extrapolated {} zero)",
                         shape.warps_per_block(), names[i].nvprof, per_block, per_block < 0 ? "below" : "down to");
  }
  return "";
}

void interpolate_work(const KernelRecord& first, const KernelRecord& second, const LaunchShape& shape,
                      double work_per_block, KernelRecord& recut) {
  auto* counters = std::get_if<KernelCounters>(&recut.description);
  const auto* a = std::get_if<KernelCounters>(&first.description);
  const auto* b = std::get_if<KernelCounters>(&second.description);
  if (!counters || !a || !b) return;
  const double warps_a = profiled_shape(first).warps_per_block(), warps_b = profiled_shape(second).warps_per_block();
  const double blocks_a = profiled_blocks(first), blocks_b = profiled_blocks(second);
  if (warps_a == warps_b || blocks_a <= 0 || blocks_b <= 0) return;
  const double along = along_line(first, second, shape.warps_per_block());
  const double blocks = shape.blocks() * static_cast<double>(std::max<int64_t>(shape.invocations, 1));
  // A block's share of a total on the line through the two configurations. A detail that the
  // line takes below zero (a stall reason) is held at zero; line_work_problem() refuses a block
  // whose work itself falls below zero.
  const auto on_line = [&](double total_a, double total_b) {
    const double per_block_a = total_a / blocks_a, per_block_b = total_b / blocks_b;
    return std::max(0.0, per_block_a + (per_block_b - per_block_a) * along) * work_per_block * blocks;
  };

  const double instructions_before = counter_or_zero(*counters, kInstructions);
  for (auto& [name, value] : counters->extra) {
    if (!is_total_counter(name) || name == kWarpsLaunched) continue;
    const auto in_a = a->extra.find(name), in_b = b->extra.find(name);
    if (in_a != a->extra.end() && in_b != b->extra.end()) value = on_line(in_a->second, in_b->second);
  }
  for (auto total : thesis_counter_totals()) counters->thesis.*total = on_line(a->thesis.*total, b->thesis.*total);
  // The latency term's cap (a warp's serial time is at most a launch's) stays per instruction.
  const double instructions_after = counter_or_zero(*counters, kInstructions);
  if (recut.measured_ms && instructions_before > 0 && instructions_after > 0)
    *recut.measured_ms *= instructions_after / instructions_before;
}

}  // namespace roofcast
