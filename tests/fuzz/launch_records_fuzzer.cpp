// Fuzz target: the collector's record lines (one JSON object a line, collector_record_fields.hpp),
// one process' file as parse_collector_file reads it, then what `roofcast profile` makes of them:
// the run they form, its kernels summarized, the kernel profile and the measured-times file it
// writes, read back, and the profile predicted on every bundled device; the run is also joined
// with itself.
#include <vector>

#include "fuzz_checks.hpp"
#include "roofcast/formats/collector_records.hpp"
#include "roofcast/formats/measured_json.hpp"
#include "roofcast/profiler/kernel_summary.hpp"
#include "roofcast/profiler/launch_records.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace roofcast;
  return fuzz::run_reader(data, size, [](std::string_view text) {
    std::vector<CollectorFile> files;
    files.push_back(parse_collector_file(text, fuzz::kSource));
    const profiler::RunRecords run = profiler::run_records(std::move(files));
    const auto kernels = profiler::summarize_kernels(run.launches);
    profiler::join_runs(run, run);
    const profiler::ProfileProvenance provenance{"fuzz device", "", "fuzz", "2026-01-01T00:00:00Z", "thesis",
                                                 run.passes, {}, ""};
    fuzz::check_imported_profile(profiler::kernel_profile_json(kernels, provenance, true));
    const MeasuredTimes times = profiler::measured_times(kernels, "fuzz device");
    fuzz::check_reads_back("the measured times as written do not read back",
                           [&] { parse_measured_times(to_json(times).dump(), fuzz::kSource); });
  });
}
