#pragma once

#include <string>
#include <vector>

namespace roofcast {

// One device's part of a kernel's independent work split across several devices.
struct DeviceShare {
  std::string device;
  double alone_ms = 0;     // predicted time of the whole kernel on this device alone
  int sm_count = 0;        // 0 when unknown
  double ideal_share = 0;  // (1 / t_i) / sum_j (1 / t_j)
  long long blocks = 0;    // the share rounded to whole blocks
  double rounded_ms = 0;   // alone_ms x blocks / total blocks
};

struct WorkSplit {
  std::vector<DeviceShare> devices;
  long long total_blocks = 0;
  double fastest_alone_ms = 0;  // the best single device
  double ideal_ms = 0;          // 1 / sum_i (1 / t_i): every device busy until the end
  double rounded_ms = 0;        // the slowest device's part after rounding to blocks
  double ideal_gain = 0;        // 1 - ideal_ms / fastest_alone_ms
  std::vector<std::string> warnings;
};

struct DeviceTime {
  std::string device;
  double alone_ms = 0;
  int sm_count = 0;
};

// Splits `total_blocks` independent blocks in proportion to each device's speed, assuming a
// device's time scales with the blocks it runs. Rounds with the largest-remainder method so the
// blocks add up. Warns when the ideal gain over the fastest device is under `small_gain`, and when
// a device's share is under one wave (fewer blocks than its SMs).
WorkSplit split_work(const std::vector<DeviceTime>& devices, long long total_blocks, double small_gain = 0.2);

}  // namespace roofcast
