#pragma once

// How `roofcast profile` (the launcher) and the injection library talk: the launcher sets
// these environment variables for the application; the library, loaded by the CUDA driver
// through CUDA_INJECTION64_PATH in every CUDA process of the application, writes one JSON
// Lines file per process (pid in the name) into the output folder. Each line is one record:
//   {"type":"process","pid":..,"parent_pid":..,"start_ns":..,"mode":"timing"|"counters",
//    "env":{name: value}}   (env: the variables kRecordEnvVariable names that are set)
//   {"type":"device","index":..,"name":"NVIDIA H100 80GB HBM3","chip":"GH100"}
//   {"type":"launch","index":..,"name":mangled,"demangled":..,"device":..,"grid":[x,y,z],
//    "block":[x,y,z],"dynamic_shared_bytes":..,   timing: "duration_ns","registers",
//    "static_shared_bytes"   counters: "metrics":{name: value}}
//   {"type":"copy","direction":"h2d"|"d2h"|"d2d"|"p2p"|"h2h","pinned":..,"bytes":..,"count":..,
//    "duration_ns":..,"device":..,"stream":..}      (timing run: every memcpy)
//   {"type":"memset","bytes":..,"count":1,"duration_ns":..,"device":..,"stream":..}
//   {"type":"progress","launches_seen":N}  (timing run, every 1,000 launches: for the progress line)
//   {"type":"error","message":"..."}      (one line; the launcher prints it)
//   {"type":"end","launches":N,"copies":M}  (written at exit: the file is complete)
namespace roofcast::profiler::protocol {

inline constexpr const char* kInjectionPathVariable = "CUDA_INJECTION64_PATH";
inline constexpr const char* kModeVariable = "ROOFCAST_PROFILE_MODE";           // timing | counters
inline constexpr const char* kOutputDirVariable = "ROOFCAST_PROFILE_OUTPUT_DIR";
inline constexpr const char* kMetricsVariable = "ROOFCAST_PROFILE_METRICS";     // comma-separated
inline constexpr const char* kKernelRegexVariable = "ROOFCAST_PROFILE_KERNEL_REGEX";
inline constexpr const char* kSkipVariable = "ROOFCAST_PROFILE_LAUNCH_SKIP";
inline constexpr const char* kCountVariable = "ROOFCAST_PROFILE_LAUNCH_COUNT";
inline constexpr const char* kDeviceVariable = "ROOFCAST_PROFILE_DEVICE";
// "1": several processes launch kernels; they take the counters in turns, one launch at a time.
inline constexpr const char* kShareCountersVariable = "ROOFCAST_PROFILE_SHARE_COUNTERS";
// "all" (default): the collector replays each launch itself, emptying the L2 before every
// pass; "none": CUPTI's kernel replay, caches as the memory restore leaves them.
inline constexpr const char* kCacheControlVariable = "ROOFCAST_PROFILE_CACHE_CONTROL";
// Counter run: profile at most N launches of each (kernel, grid, block) (absent: every launch),
// spread over the launches the plan file (launch_sample.hpp) says the timing run saw.
inline constexpr const char* kSampleVariable = "ROOFCAST_PROFILE_SAMPLE";
inline constexpr const char* kSamplePlanVariable = "ROOFCAST_PROFILE_SAMPLE_PLAN";
// Comma-separated environment variables whose values each process records in its "process"
// record ("env":{name: value}), for --output patterns such as %q{OMPI_COMM_WORLD_RANK}.
inline constexpr const char* kRecordEnvVariable = "ROOFCAST_PROFILE_RECORD_ENV";
// Recorded in every run: the rank variables of mpirun (Open MPI, MPICH/PMI, PMIx), Slurm and
// torchrun, which tell apart processes that start together.
inline constexpr const char* kRankVariables[] = {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID", "RANK",
                                                 "LOCAL_RANK"};

inline constexpr const char* kFilePrefix = "roofcast-";
inline constexpr const char* kFileSuffix = ".jsonl";

inline constexpr const char* kInjectionLibraryName = "libroofcast_injection.so";
inline constexpr const char* kCuptiToolName = "roofcast-cupti";

}  // namespace roofcast::profiler::protocol
