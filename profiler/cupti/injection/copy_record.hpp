#pragma once

#include <cupti_activity.h>

#include <nlohmann/json.hpp>

namespace roofcast::profiler {

// The timing run's record of one memcpy:
//   {"type":"copy","direction":"h2d"|"d2h"|"d2d"|"p2p"|"h2h","pinned":bool,"bytes":..,
//    "count":..,"duration_ns":..,"device":..,"stream":..,"src_memory":..,"dst_memory":..}
// Array (texture) copies count with the direction they move data in (host->array is h2d,
// array->device d2d...). "pinned" tells whether the host side is page-locked; false for d2d.
nlohmann::json copy_record(const CUpti_ActivityMemcpy6& copy);

// One memset: {"type":"memset","bytes":..,"count":1,"duration_ns":..,"device":..,"stream":..,"memory":..}
nlohmann::json memset_record(const CUpti_ActivityMemset4& memset);

}  // namespace roofcast::profiler
