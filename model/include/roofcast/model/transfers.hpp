#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace roofcast {

// Host <-> device and device <-> device copies, which an application's time includes beside
// its kernels.
enum class TransferKind { host_to_device, device_to_host, device_to_device };

// "h2d", "d2h", "d2d"; nullopt for other text.
std::string_view to_string(TransferKind kind);
std::optional<TransferKind> transfer_kind_from_string(std::string_view text);

// A device's copy cost, fitted over a size sweep: time = latency + bytes / bandwidth.
struct TransferFit {
  double bandwidth_gbps = 0;
  double latency_us = 0;
};

// The key of a fit in a device profile's `transfers` object: "h2d_pinned", "h2d_pageable",
// "d2h_pinned", "d2h_pageable" or "d2d" (device memory on both sides: never pageable).
std::string transfer_key(TransferKind kind, bool pinned);

// The copies of one kind an application made, as the collector records them.
struct TransferRecord {
  TransferKind kind = TransferKind::host_to_device;
  bool pinned = true;                 // host memory page-locked (ignored for d2d)
  double count = 0;                   // copies
  double bytes = 0;                   // all of them together
  std::optional<double> measured_ms;  // their total measured time on the reference device
};

// Predicted time of `count` copies moving `bytes` in all.
double predict_transfer_ms(const TransferFit& fit, double bytes, double count);

}  // namespace roofcast
