#pragma once

// The collector's record lines: the names that the injection library (profiler/cupti/injection)
// writes and that collector_records.hpp reads, in one place. Header only and free of any
// dependency, so that the library the CUDA driver loads into the application includes it
// without linking roofcast::formats.
//
// Each process of a profiled run writes one JSON Lines file (collector_protocol.hpp says where);
// each line is one record, an object whose "type" says what it is:
//   {"type":"process","pid":..,"parent_pid":..,"start_ns":..,"mode":"timing"|"counters",
//    "env":{name: value}}   (env: the variables ROOFCAST_PROFILE_RECORD_ENV names that are set)
//   {"type":"device","index":..,"name":"NVIDIA H100 80GB HBM3","chip":"GH100"}
//   {"type":"config","device":..,"chip":..,"passes":..,"metrics":[..]}   (counter run)
//   {"type":"launch","index":..,"name":mangled,"demangled":..,"device":..,"grid":[x,y,z],
//    "block":[x,y,z],"dynamic_shared_bytes":..,   timing: "duration_ns","registers",
//    "static_shared_bytes","stream"   counters: "metrics":{name: value}, "cost_ns":{..}}
//   {"type":"copy","direction":"h2d"|"d2h"|"d2d"|"p2p"|"h2h","pinned":..,"bytes":..,"count":..,
//    "duration_ns":..,"device":..,"stream":..,"src_memory":..,"dst_memory":..}  (timing run: every memcpy)
//   {"type":"memset","bytes":..,"count":1,"duration_ns":..,"device":..,"stream":..,"memory":..}
//   {"type":"progress","launches_seen":N}  (timing run, every 1,000 launches: for the progress line)
//   {"type":"error","message":"..."}      (one line; the launcher prints it)
//   {"type":"warning","message":"..."}
//   {"type":"debug",..}                   (ROOFCAST_PROFILE_DEBUG: not read)
//   {"type":"end","launches":N,"copies":M,"aborted":..}  (written at exit: the file is complete)
namespace roofcast::collector_record {

inline constexpr const char* kType = "type";

// The values of "type".
inline constexpr const char* kProcess = "process";
inline constexpr const char* kDevice = "device";
inline constexpr const char* kConfig = "config";
inline constexpr const char* kLaunch = "launch";
inline constexpr const char* kCopy = "copy";
inline constexpr const char* kMemset = "memset";
inline constexpr const char* kProgress = "progress";
inline constexpr const char* kError = "error";
inline constexpr const char* kWarning = "warning";
inline constexpr const char* kDebug = "debug";
inline constexpr const char* kEnd = "end";

// The keys of the records.
inline constexpr const char* kPidKey = "pid";
inline constexpr const char* kParentPidKey = "parent_pid";
inline constexpr const char* kStartNsKey = "start_ns";
inline constexpr const char* kModeKey = "mode";
inline constexpr const char* kEnvKey = "env";
inline constexpr const char* kIndexKey = "index";
inline constexpr const char* kNameKey = "name";
inline constexpr const char* kChipKey = "chip";
inline constexpr const char* kPassesKey = "passes";
inline constexpr const char* kMetricsKey = "metrics";
inline constexpr const char* kDemangledKey = "demangled";
inline constexpr const char* kDeviceKey = "device";
inline constexpr const char* kGridKey = "grid";
inline constexpr const char* kBlockKey = "block";
inline constexpr const char* kDynamicSharedBytesKey = "dynamic_shared_bytes";
inline constexpr const char* kDurationNsKey = "duration_ns";
inline constexpr const char* kRegistersKey = "registers";
inline constexpr const char* kStaticSharedBytesKey = "static_shared_bytes";
inline constexpr const char* kStreamKey = "stream";
inline constexpr const char* kCostNsKey = "cost_ns";
inline constexpr const char* kDirectionKey = "direction";
inline constexpr const char* kPinnedKey = "pinned";
inline constexpr const char* kBytesKey = "bytes";
inline constexpr const char* kCountKey = "count";
inline constexpr const char* kSrcMemoryKey = "src_memory";
inline constexpr const char* kDstMemoryKey = "dst_memory";
inline constexpr const char* kMemoryKey = "memory";
inline constexpr const char* kLaunchesSeenKey = "launches_seen";
inline constexpr const char* kMessageKey = "message";
inline constexpr const char* kLaunchesKey = "launches";
inline constexpr const char* kCopiesKey = "copies";
inline constexpr const char* kAbortedKey = "aborted";
inline constexpr const char* kCbidKey = "cbid";
inline constexpr const char* kLaunchAttributesKey = "launch_attributes";

}  // namespace roofcast::collector_record
