#pragma once

#include <vector>

#include <nlohmann/json.hpp>

#include "roofcast/model/transfers.hpp"
#include "roofcast/profiler/launch_records.hpp"

namespace roofcast::profiler {

// The copies of a run taken together per (kind, pinned): count, bytes and measured time
// summed, in the order h2d pinned, h2d pageable, d2h pinned, d2h pageable, d2d. Copies
// between GPUs (p2p), host to host and memsets are not transfers of the model and are left
// out. `device` >= 0 keeps only that GPU's copies.
std::vector<TransferRecord> summarize_transfers(const std::vector<CopyRecord>& copies, int device = -1);

// What the model does not cover, for the profile and the summary line.
struct OtherCopies {
  double memset_count = 0, memset_bytes = 0, memset_ms = 0;
  double peer_count = 0, peer_bytes = 0, peer_ms = 0;  // between GPUs
};
OtherCopies summarize_other_copies(const std::vector<CopyRecord>& copies, int device = -1);

// Adds the top-level "transfers" array (the format roofcast::to_json(KernelProfile) writes),
// "memsets" and "peer_copies" objects where there were any, and with `per_launch` a
// "copies" array of every copy and memset ({"process","kind","pinned","bytes","count",
// "duration_ms","device"}).
void add_transfers(nlohmann::json& profile, const std::vector<CopyRecord>& copies, bool per_launch, int device = -1);

}  // namespace roofcast::profiler
