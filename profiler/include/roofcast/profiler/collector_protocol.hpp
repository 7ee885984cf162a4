#pragma once

// How `roofcast profile` (the launcher) and the injection library talk: the launcher sets
// these environment variables for the application; the library, loaded by the CUDA driver
// through CUDA_INJECTION64_PATH in every CUDA process of the application, writes one JSON
// Lines file per process (pid in the name: kFilePrefix MODE-PID kFileSuffix, created exclusively;
// MODE-PID.2, .3... where a process of that pid wrote one before) into the output folder. The
// records of its lines: roofcast/formats/collector_record_fields.hpp.
namespace roofcast::profiler::protocol {

inline constexpr const char* kInjectionPathVariable = "CUDA_INJECTION64_PATH";
inline constexpr const char* kModeVariable = "ROOFCAST_PROFILE_MODE";  // timing | counters | single
inline constexpr const char* kOutputDirVariable = "ROOFCAST_PROFILE_OUTPUT_DIR";
inline constexpr const char* kMetricsVariable = "ROOFCAST_PROFILE_METRICS";     // comma-separated
inline constexpr const char* kKernelRegexVariable = "ROOFCAST_PROFILE_KERNEL_REGEX";
inline constexpr const char* kSkipVariable = "ROOFCAST_PROFILE_LAUNCH_SKIP";
inline constexpr const char* kCountVariable = "ROOFCAST_PROFILE_LAUNCH_COUNT";
inline constexpr const char* kDeviceVariable = "ROOFCAST_PROFILE_DEVICE";
// "1": processes of the application pass the GPU's counters on request (counter_turns.hpp);
// otherwise each process takes them for itself.
inline constexpr const char* kShareCountersVariable = "ROOFCAST_PROFILE_SHARE_COUNTERS";
// "all" (default): the collector replays each launch itself, emptying the L2 before every
// pass; "none": CUPTI's kernel replay, caches as the memory restore leaves them.
inline constexpr const char* kCacheControlVariable = "ROOFCAST_PROFILE_CACHE_CONTROL";
// Counter run: profile at most N launches of each (kernel, grid, block) (absent: every launch),
// spread over the launches the plan file (launch_sample.hpp) says the timing run saw.
inline constexpr const char* kSampleVariable = "ROOFCAST_PROFILE_SAMPLE";
inline constexpr const char* kSamplePlanVariable = "ROOFCAST_PROFILE_SAMPLE_PLAN";
// The first run of --runs auto: a shape's launches past the first N are profiled on the in-run
// grid while they cost at most this share of the process' own run time (LaunchSampler::
// spread_in_run; a number, e.g. "0.33"; "0": no launch past the first N, and none of a shape
// once its launches count different instructions).
inline constexpr const char* kInRunSpreadVariable = "ROOFCAST_PROFILE_IN_RUN_SPREAD";
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
