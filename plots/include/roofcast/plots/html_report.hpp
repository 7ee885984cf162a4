#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"
#include "roofcast/model/profile_prediction.hpp"
#include "roofcast/plots/report_diagnostics.hpp"
#include "roofcast/plots/report_warnings.hpp"

namespace roofcast {

// A chart of the report: a gnuplot SVG to inline, or a note saying why it is missing.
struct ReportChart {
  std::string title;
  std::string caption;
  std::string svg;           // as gnuplot wrote it; empty when it could not be drawn
  std::string missing_note;  // shown instead of the chart when svg is empty
  std::string source_files;  // where the chart's data and script are, for restyling
};

struct ReportContent {
  std::string profile_label;
  std::string model = "thesis";  // the model of `prediction`: "thesis" or "pipes"
  const KernelProfile* profile = nullptr;
  const ProfilePrediction* prediction = nullptr;
  std::vector<std::string> device_names;
  std::vector<ReportWarning> warnings;
  // Devices whose profile lacks bench keys the model reads, "DEVICE: what it goes without"
  // (missing_bench_key_notes): shown first under Warnings.
  std::vector<std::string> device_notes;
  std::vector<ReportChart> charts;
  // The kernels the tables show, as indices into profile->kernels, most predicted time first;
  // empty: every kernel, in profile order. A large profile shows its heaviest (`report --top`).
  std::vector<size_t> shown_kernels;
  // Files beside index.html with every prediction and every warning (linked; empty: none).
  std::string predictions_file;
  std::string warnings_file;
  // The Diagnostics section (report_diagnostics.hpp): those of the kernels the tables show, and
  // the file beside index.html with every kernel's (empty: none).
  std::vector<ReportDiagnostic> diagnostics;
  std::string diagnostics_file;
  bool diagnostics_file_has_every_kernel = false;  // else only those of the kernels the tables show
  std::string generated_by;  // e.g. "roofcast 0.1.0 on 2026-11-22 01:10 UTC"
};

// One self-contained HTML page: inline CSS and SVG, no script, no font or network fetch
// (a Content-Security-Policy forbids any).
std::string html_report(const ReportContent& content);

// A gnuplot SVG ready to sit inside HTML: the XML prolog dropped and every id (and every
// reference to one) prefixed with `id_prefix`, so that several charts on a page never clash.
std::string inline_svg(std::string_view svg, std::string_view id_prefix, std::string_view label);

// printable(text) (formats/printable_text.hpp) escaped for HTML element content and attribute
// values: & < > " ' as character references. Every name on the page goes through it.
std::string html_escaped(std::string_view text);

// A kernel's name as the page shows it: shortened by the tables' rule (shortened_kernel_name),
// the whole name in a title attribute (shown on hover) where it was shortened.
std::string html_kernel_name(const std::string& name);

}  // namespace roofcast
