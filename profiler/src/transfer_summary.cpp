#include "roofcast/profiler/transfer_summary.hpp"

#include <array>
#include <optional>
#include <string>

namespace roofcast::profiler {

namespace {

struct Slot {
  TransferKind kind;
  bool pinned;
};
constexpr std::array<Slot, 5> kSlots = {{{TransferKind::host_to_device, true},
                                         {TransferKind::host_to_device, false},
                                         {TransferKind::device_to_host, true},
                                         {TransferKind::device_to_host, false},
                                         {TransferKind::device_to_device, true}}};

std::optional<size_t> slot_of(const CopyRecord& copy) {
  const std::optional<TransferKind> kind = transfer_kind_from_string(copy.kind);
  if (!kind) return std::nullopt;
  const bool pinned = *kind == TransferKind::device_to_device || copy.pinned;
  for (size_t i = 0; i < kSlots.size(); ++i)
    if (kSlots[i].kind == *kind && kSlots[i].pinned == pinned) return i;
  return std::nullopt;
}

bool kept(const CopyRecord& copy, int device) { return device < 0 || copy.device == device; }

}  // namespace

std::vector<TransferRecord> summarize_transfers(const std::vector<CopyRecord>& copies, int device) {
  std::array<TransferRecord, kSlots.size()> sums;
  for (size_t i = 0; i < kSlots.size(); ++i) {
    sums[i].kind = kSlots[i].kind;
    sums[i].pinned = kSlots[i].pinned;
    sums[i].measured_ms = 0.0;
  }
  for (const auto& copy : copies) {
    if (!kept(copy, device)) continue;
    const auto slot = slot_of(copy);
    if (!slot) continue;
    sums[*slot].count += copy.count;
    sums[*slot].bytes += copy.bytes;
    *sums[*slot].measured_ms += copy.duration_ns / 1e6;
  }
  std::vector<TransferRecord> result;
  for (const auto& sum : sums)
    if (sum.count > 0) result.push_back(sum);
  return result;
}

OtherCopies summarize_other_copies(const std::vector<CopyRecord>& copies, int device) {
  OtherCopies other;
  for (const auto& copy : copies) {
    if (!kept(copy, device)) continue;
    if (copy.kind == "memset") {
      other.memset_count += copy.count;
      other.memset_bytes += copy.bytes;
      other.memset_ms += copy.duration_ns / 1e6;
    } else if (copy.kind == "p2p") {
      other.peer_count += copy.count;
      other.peer_bytes += copy.bytes;
      other.peer_ms += copy.duration_ns / 1e6;
    }
  }
  return other;
}

void add_transfers(nlohmann::json& profile, const std::vector<CopyRecord>& copies, bool per_launch, int device) {
  const auto transfers = summarize_transfers(copies, device);
  if (!transfers.empty()) {
    nlohmann::json list = nlohmann::json::array();
    for (const auto& t : transfers)
      list.push_back({{"kind", std::string(to_string(t.kind))}, {"pinned", t.pinned}, {"count", t.count},
                      {"bytes", t.bytes}, {"measured_ms", t.measured_ms.value_or(0)}});
    profile["transfers"] = list;
  }
  const OtherCopies other = summarize_other_copies(copies, device);
  if (other.memset_count > 0)
    profile["memsets"] = {{"count", other.memset_count}, {"bytes", other.memset_bytes}, {"measured_ms", other.memset_ms}};
  if (other.peer_count > 0)
    profile["peer_copies"] = {{"count", other.peer_count}, {"bytes", other.peer_bytes}, {"measured_ms", other.peer_ms}};
  if (!per_launch) return;
  nlohmann::json list = nlohmann::json::array();
  for (const auto& copy : copies) {
    if (!kept(copy, device)) continue;
    list.push_back({{"process", copy.process}, {"kind", copy.kind}, {"pinned", copy.pinned}, {"bytes", copy.bytes},
                    {"count", copy.count}, {"duration_ms", copy.duration_ns / 1e6}, {"device", copy.device}});
  }
  if (!list.empty()) profile["copies"] = list;
}

}  // namespace roofcast::profiler
