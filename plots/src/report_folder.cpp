#include "roofcast/plots/report_folder.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "roofcast/formats/files.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/printable_text.hpp"

namespace roofcast {

namespace {

namespace fs = std::filesystem;

constexpr std::array kReportFiles{kReportPage, kReportPredictionsFile, kReportWarningsFile, kReportDiagnosticsFile};
constexpr std::array kChartExtensions{".svg", ".dat", ".gp"};

bool is_chart_file(const fs::path& name) {
  for (const char* extension : kChartExtensions)
    if (name.extension() == extension) return true;
  return false;
}

bool is_report_file(const fs::path& name) {
  for (const char* file : kReportFiles)
    if (name == file) return true;
  return false;
}

bool is_random_suffix(std::string_view text, size_t length) {
  return text.size() == length && std::all_of(text.begin(), text.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)); });
}

// A temporary that a killed roofcast left beside one of the files `ours` accepts:
// ".NAME.roofcast-XXXXXXXX" (stale_temporaries.hpp), or ".NAME.XXXXXXXX" as they were named before;
// and in charts/, gnuplot's workspace (".roofcast-workspace.roofcast-XXXXXXXX", before
// ".roofcast-PID-XXXXXX").
template <typename Ours>
bool is_left_by_roofcast(std::string_view name, Ours ours) {
  if (!name.starts_with('.')) return false;
  name.remove_prefix(1);
  const size_t dot = name.rfind('.');
  if (dot == std::string_view::npos) return false;
  std::string_view base = name.substr(0, dot);
  const std::string_view suffix = name.substr(dot + 1);
  if (suffix.starts_with("roofcast-") && is_random_suffix(suffix.substr(9), 8)) return ours(fs::path(base));
  return is_random_suffix(suffix, 8) && ours(fs::path(base));
}

bool is_old_workspace(std::string_view name) {
  if (!name.starts_with(".roofcast-")) return false;
  name.remove_prefix(10);
  const size_t dash = name.find('-');
  return dash != std::string_view::npos && dash > 0 &&
         std::all_of(name.begin(), name.begin() + static_cast<long>(dash), [](char c) { return c >= '0' && c <= '9'; }) &&
         is_random_suffix(name.substr(dash + 1), 6);
}

[[noreturn]] void refuse(const fs::path& folder, const fs::path& entry) {
  throw InputError(fmt::format("{}: holds {}, which roofcast report does not write; a report replaces the whole "
                               "folder: give a new or empty folder, or move {} away",
                               printable(folder.string()), printable(entry.string()), printable(entry.string())));
}

void check_charts_folder(const fs::path& report, const fs::path& charts) {
  check_replaceable_folder(charts);
  auto chart_or_workspace = [](const fs::path& base) { return is_chart_file(base) || base == "roofcast-workspace"; };
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(charts, error)) {
    const std::string name = entry.path().filename().string();
    if (is_left_by_roofcast(name, chart_or_workspace) || is_old_workspace(name)) continue;
    if (!is_chart_file(name)) refuse(report, fs::path(kReportChartsFolder) / name);
    check_replaceable(entry.path());
  }
}

}  // namespace

void check_report_folder(const fs::path& given) {
  std::string text = given.string();
  while (text.size() > 1 && text.ends_with('/')) text.pop_back();  // "link/" would follow the link
  const fs::path folder(text);
  check_replaceable_folder(folder);
  std::error_code error;
  if (!fs::exists(fs::symlink_status(folder, error))) return;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    const fs::path name = entry.path().filename();
    if (name == kReportChartsFolder)
      check_charts_folder(folder, entry.path());
    else if (is_report_file(name))
      check_replaceable(entry.path());
    else if (!is_left_by_roofcast(name.string(), is_report_file))
      refuse(folder, name);
  }
  if (error) throw InputError(fmt::format("{}: cannot list: {}", printable(folder.string()), error.message()));
}

}  // namespace roofcast
