#include "roofcast/model/l2_residency.hpp"

#include <algorithm>
#include <cstdint>

#include <fmt/compile.h>
#include <fmt/format.h>

namespace roofcast {

namespace {
constexpr double kSectorsPerLine = 4;
}  // namespace

L2Residency l2_residency_of(const KernelRecord& kernel, const KernelWork& work, const DeviceProfile& device) {
  L2Residency r;
  const double dram_bytes = work.dram_read_bytes + work.dram_write_bytes;
  if (dram_bytes <= 0) return r;  // nothing from DRAM: nothing to keep in L2
  if (device.l2_bytes <= 0) {
    r.note = "no l2_bytes in the device profile: L2 residency not modelled (DRAM traffic from DRAM)";
    return r;
  }
  if (!work.dram_direction_known) {
    r.note = "no DRAM read/write split in the profile: L2 residency not modelled";
    return r;
  }
  // A cold launch reads every line it reads from DRAM; lines it writes stay dirty in L2 at its
  // end, so its DRAM writes undercount them: the stores' L2 bytes count them (at most once per
  // store, so an overcount where a line is stored twice, which only makes residency rarer).
  // Atomics fetch their lines from DRAM, which the DRAM reads count.
  // L2 holds whole 128-byte lines of four 32-byte sectors, and DRAM delivers 64-byte bursts.
  // A kernel that reads more bytes from DRAM than its loads and atomics ask of L2 gets bursts
  // for requests of one sector: it touches lines sparsely (a pointer chase, a random gather),
  // and each sector it reads takes a line of its own in L2.
  const double fetching_requests = work.l2_bytes - work.l2_store_bytes;  // loads, atomics, reductions
  const double line_factor =
      fetching_requests > 0 && work.dram_read_bytes > fetching_requests ? kSectorsPerLine : 1;
  const double launches = static_cast<double>(std::max<int64_t>(kernel.invocations, 1));
  r.footprint_bytes =
      (work.dram_read_bytes * line_factor + std::max(work.dram_write_bytes, work.l2_store_bytes)) / launches;
  r.l2_bytes = device.l2_bytes;
  r.known = true;
  r.resident = r.footprint_bytes <= device.l2_bytes;
  if (r.resident)
    r.note = fmt::format(FMT_COMPILE("{:.1f} MB touched per launch fits in the {:.1f} MB L2: DRAM traffic served by L2"),
                         r.footprint_bytes * 1e-6, device.l2_bytes * 1e-6);
  return r;
}

}  // namespace roofcast
