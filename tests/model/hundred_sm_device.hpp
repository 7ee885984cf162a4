#pragma once

#include "roofcast/model/device_profile.hpp"

namespace roofcast::test {

// A device of 100 SMs of 2048 threads (64 warp slots), 32 blocks, 64 K registers; DRAM 4000 GB/s
// read, 3000 copy, 2000 write; the bench's probe latency `probe_ns` (a round trip of its warps:
// twice that). With `latency_line`, also the unloaded chase (1.2 x the probe) and the probe's
// 1000 GB/s: the DRAM latency line is known.
inline DeviceProfile hundred_sm_device(double probe_ns = 400, bool latency_line = false) {
  DeviceProfile d;
  d.name = "device";
  d.sm_count = 100;
  d.throughput = {64000, 32000, 32000, 32000, 32000, 3000};
  d.extra_throughput = {{"pipe_fma_gwips", 1000},  {"pipe_issue_gwips", 1000}, {"dram_read_gbps", 4000},
                        {"dram_copy_gbps", 3000},  {"dram_write_gbps", 2000},  {"kernel_floor_us", 2},
                        {"dram_latency_ns", probe_ns}};
  if (latency_line) {
    d.extra_throughput["latency_dram_ns"] = 1.2 * probe_ns;
    d.extra_throughput["dram_probe_gbps"] = 1000;
  }
  d.occupancy = {2048, 32, 65536, 256, 233472, 1024, 128};
  return d;
}

}  // namespace roofcast::test
