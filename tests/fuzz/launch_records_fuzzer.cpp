// Fuzz target: the collector's record lines (one JSON object a line, collector_protocol.hpp) as
// `roofcast profile` reads them from its records folder, then what the command makes of them: the
// kernels summarized, the kernel profile and the measured-times file it writes, read back, and the
// profile predicted on every bundled device; the timing run is also joined with itself.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "fuzz_checks.hpp"
#include "roofcast/formats/measured_json.hpp"
#include "roofcast/profiler/kernel_summary.hpp"
#include "roofcast/profiler/launch_records.hpp"

namespace {

// This process' records folder, holding one records file; removed when the fuzzer exits.
class RecordsFolder {
 public:
  RecordsFolder()
      : path_(std::filesystem::temp_directory_path() / ("roofcast-fuzz-records-" + std::to_string(::getpid()))) {
    std::filesystem::create_directories(path_);
  }
  ~RecordsFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

const std::filesystem::path& records_folder() {
  static const RecordsFolder folder;
  return folder.path();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace roofcast;
  return fuzz::run_reader(data, size, [](std::string_view text) {
    std::ofstream(records_folder() / "roofcast-timing-fuzz-input.jsonl", std::ios::binary | std::ios::trunc)
        .write(text.data(), static_cast<std::streamsize>(text.size()));
    const profiler::RunRecords run = profiler::read_run_records(records_folder(), "timing");
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
