#pragma once

#include <filesystem>

namespace roofcast {

// What `roofcast report -o DIR` writes into DIR: the page, the three CSV files beside it, and
// charts/ with each chart's SVG, data and script.
inline constexpr const char* kReportPage = "index.html";
inline constexpr const char* kReportPredictionsFile = "predictions.csv";
inline constexpr const char* kReportWarningsFile = "warnings.csv";
inline constexpr const char* kReportDiagnosticsFile = "diagnostics.csv";
inline constexpr const char* kReportChartsFolder = "charts";

// A report replaces DIR whole (OutputFiles::add_folder): DIR must be missing, empty, or an earlier
// report, since anything else in it would be lost. Throws InputError naming the entry where DIR
// holds what a report does not write (temporaries a killed roofcast left there aside), or where
// its index.html, a CSV file or charts/ is a symbolic link or another special file (never
// written through: the same refusal for each).
void check_report_folder(const std::filesystem::path& folder);

}  // namespace roofcast
