#include "copy_record.hpp"

#include <algorithm>

#include "roofcast/formats/collector_record_fields.hpp"

namespace roofcast::profiler {

namespace {

const char* direction_of(uint8_t copy_kind) {
  switch (copy_kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOA:
      return "h2d";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOH:
      return "d2h";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOD:
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOA:
    case CUPTI_ACTIVITY_MEMCPY_KIND_ATOA:
      return "d2d";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
      return "p2p";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
      return "h2h";
    default:
      return "unknown";
  }
}

const char* memory_name(uint32_t memory_kind) {
  switch (memory_kind) {
    case CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE: return "pageable";
    case CUPTI_ACTIVITY_MEMORY_KIND_PINNED: return "pinned";
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE: return "device";
    case CUPTI_ACTIVITY_MEMORY_KIND_ARRAY: return "array";
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED: return "managed";
    case CUPTI_ACTIVITY_MEMORY_KIND_DEVICE_STATIC: return "device_static";
    case CUPTI_ACTIVITY_MEMORY_KIND_MANAGED_STATIC: return "managed_static";
    default: return "unknown";
  }
}

uint64_t duration(uint64_t start, uint64_t end) { return end > start ? end - start : 0; }

}  // namespace

nlohmann::json copy_record(const CUpti_ActivityMemcpy6& copy) {
  const std::string direction = direction_of(copy.copyKind);
  const uint8_t host_side = direction == "d2h" ? copy.dstKind : copy.srcKind;
  const bool pinned = (direction == "h2d" || direction == "d2h") && host_side == CUPTI_ACTIVITY_MEMORY_KIND_PINNED;
  return {{collector_record::kType, collector_record::kCopy},
          {collector_record::kDirectionKey, direction},
          {collector_record::kPinnedKey, pinned},
          {collector_record::kBytesKey, copy.bytes},
          // > 1 only for cudaMemcpyBatchAsync batches
          {collector_record::kCountKey, std::max<uint64_t>(copy.copyCount, 1)},
          {collector_record::kDurationNsKey, duration(copy.start, copy.end)},
          {collector_record::kDeviceKey, copy.deviceId},
          {collector_record::kStreamKey, copy.streamId},
          {collector_record::kSrcMemoryKey, memory_name(copy.srcKind)},
          {collector_record::kDstMemoryKey, memory_name(copy.dstKind)}};
}

nlohmann::json memset_record(const CUpti_ActivityMemset4& memset) {
  return {{collector_record::kType, collector_record::kMemset},
          {collector_record::kBytesKey, memset.bytes},
          {collector_record::kCountKey, 1},
          {collector_record::kDurationNsKey, duration(memset.start, memset.end)},
          {collector_record::kDeviceKey, memset.deviceId},
          {collector_record::kStreamKey, memset.streamId},
          {collector_record::kMemoryKey, memory_name(memset.memoryKind)}};
}

}  // namespace roofcast::profiler
