#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofcast/profiler/csv_records.hpp"

namespace roofcast::profiler {

// Kernel profiles (formats.md) from other profilers' CSV output. `source` names the file in
// errors; every error is an InputError naming the file, line and column at fault.
//
// Nsight Compute: `ncu --csv --page raw --metrics <our metrics> APP` (one row per launch,
// the units row right after the header; values in any unit ncu writes are converted to its
// base units, those of `--print-units base`). Counters keep their CUDA 13 names. A cell that is
// not a number in a form ncu writes is an error; "n/a" leaves that metric out of the kernel (a
// duration left out is said in the profile's `notes`). A metric column given twice, a row
// with an empty ID after the units row, or a duration whose unit is not a time unit is an error.
nlohmann::json import_ncu_csv(std::string_view text, const std::string& source, const std::string& device_name);
// nvprof: `nvprof --csv --metrics <metrics> APP` (one row per kernel and metric with
// Invocations, Min, Max, Avg). Count metrics become totals (Avg x Invocations).
nlohmann::json import_nvprof_csv(std::string_view text, const std::string& source, const std::string& device_name);

}  // namespace roofcast::profiler
