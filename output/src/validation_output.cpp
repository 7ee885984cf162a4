#include "roofcast/output/validation_output.hpp"

#include <functional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofcast/output/markdown.hpp"
#include "roofcast/output/table.hpp"
#include "roofcast/formats/kernel_name_text.hpp"
#include "roofcast/formats/printable_text.hpp"

namespace roofcast {

namespace {

constexpr size_t kTableNameWidth = kKernelNameWidth;
constexpr size_t kMarkdownNameWidth = 90;
constexpr double kMissThreshold = 0.25;

std::string percent(double fraction) { return fmt::format("{:.1f}", 100 * fraction); }
std::string signed_percent(double fraction) { return fmt::format("{:+.1f}", 100 * fraction); }
// Four significant digits, trailing zeros kept so that columns read alike (34.80, 0.002300).
std::string ms(double value) { return value >= 1000 ? fmt::format("{:.1f}", value) : fmt::format("{:#.4g}", value); }

std::string group_name(const AccuracyGroup& group) { return group.device.empty() ? "all devices" : group.device; }

std::vector<std::string> summary_cells(const std::string& name, const AccuracySummary& s) {
  return {name,
          fmt::format("{}", s.kernels),
          percent(s.median_ape),
          percent(s.mean_ape),
          percent(s.within_10),
          percent(s.within_25),
          percent(s.within_50),
          fmt::format("{}", s.over_predicted),
          fmt::format("{}", s.under_predicted)};
}

const std::vector<std::string> kSummaryHeaders = {"device",         "kernels",        "median APE %",
                                                  "mean APE %",     "within 10 %",    "within 25 %",
                                                  "within 50 %",    "over-predicted", "under-predicted"};

// Rows of the accuracy summary, with or without the correction; false when no group has it.
bool summary_rows(const ValidationReport& report, bool corrected,
                  const std::function<void(std::vector<std::string>)>& add_row) {
  bool any = false;
  auto add = [&](const AccuracyGroup& group) {
    if (!corrected) {
      add_row(summary_cells(group_name(group), group.uncorrected));
      any = true;
    } else if (group.corrected) {
      add_row(summary_cells(group_name(group), *group.corrected));
      any = true;
    }
  };
  for (const auto& group : report.devices) add(group);
  add(report.overall);
  return any;
}

std::vector<std::string> entry_cells(const ValidatedPrediction& e, size_t name_width) {
  return {shortened_kernel_name(e.kernel, name_width),
          e.device,
          to_string(e.bound),
          ms(e.predicted_ms),
          ms(e.measured_ms),
          signed_percent(e.error()),
          e.corrected_ms ? ms(*e.corrected_ms) : "-",
          e.corrected_error() ? signed_percent(*e.corrected_error()) : "-"};
}

const std::vector<std::string> kEntryHeaders = {"kernel",  "device",       "bound",      "predicted ms",
                                                "measured ms", "error %", "corrected ms", "corrected error %"};

}  // namespace

std::string validation_table_text(const ValidationReport& report) {
  Table entries;
  for (size_t i = 0; i < kEntryHeaders.size(); ++i) entries.columns.push_back({kEntryHeaders[i], i >= 3});
  for (const auto& e : report.entries) entries.add_row(entry_cells(e, kTableNameWidth));

  auto summary_table = [&](bool corrected) -> std::string {
    Table table;
    for (size_t i = 0; i < kSummaryHeaders.size(); ++i) table.columns.push_back({kSummaryHeaders[i], i > 0});
    if (!summary_rows(report, corrected, [&](std::vector<std::string> row) { table.add_row(std::move(row)); }))
      return "  (none: no reference-device profile or reference times)\n";
    if (table.row_count() > 1) table.rules_after.push_back(table.row_count() - 2);
    return render_text(table);
  };
  return fmt::format("Model {}, reference device {}: {} predictions\n\n", printable(report.model),
                     report.reference_device.empty() ? "unknown" : printable(report.reference_device),
                     report.entries.size()) +
         render_text(entries) + "\nAccuracy without correction\n" + summary_table(false) +
         "\nAccuracy with the utilization correction (reference device excluded)\n" + summary_table(true);
}

std::string validation_markdown(const ValidationReport& report, const ValidationContext& context) {
  std::string out = fmt::format("# Prediction accuracy: {} model, reference device {}\n\n", markdown_text(report.model),
                                report.reference_device.empty() ? "unknown" : markdown_text(report.reference_device));
  if (!context.generated_utc.empty()) out += fmt::format("Generated {}", context.generated_utc);
  if (!context.command.empty()) out += " by\n\n" + markdown_code_block(context.command);
  out += "\nAPE = |predicted - measured| / measured (thesis eq. 5.12); over-predicted = predicted slower than "
         "measured. The utilization correction (thesis eq. 5.13) scales each prediction by measured / predicted "
         "time on the reference device, so it is scored on the other devices only.\n\n";

  for (const bool corrected : {false, true}) {
    std::vector<std::vector<std::string>> rows;
    summary_rows(report, corrected, [&](std::vector<std::string> row) { rows.push_back(std::move(row)); });
    out += corrected ? "## Accuracy with the utilization correction\n\n" : "## Accuracy\n\n";
    out += rows.empty() ? "None: no reference-device profile or no measured times on it.\n\n"
                        : markdown_table(kSummaryHeaders, rows, 1) + "\n";
  }

  std::vector<std::vector<std::string>> rows;
  for (const auto& e : report.entries) rows.push_back(entry_cells(e, kMarkdownNameWidth));
  out += "## Every prediction\n\n" + markdown_table(kEntryHeaders, rows, 3) + "\n";

  out += fmt::format("## Predictions that miss by more than {:.0f} %\n\n", 100 * kMissThreshold);
  int misses = 0;
  for (const auto& e : report.entries) {
    if (e.ape() <= kMissThreshold) continue;
    ++misses;
    out += fmt::format("- {} on {}: {} % ({} ms predicted, {} ms measured, {}, {} bound)\n",
                       markdown_code(shortened_kernel_name(e.kernel, kMarkdownNameWidth)), markdown_text(e.device),
                       signed_percent(e.error()),
                       ms(e.predicted_ms), ms(e.measured_ms), to_string(e.parameters.type), to_string(e.bound));
    for (const auto& hint : miss_hints(e)) out += fmt::format("  - {}\n", hint);
  }
  if (misses == 0) out += "None.\n";

  if (!context.skipped.empty() || !context.notes.empty()) {
    out += "\n## Notes\n\n";
    for (const auto& s : context.skipped) out += fmt::format("- not measured, left out: {}\n", markdown_text(s));
    for (const auto& n : context.notes) out += fmt::format("- {}\n", markdown_text(n));
  }
  return out;
}

}  // namespace roofcast
