#include "roofcast/model/transfers.hpp"

namespace roofcast {

std::string_view to_string(TransferKind kind) {
  switch (kind) {
    case TransferKind::host_to_device: return "h2d";
    case TransferKind::device_to_host: return "d2h";
    case TransferKind::device_to_device: return "d2d";
  }
  return "unknown";
}

std::optional<TransferKind> transfer_kind_from_string(std::string_view text) {
  if (text == "h2d") return TransferKind::host_to_device;
  if (text == "d2h") return TransferKind::device_to_host;
  if (text == "d2d") return TransferKind::device_to_device;
  return std::nullopt;
}

std::string transfer_key(TransferKind kind, bool pinned) {
  if (kind == TransferKind::device_to_device) return "d2d";
  return std::string(to_string(kind)) + (pinned ? "_pinned" : "_pageable");
}

double predict_transfer_ms(const TransferFit& fit, double bytes, double count) {
  // GB/s = bytes per ns: bytes / (GB/s) is ns, 1e-6 of a millisecond.
  return count * fit.latency_us * 1e-3 + bytes / fit.bandwidth_gbps * 1e-6;
}

}  // namespace roofcast
