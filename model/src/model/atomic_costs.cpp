#include "roofcast/model/atomic_costs.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace roofcast {

namespace {

constexpr double kWarpSize = 32;
constexpr double kSectorBytes = 32;

// The same-address benchmark (`atomic_global_same_address_gops`): every warp of the grid
// updates the 32 words of one 128-byte line, 4 sectors per warp instruction, so one slice
// applies 8 additions per sector it processes.
constexpr double kSameAddressBenchAdditionsPerSector = 8;

// No profile names the reference's L2 slice count; NVIDIA GPUs since Volta have 32 or more (an
// H100 80, an H200 96). With fewer taken, a hot slice's share of spread sectors is taken as
// larger, and its one-word requests as fewer.
constexpr double kFewestL2Slices = 32;

// Giga-things at giga-things per second, in milliseconds.
double ms_of(double amount, double giga_per_second) { return amount / (giga_per_second * 1e9) * 1e3; }

// One word's read-modify-writes in a row take the same-word bench's time each: the integer
// bench's, or the float bench's, slower one (the L2 unit's float add takes longer). No counter
// names the atomics' data type, and the slice's busy cycles do not tell them apart
// (`lts__d_atomic_input_cycles_active` counts one input cycle per sector for either). What the
// reference measured does bound it: its launch took at most its measured time, so each request
// took at most that time per request; the slowest type that fits in it is taken (the same
// cycles at the target's SM clock: same architecture). Without the float bench or the
// reference's time: the integer rate.
void cost_one_word_per_request(const DeviceRates& rates, const OneWordReference& reference, GlobalAtomicsCost& cost) {
  const double integer_ns = 1 / rates.global_atomics_same_word_gops;
  cost.one_word_integer_ns = cost.one_word_ns_per_request = integer_ns;
  if (rates.global_atomics_same_word_f32_gops <= 0 || reference.ns_per_request <= 0) return;
  const double float_ns = 1 / rates.global_atomics_same_word_f32_gops;
  double measured_ns = reference.ns_per_request;
  if (reference.clock_mhz > 0 && rates.sm_clock_mhz > 0) measured_ns *= reference.clock_mhz / rates.sm_clock_mhz;
  const double ns = std::clamp(measured_ns, std::min(integer_ns, float_ns), std::max(integer_ns, float_ns));
  cost.notes.push_back(fmt::format("one word: {:.3g} ns per atomic (integer bench {:.3g} ns, float bench {:.3g} ns; the "
                                   "reference took {:.3g} ns per one-word request in all)",
                                   ns, integer_ns, float_ns, measured_ns));
  cost.one_word_ns_per_request = ns;
  cost.one_word_from_reference = true;
}

}  // namespace

double one_word_requests(const KernelWork& work, bool lanes_on_one_word) {
  const double requests = work.global_atomic_l2_requests, sectors = work.global_atomic_l2_sectors;
  const double busiest = work.atomic_busiest_l2_slice_cycles;
  // One sector per request. (The counters are read in different replay passes: "as many" and
  // "all on one slice" allow them a thousandth apart.)
  if (requests <= 0 || sectors <= 0 || busiest <= 0 || requests < 0.999 * sectors) return 0;
  if (!lanes_on_one_word && requests > work.global_atomic_instructions) return 0;
  if (busiest >= 0.999 * sectors) return requests;  // all on one slice
  // A hot word among spread sectors: the busiest slice's cycles beyond its share of the rest.
  return std::max(0.0, busiest - (sectors - busiest) / (kFewestL2Slices - 1));
}

OneWordReference one_word_reference_of(const KernelRecord& kernel, const KernelWork& work) {
  OneWordReference reference;
  reference.clock_mhz = work.waits.reference_clock_mhz;
  // Over its one-word requests where it has them (the bound is read only for those), else all.
  const double on_one_word = one_word_requests(work);
  const double requests = on_one_word > 0 ? on_one_word : work.global_atomic_l2_requests;
  if (kernel.reference_ns_per_atomic_request)
    reference.ns_per_request = *kernel.reference_ns_per_atomic_request;
  else if (kernel.measured_ms && *kernel.measured_ms > 0 && requests > 0)
    reference.ns_per_request = *kernel.measured_ms * 1e6 / requests;
  return reference;
}

GlobalAtomicsCost global_atomics_cost(const KernelWork& work, const DeviceRates& rates,
                                      const OneWordReference& reference, bool lanes_on_one_word) {
  GlobalAtomicsCost cost;
  if (work.global_atomic_instructions <= 0 || rates.global_atomics_gops <= 0) return cost;
  cost.operations_ms = ms_of(work.global_atomic_instructions * kWarpSize, rates.global_atomics_gops);
  cost.name = "global atomics";
  cost.ms = cost.operations_ms;
  if (work.atomic_busiest_l2_slice_cycles <= 0 || rates.global_atomics_same_address_gops <= 0) {
    cost.notes.push_back(work.atomic_busiest_l2_slice_cycles <= 0
                             ? "no busiest-slice atomic cycles in the profile: atomics at the distinct-address rate"
                             : "no same-address atomic rate on this device: atomics at the distinct-address rate");
    return cost;
  }
  // A slice's atomic unit takes one sector per cycle: the busiest slice's cycles at the rate
  // the same-address benchmark gets from one slice.
  cost.busiest_slice_ms = ms_of(work.atomic_busiest_l2_slice_cycles,
                                rates.global_atomics_same_address_gops / kSameAddressBenchAdditionsPerSector);
  // Every atomic sector also crosses from its SM to its slice: the SMs' crossbar ports move
  // `l2_gbps` each way (one sector per SM cycle or so), the slices' units apply the sectors.
  // Two queues in series meet in a knee, as DRAM and its parallelism do: both near saturation,
  // each waits for the other.
  if (work.global_atomic_l2_sectors > 0 && rates.l2_gbps > 0)
    cost.crossbar_ms = ms_of(work.global_atomic_l2_sectors * kSectorBytes, rates.l2_gbps);
  else
    cost.notes.push_back("no L2 atomic sectors in the profile or no L2 rate on this device: the atomics' crossbar "
                         "time not costed");
  const double l2_side = std::hypot(cost.busiest_slice_ms, cost.crossbar_ms);
  if (l2_side > cost.ms) {
    cost.ms = l2_side;
    cost.name = cost.busiest_slice_ms >= cost.crossbar_ms ? "global atomics (busiest L2 slice)"
                                                           : "global atomics (crossbar)";
  }
  // A slice takes a sector of a line of its own more slowly than the sectors of one hot line:
  // the bench of scattered single-sector atomics measures that, slices and crossbar together.
  if (rates.global_atomics_scattered_gops <= 0 && work.global_atomic_l2_sectors > 0)
    cost.notes.push_back("no atomic_global_scattered_gops on this device: atomic sectors on lines of their own not "
                         "costed");
  if (rates.global_atomics_scattered_gops > 0 && work.global_atomic_l2_sectors > 0) {
    cost.scattered_ms = ms_of(work.global_atomic_l2_sectors, rates.global_atomics_scattered_gops);
    if (cost.scattered_ms > cost.ms) {
      cost.ms = cost.scattered_ms;
      cost.name = "global atomics (scattered sectors)";
    }
  }
  // One-sector requests on one word are its read-modify-writes in a row: the same-word bench's
  // pattern (one_word_requests).
  const double on_one_word = one_word_requests(work, lanes_on_one_word);
  if (on_one_word > 0 && rates.global_atomics_same_word_gops <= 0)
    cost.notes.push_back("no atomic_global_same_word_gops on this device: atomics on one word at the busiest L2 "
                         "slice's rate");
  if (on_one_word > 0 && rates.global_atomics_same_word_gops > 0) {
    cost_one_word_per_request(rates, reference, cost);
    cost.one_word_ms = on_one_word * cost.one_word_ns_per_request * 1e-6;
    if (cost.one_word_ms > cost.ms) {
      cost.ms = cost.one_word_ms;
      cost.name = "global atomics (one word)";
    }
  }
  cost.notes.push_back(fmt::format(
      "global atomics: busiest L2 slice {:.4g} ms, crossbar {:.4g} ms (in a knee: {:.4g} ms){}{}; operations {:.4g} ms",
      cost.busiest_slice_ms, cost.crossbar_ms, l2_side,
      cost.scattered_ms > 0 ? fmt::format(", scattered sectors {:.4g} ms", cost.scattered_ms) : std::string(),
      cost.one_word_ms > 0 ? fmt::format(", one word {:.4g} ms", cost.one_word_ms) : std::string(), cost.operations_ms));
  return cost;
}

}  // namespace roofcast
