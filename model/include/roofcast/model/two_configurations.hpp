#pragma once

#include <string>

#include "roofcast/model/kernel_profile.hpp"

namespace roofcast {

// `roofcast tune` with two profiled configurations of one kernel (docs/tuning.md): two block
// sizes of one binary, or two instances of a template compiled per block size. A re-cut from one
// profile holds each thread's (or, with --fixed-tile, each block's) work at the profiled one's;
// per-thread work that does not shrink with a thread's share of a tile (an SGEMM thread's own
// load of each k-step's value) makes a block's work grow with its warps instead. With two
// profiles, each total of work of a block (the additive counters: instructions, wavefronts,
// sectors, stall cycles, atomics...) follows the line through the two configurations in warps
// per block, extrapolated beyond them.

// Why `second` cannot be the second configuration of `first` ("" when it can): it needs counters
// and a launch shape, a block of another number of warps, and the same problem: the same grid
// with `fixed_tile`, the same threads of work (within 1 %) without.
std::string second_configuration_problem(const KernelRecord& first, const KernelRecord& second, bool fixed_tile);

// Why the line cannot cost a block of `shape`'s warps per block ("" when it can): extrapolated
// beyond the two configurations, one of the thesis' nine totals of a block's work (instructions
// by kind, DRAM sectors) falls below zero there, or its warp instructions to zero. Such a block's
// work is unknown, so `roofcast tune` does not predict or rank it ("cannot be costed"). Other
// totals the line takes below zero (a stall reason, hit sectors) are details of work the block
// still has: interpolate_work holds them at zero.
std::string line_work_problem(const KernelRecord& first, const KernelRecord& second, const LaunchShape& shape);

// Sets `recut`'s additive counters (kernel_with_launch's re-cut of `first` into `shape`) to the
// line's value at the shape's warps per block, times `work_per_block` (the candidate's work per
// block over the profiled configurations' at the same warps: 1 for a fixed tile, the work per
// thread for coarsened or persistent grids), times its blocks and launches. The measured time
// that caps the latency term keeps its value per instruction.
void interpolate_work(const KernelRecord& first, const KernelRecord& second, const LaunchShape& shape,
                      double work_per_block, KernelRecord& recut);

}  // namespace roofcast
