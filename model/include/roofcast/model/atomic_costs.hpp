#pragma once

#include <string>
#include <vector>

#include "roofcast/model/device_rates.hpp"
#include "roofcast/model/kernel_work.hpp"

namespace roofcast {

// What global atomics cost on a target (docs/pipes-model.md, "Atomics under contention"): the
// L2 atomic units apply the kernel's sectors, its busiest slice last, while the SMs' crossbar
// ports carry those sectors to the slices. Every rate is a bench value of the target.
struct GlobalAtomicsCost {
  // "global atomics", "global atomics (busiest L2 slice)", "global atomics (crossbar)",
  // "global atomics (scattered sectors)" or "global atomics (one word)".
  std::string name;
  double ms = 0;
  // The parts, 0 where not costed: thread-level operations at the distinct-address rate; the
  // busiest slice's sectors at a slice's sector rate; the atomic sectors through the SMs'
  // crossbar ports at the L2 rate.
  double operations_ms = 0, busiest_slice_ms = 0, crossbar_ms = 0;
  // Where the device profile has the optional benches: the atomic sectors at the rate scattered
  // single-sector atomics reach; single-lane requests on one word at that word's rate.
  double scattered_ms = 0, one_word_ms = 0;
  // The one-word cost per request, ns (0 where not costed), and the integer same-word bench's,
  // which it is unless the reference's time per request chose another (`one_word_from_reference`).
  double one_word_ns_per_request = 0, one_word_integer_ns = 0;
  bool one_word_from_reference = false;
  std::vector<std::string> notes;
};

// What the reference's own run says of its single-lane atomics on one word: a launch took at
// most its measured time, so one word's read-modify-writes took at most that time per request.
struct OneWordReference {
  double ns_per_request = 0;  // the reference's measured time per one-word L2 atomic request; 0 unknown
  double clock_mhz = 0;       // the reference's SM clock (0 unknown: taken as the target's)
};

// The L2 atomic requests that queue on one word, one after another (0 when none do): one-sector
// requests all on one slice (lanes of one instruction on one word go in separate requests and
// queue the same way: the integer scatter-add with every lane on one word takes 0.73 ns per
// addition on an H100, the same-word bench 0.735 ns), or, where the other requests spread over
// the slices, the busiest slice's atomic cycles beyond its share of them (a hot word, such as
// an append counter, among scattered atomics). `lanes_on_one_word` false: only single-lane
// requests (no more requests than atomic instructions) count.
double one_word_requests(const KernelWork& work, bool lanes_on_one_word = true);

// The kernel's measured time on the reference per one-word L2 atomic request (its
// `reference_ns_per_atomic_request` where a re-cut set it); 0 when unknown.
OneWordReference one_word_reference_of(const KernelRecord& kernel, const KernelWork& work);

// Nothing to cost (ms = 0, empty name) when the kernel has no global atomics or the device no
// distinct-address atomic rate. `reference` (with `ns_per_request` > 0) bounds the one-word
// cost's data type: no counter says whether the atomics were integer or float, and the
// same-word benches measure both (docs/pipes-model.md, "Atomics under contention").
// `lanes_on_one_word`: lanes of one instruction on one word are that word's read-modify-writes
// in a row as well (false: single-lane requests only).
GlobalAtomicsCost global_atomics_cost(const KernelWork& work, const DeviceRates& rates,
                                      const OneWordReference& reference = {}, bool lanes_on_one_word = true);

}  // namespace roofcast
