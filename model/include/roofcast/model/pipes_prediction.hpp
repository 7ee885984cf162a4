#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/device_rates.hpp"
#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/kernel_work.hpp"
#include "roofcast/model/l2_residency.hpp"
#include "roofcast/model/latency_term.hpp"
#include "roofcast/model/note.hpp"
#include "roofcast/model/thesis_prediction.hpp"

namespace roofcast {

// The terms of the multi-pipeline model (`--model pipes`, docs/pipes-model.md). Each can be
// switched off to measure what it is worth (`roofcast validate --ablation`).
struct PipesTerms {
  bool pipes = true;           // per-pipe instruction costs (off: every instruction at the issue rate)
  bool issue = true;           // the schedulers' issue limit
  bool tensor = true;          // tensor-core operations at the peak of their data type
  bool shared = true;          // shared-memory wavefronts (bank conflicts included)
  bool atomics = true;         // global and shared atomics
  // Single-lane atomics on one word at the slowest same-word bench rate (integer, float) the
  // reference's measured time per atomic allows (off: the integer rate).
  bool one_word_type = true;
  // Lanes of one instruction on one word count as that word's read-modify-writes in a row, at
  // the same-word rate (off: single-lane atomics only).
  bool one_word_lanes = true;
  bool dram_direction = true;  // DRAM bandwidth for the kernel's read/write mix (off: B_mem)
  bool dram_writeback = true;  // lines stored that stay dirty past the kernel's end are written back too
  bool l2 = true;              // L2 traffic at L2 bandwidth
  bool l2_direction = true;    // L2 <-> SM crossbar: loads and stores each at L2 bandwidth (off: their sum)
  bool l2_residency = true;    // data that fits in the target's L2 is served by L2, not DRAM
  bool l1 = true;              // L1 traffic at L1 bandwidth
  bool parallelism = true;     // DRAM bandwidth an SM can draw with the loads it keeps in flight
  // A warp keeps all its global loads in flight at once, and its stores do not stall it
  // (memory_parallelism.hpp; off: one load or store instruction per warp in flight).
  bool warp_mlp = true;
  // DRAM latency grows with DRAM utilization along the line through the bench's unloaded chase
  // and its probe (memory_parallelism.hpp; off: DRAM and parallelism meet in sqrt(a^2 + b^2)).
  bool dram_latency_line = true;
  // A block's warp slots free only when its last warp exits: launch shapes with another number
  // of blocks per SM than the profiled one keep achieved occupancy x (1 - 1/(2k)) / the
  // profiled share (block_refill.hpp; off: the achieved occupancy as it is).
  bool block_refill = true;
  bool waves = true;           // blocks per SM: partial waves, idle SMs
  // A launch of more blocks than one wave ends with a partial wave, which runs after the full
  // waves at one warp's serial pace: the full waves' time and the last wave's latency add up
  // (latency_term.hpp; off: the kernel's latency over all its waves is one bound).
  bool tail_wave = true;
  bool latency = true;         // one warp's serial work: latencies too few resident warps cannot hide
  // Launches of one wave or less get no DRAM-parallelism cost where the latency term holds their
  // warps' memory waits (off: only launches with fewer blocks than SMs).
  bool one_wave_latency = true;
  // Each load's latency in the latency term under the load the kernel's own warps put on their
  // SM's share of the L2 bandwidth (loaded_latency.hpp; off: the unloaded mix with the DRAM
  // chase's spread for every level).
  bool loaded_latency = true;
  bool launch = true;          // the fixed time of a kernel launch
  // A grid cannot finish before the GPU has started all its blocks: blocks / the bench's
  // `block_dispatch_gblocks` bounds the time a grid of many short blocks takes.
  bool block_dispatch = true;
  // The kernel's measured time on the reference GPU bounds what it took there: one warp's serial
  // work (the latency term is capped at a launch's time) and one word's atomics (the slowest
  // same-word bench rate that fits in the time per request). Off: the profile's measured times
  // are not read, as for a profile timed nowhere (docs/pipes-model.md, "The reference's measured
  // time"). On a target that is the reference GPU itself it bounds the prediction by the very
  // time it is scored against.
  bool reference_time = true;
};

// The names `--ablation` uses, with a pointer to the term each switches off.
struct PipesTermName {
  const char* name;
  bool PipesTerms::*term;
};
const std::vector<PipesTermName>& pipes_term_names();

// What the reference-time term took from the kernel's measured time on the reference GPU: each
// value is 0 where the term changed nothing (it is off, the profile has no measured time, or
// the bound was not reached).
struct ReferenceTimeUse {
  // The latency term's ns per instruction without the cap, where the cap lowered it (the capped
  // value is LatencyTerm::ns_per_instruction).
  double uncapped_latency_ns = 0;
  // One word's atomics: the ns per request the reference's time chose, where it chose other than
  // the integer bench's, which is what they cost without the term.
  double one_word_ns = 0, one_word_integer_ns = 0;
  bool acted() const { return uncapped_latency_ns > 0 || one_word_ns > 0; }
};

// One cost: the time the kernel needs from one part of the GPU, alone.
struct PipesCost {
  std::string name;  // "fma pipe", "issue", "tensor bf16", "shared", "DRAM", "L2"...
  double ms = 0;
};

struct PipesPrediction {
  // The kernel's work, shared by its predictions on every device (set by predict_pipes).
  std::shared_ptr<const KernelWork> work;
  // `work`, or no work at all where none was set.
  const KernelWork& kernel_work() const {
    static const KernelWork none;
    return work ? *work : none;
  }
  std::vector<PipesCost> compute;  // per pipe, issue, tensor, shared, atomics
  std::vector<PipesCost> memory;   // DRAM, L2, L1
  double compute_ms = 0;           // the largest compute cost
  double memory_ms = 0;            // the largest memory cost
  double blocks = 0;               // per launch, mean over the launches
  int blocks_per_sm = 0;           // of the most common launch shape; 0 when unknown
  std::string occupancy_limiter;
  double compute_wave_factor = 1;  // >= 1: the busiest SM's share of blocks over the mean share
  LatencyTerm latency;             // the latency bound; latency.ms is 0 when not modelled
  // The SMs of the device predicted for (0 unknown): the calibration transfers an efficiency
  // only between devices with as many SMs.
  int sm_count = 0;
  L2Residency l2_residency;        // whether the kernel's data stays in the target's L2
  double launch_ms = 0;            // fixed time of the kernel's launches
  // The time the GPU takes to start and retire the launches' blocks (every launch shape's
  // blocks / the block dispatch rate); 0 when not modelled. A bound beside compute, memory and
  // latency: the time is launch + the largest of them.
  double dispatch_ms = 0;
  ReferenceTimeUse reference_time;  // where the reference's measured time bounded a cost
  double predicted_ms = 0;
  Bound bound = Bound::compute;
  // The cost that sets the time: "fma pipe", "DRAM", "latency (memory)", "block dispatch",
  // "launch"... `bound`
  // stays the larger of compute and memory when the latency term sets the time.
  std::string limiter;
  // Derived inputs and terms left out: this prediction's own; the kernel's (work->notes) and the
  // device's (device_notes) are shared by its predictions, not copied into each (a million of them).
  // Two of its own stay where they were made, not copied here: the L2 residency's note (its
  // first) and the latency term's (after the first `latency_note_at` of `notes`). Read every
  // note through for_each_note.
  std::vector<Note> notes;
  size_t latency_note_at = 0;
  std::shared_ptr<const std::vector<std::string>> device_notes;
  // Every note's text (a std::string_view), the kernel's, then the device's, then this
  // prediction's own.
  template <typename Visit>
  void for_each_note(Visit visit) const {
    for (const std::string& note : kernel_work().notes) visit(std::string_view(note));
    if (device_notes)
      for (const std::string& note : *device_notes) visit(std::string_view(note));
    if (!l2_residency.note.empty()) visit(l2_residency.note.text());
    const size_t before_latency = std::min(latency_note_at, notes.size());
    for (size_t i = 0; i < before_latency; ++i) visit(notes[i].text());
    if (!latency.note.empty()) visit(latency.note.text());
    for (size_t i = before_latency; i < notes.size(); ++i) visit(notes[i].text());
  }
};

PipesPrediction predict_pipes(const KernelRecord& kernel, const DeviceProfile& device, const PipesTerms& terms = {});
// The same, from the kernel's work (kernel_work_of) and the device's rates (device_rates_of)
// computed once by a caller that predicts many kernels on many devices.
PipesPrediction predict_pipes(const KernelRecord& kernel, std::shared_ptr<const KernelWork> work,
                              const DeviceProfile& device, const DeviceRates& rates, const PipesTerms& terms = {});
// The same into `p`, made anew but for the storage of its costs, notes and limiter, kept for
// this prediction's: a caller that predicts many kernels reuses one prediction's storage rather
// than allocating it again for each (a million predictions in `predict`).
void predict_pipes(PipesPrediction& p, const KernelRecord& kernel, std::shared_ptr<const KernelWork> work,
                   const DeviceProfile& device, const DeviceRates& rates, const PipesTerms& terms = {});

}  // namespace roofcast

namespace roofcast {

// The optional calibration (the thesis' E_util idea): the kernel's measured time on the reference
// device, less its launch time, over its predicted time there, less the launch time, is its
// efficiency; the target's prediction, less its launch time, is scaled by it. Only where
// `calibration_applies`: the same cost sets the time on both (an efficiency of the DRAM bound
// says nothing of a latency bound), on as many SMs (on another number of SMs, an MPS partition,
// the launches have other waves and each SM another share of L2 and DRAM: on the validation
// corpus calibrating a partition from its whole GPU made it worse, docs/pipes-model.md). Returns
// the calibrated time on `target`, or the uncalibrated one where it does not apply or the
// reference time says nothing (no work or no time).
double calibrated_pipes_ms(const KernelRecord& kernel, const DeviceProfile& target, const DeviceProfile& reference,
                           double measured_on_reference_ms, const PipesTerms& terms = {});
// The same from the kernel's predictions on the target and on the reference, already made.
double calibrated_pipes_ms(const PipesPrediction& on_target, const PipesPrediction& on_reference,
                           double measured_on_reference_ms, const std::string& kernel, const std::string& target);
// Whether the calibration moves the reference's efficiency to this target (see above).
bool calibration_applies(const PipesPrediction& on_target, const PipesPrediction& on_reference);

}  // namespace roofcast
