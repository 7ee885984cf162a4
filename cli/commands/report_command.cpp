// `roofcast report`: one self-contained HTML page with the predictions, the warnings and
// the charts of a profile on some devices.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <memory>
#include <set>

#include <fmt/chrono.h>
#include <fmt/format.h>

#include "commands/commands.hpp"
#include "all_gpus.hpp"
#include "inputs.hpp"
#include "missing_bench_keys.hpp"
#include "roofcast/output/table.hpp"
#include "roofcast/formats/command_line.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/kernel_name_text.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/model/device_name.hpp"
#include "roofcast/model/for_each_parallel.hpp"
#include "roofcast/model/predictor.hpp"
#include "roofcast/model/profile_prediction.hpp"
#include "roofcast/plots/accuracy_chart.hpp"
#include "roofcast/plots/chart_values.hpp"
#include "roofcast/plots/html_report.hpp"
#include "roofcast/plots/quadrant_chart.hpp"
#include "roofcast/plots/render_chart.hpp"
#include "roofcast/plots/report_diagnostics.hpp"
#include "roofcast/plots/report_folder.hpp"
#include "roofcast/plots/report_warnings.hpp"
#include "roofcast/plots/roofline_chart.hpp"
#include "roofcast/plots/validation_entries.hpp"
#include "roofcast/version.hpp"

namespace roofcast {

namespace {

struct ReportOptions {
  std::string profile;
  std::vector<std::string> devices;
  std::string output;
  int quadrant_kernels = 3;
  size_t top = 50;
  std::string model;
  bool all_diagnostics = false;
  bool all_gpus = false;
};

// Indices of the kernels that take the most predicted time over all devices, most first.
std::vector<size_t> heaviest_kernels(const KernelProfile& profile, const ProfilePrediction& prediction, size_t count) {
  const size_t devices = prediction.totals.size();  // kernel k on device d: kernels[k * devices + d]
  std::vector<std::pair<double, size_t>> totals;
  for (size_t k = 0; k < profile.kernels.size(); ++k) {
    double total = 0;
    for (size_t d = 0; d < devices; ++d) total += prediction.kernels[k * devices + d].predicted_ms();
    totals.emplace_back(total, k);
  }
  // The `count` first of a stable sort, most time first: ties in profile order.
  const auto kept = static_cast<std::ptrdiff_t>(std::min(count, totals.size()));
  std::partial_sort(totals.begin(), totals.begin() + kept, totals.end(),
                    [](const auto& a, const auto& b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
  std::vector<size_t> result;
  for (auto it = totals.begin(); it != totals.begin() + kept; ++it) result.push_back(it->second);
  return result;
}

// The report's matrix in full: one row per kernel with its predicted time, bound and measured
// time on each device, and every warning. A large profile's page shows only its heaviest kernels.
// Both files become outputs of the report in `outputs`. `device_labels`: the devices' names, told
// apart where two share one. Times are totals over each kernel's profiled launches (`invocations`).
void write_full_data(const std::filesystem::path& folder, const ProfilePrediction& prediction,
                     const std::vector<std::string>& device_labels, const std::vector<ReportWarning>& warnings,
                     OutputFiles& outputs) {
  const size_t devices = prediction.totals.size();  // kernel k on device d: kernels[k * devices + d]
  std::string header_text;
  CsvLine header(header_text);
  header.cell("kernel").cell("K_type");
  for (const auto& device : device_labels)
    for (const char* column : {"predicted_ms", "bound", "measured_ms"}) header.cell(fmt::format("{} {}", column, device));
  header.cell("invocations").end();  // last: the times' columns keep their places
  // A row per kernel, its cells appended in place, in parts made on every core (100,000 kernels
  // x 10 devices: 3 M cells).
  const size_t kernels = devices > 0 ? prediction.kernels.size() / devices : 0;
  const std::vector<std::string> rows =
      parts_in_parallel<std::string>(kernels, 1024, [&](size_t first, size_t last, std::string& text) {
        for (size_t k = first; k < last; ++k) {
          const KernelPrediction& kernel = prediction.kernels[k * devices];
          CsvLine row(text);
          row.cell(kernel.kernel).cell(to_string(kernel.parameters.type));
          for (size_t d = 0; d < devices; ++d) {
            const KernelPrediction& p = prediction.kernels[k * devices + d];
            row.number(p.predicted_ms()).cell(to_string(p.prediction.bound)).optional_number(p.measured_ms);
          }
          row.number(static_cast<double>(kernel.invocations)).end();
        }
      });
  outputs.add(folder / kReportPredictionsFile, [&](const OutputFiles::Write& write) {
    write(header_text);
    for (const auto& part : rows) write(part);
  });

  const std::vector<std::string> warning_rows =
      parts_in_parallel<std::string>(warnings.size(), 4096, [&](size_t first, size_t last, std::string& text) {
        for (size_t i = first; i < last; ++i)
          append_csv_row({to_string(warnings[i].kind), warnings[i].kernel, warnings[i].detail}, text);
      });
  outputs.add(folder / kReportWarningsFile, [&](const OutputFiles::Write& write) {
    std::string header;
    append_csv_row({"kind", "kernel", "detail"}, header);
    write(header);
    for (const auto& part : warning_rows) write(part);
  });
}

// The diagnostics of `kernels` (indices, ascending) that fire or are not measured on each device
// (report_diagnostics.hpp), in profile order, as CSV: for each kernel, those that fire on each
// device, then each one not measured, once, with the devices it is not measured on (none
// named: on every device). Ranges of kernels are
// diagnosed on every core (each diagnostic is a prediction or two), their text joined in order.
std::string diagnostics_csv(const KernelProfile& profile, const std::vector<DeviceProfile>& devices,
                            const std::vector<size_t>& kernels, const PipesTerms& terms) {
  auto diagnose = [&](size_t first, size_t last, std::string& text) {
    for (size_t i = first; i < last; ++i) {
      const KernelRecord& kernel = profile.kernels[kernels[i]];
      // What is not measured is mostly so on every device: one row for all of them.
      std::vector<std::pair<Diagnostic, std::vector<std::string>>> not_measured;
      for (const auto& device : devices)
        for (Diagnostic& d : reported_diagnostics(kernel, device, terms)) {
          if (!d.measured) {
            auto same = std::find_if(not_measured.begin(), not_measured.end(), [&](const auto& m) {
              return m.first.name == d.name && m.first.finding == d.finding;
            });
            if (same == not_measured.end()) same = not_measured.insert(not_measured.end(), {std::move(d), {}});
            same->second.push_back(device.name);
            continue;
          }
          std::vector<std::string> row = {kernel.name, device.name, d.name, "yes", d.finding};
          for (const double value : {d.observed, d.ideal, d.predicted_ms, d.fixed_ms, d.predicted_ms - d.fixed_ms})
            row.push_back(fmt::format("{}", value));
          append_csv_row(row, text);
        }
      for (const auto& [d, on] : not_measured) {
        const std::string where = on.size() == devices.size() ? "" : fmt::format("{}", fmt::join(on, "; "));
        std::vector<std::string> row = {kernel.name, where, d.name, "no", d.finding};
        row.insert(row.end(), 5, "");
        append_csv_row(row, text);
      }
    }
  };
  const std::vector<std::string> parts = parts_in_parallel<std::string>(kernels.size(), 256, diagnose);
  std::string text;
  append_csv_row({"kernel", "device", "diagnostic", "measured", "finding", "observed", "ideal", "predicted_ms",
                  "fixed_ms", "saved_ms"},
                 text);
  for (const auto& part : parts) text += part;
  return text;
}

// The roofline chart of each device (`labelled`: the devices, told apart), made on every core:
// each reads its device's predictions of every kernel. The points come from the predictions
// made: a profile is not predicted again for each chart.
std::vector<GnuplotChart> roofline_charts(const ProfilePrediction& prediction, const KernelProfile& profile,
                                          const std::vector<DeviceProfile>& labelled, const std::string& profile_label,
                                          const std::string& model, size_t top) {
  std::vector<GnuplotChart> charts(labelled.size());
  for_each_parallel(labelled.size(), [&](size_t d) {
    const std::string name = fmt::format("roofline-{}.svg", file_name_part(labelled[d].name));
    charts[d] = roofline_chart(labelled[d], roofline_kernel_points(prediction, profile, d), profile_label,
                               *chart_target_for(name), model, top);
  });
  return charts;
}

// The report's charts folder: where it is written (inside the staging folder) and where it will be.
struct ChartsFolder {
  std::filesystem::path written, shown;
};

// Draws `chart` into `folder` as SVG and returns it for the page; when gnuplot is missing,
// the chart's data and script are still written and `missing` keeps the message.
// The chart's files become outputs of the report in `outputs`.
ReportChart draw_for_report(const GnuplotChart& chart, const ChartsFolder& folder, std::string title,
                            std::string caption, std::optional<GnuplotMissing>& missing, OutputFiles& outputs) {
  ReportChart result{std::move(title), std::move(caption), "", "", ""};
  result.source_files = fmt::format("cd {} && gnuplot {}", folder.shown.string(), chart.script_file_name);
  try {
    const ChartFiles files = render_chart(chart, folder.written, outputs);
    result.svg = read_text_file(files.drawn);
  } catch (const GnuplotMissing& error) {
    if (!missing) missing = error;
    result.missing_note = "Not drawn: gnuplot is not installed (Debian package gnuplot-nox). Its data and script are "
                          "in " + folder.shown.string() + ".";
  } catch (const InputError& error) {  // gnuplot failed: named where the chart was to be
    std::string message = error.what();
    const std::string written = folder.written.string();
    for (size_t at = message.find(written); at != std::string::npos;
         at = message.find(written, at + folder.shown.string().size()))
      message.replace(at, written.size(), folder.shown.string());
    throw InputError(message);
  }
  return result;
}

void run_report(const ReportOptions& options) {
  check_report_folder(options.output);  // before the work: a folder that is not a report is refused at once
  const KernelProfile profile = load_profile(options.profile);
  std::vector<DeviceProfile> devices;
  if (!options.all_gpus || !options.devices.empty()) devices = load_devices(options.devices, false);
  if (options.all_gpus) append_all_gpus(devices);
  const std::vector<DeviceProfile> labelled = with_distinct_names(devices);  // for headers, charts, file names
  const DeviceProfile* reference = nullptr;
  for (const auto& device : devices)
    if (same_device_name(device.name, profile.reference_device)) reference = &device;
  const std::shared_ptr<const Predictor> predictor = make_predictor(options.model);
  // A large profile's pipes details are kept only for the kernels the page shows (below): a
  // million of them would not fit in memory.
  const bool large_profile = profile.kernels.size() > options.top;
  ProfilePrediction prediction =
      predict_profile_on_every_core(*predictor, profile, devices, reference, [&](KernelPrediction& p) {
        if (large_profile && p.prediction.pipes()) p.prediction.details = std::shared_ptr<const PipesPrediction>();
      });
  require_finite_times(prediction);  // every time is printed on the page

  // The report is made in a staging folder that replaces the output folder whole at the end: one
  // run's files, never mixed with another's, and nothing at all where it fails on the way.
  const std::filesystem::path folder(options.output);
  OutputFiles outputs;
  const std::filesystem::path staging = outputs.add_folder(folder);
  const ChartsFolder charts_folder{staging / kReportChartsFolder, folder / kReportChartsFolder};
  const std::string profile_label = std::filesystem::path(options.profile).stem().string();
  std::optional<GnuplotMissing> missing;

  ReportContent content;
  content.profile_label = profile_label;
  content.model = options.model;
  content.profile = &profile;
  content.prediction = &prediction;
  for (const auto& device : labelled) content.device_names.push_back(device.name);
  content.warnings = report_warnings(profile, prediction);
  content.device_notes = missing_bench_key_notes(devices, options.model);
  for (const auto& device : devices)
    if (device.derivation)
      content.device_notes.push_back(fmt::format(
          "{}: derived, not measured: the spec sheet of {} with the achieved/peak of the measured {} ({}); "
          "`roofcast devices --from-spec {}` shows how",
          device.name, device.derivation->spec_id, device.derivation->fractions_from, device.derivation->relation,
          device.derivation->spec_id));
  warn_missing_bench_keys(devices, options.model);
  const bool large = large_profile;
  if (large) {
    content.shown_kernels = heaviest_kernels(profile, prediction, options.top);
    for (const size_t k : content.shown_kernels)
      for (size_t d = 0; d < devices.size(); ++d)
        prediction.kernels[k * devices.size() + d].prediction = predictor->predict(profile.kernels[k], devices[d]);
  }
  write_full_data(staging, prediction, content.device_names, content.warnings, outputs);
  content.predictions_file = kReportPredictionsFile;
  content.warnings_file = kReportWarningsFile;
  // The diagnostics are the pipes model's, as in `roofcast explain`: none with --model thesis.
  if (options.model != "thesis") {
    const PipesTerms terms = pipes_terms_of_model(options.model);
    std::vector<size_t> all(profile.kernels.size());
    for (size_t k = 0; k < all.size(); ++k) all[k] = k;
    std::vector<size_t> shown = large ? content.shown_kernels : all;
    content.diagnostics = report_diagnostics(profile, devices, shown, terms);
    // Every kernel's, on request: at about 15 us of CPU per kernel and device they would take
    // a 100,000-kernel report on 10 devices past its 10 s (docs/plots.md, docs/scale/).
    std::ranges::sort(shown);
    outputs.add(staging / kReportDiagnosticsFile, diagnostics_csv(profile, devices, options.all_diagnostics ? all : shown, terms));
    content.diagnostics_file = kReportDiagnosticsFile;
    content.diagnostics_file_has_every_kernel = options.all_diagnostics || !large;
  }
  content.generated_by = fmt::format("{}, {}", version_text(),
                                     utc_time_text(std::chrono::system_clock::now(), TimeStyle::readable));

  const std::vector<GnuplotChart> rooflines = roofline_charts(prediction, profile, labelled, profile_label,
                                                              predictor->name(), options.top);
  for (size_t d = 0; d < devices.size(); ++d) {
    const DeviceProfile& device = labelled[d];
    content.charts.push_back(draw_for_report(
        rooflines[d], charts_folder,
        fmt::format("Roofline of {}", device.name),
        fmt::format("Each kernel at its operational intensity O_krn and the throughput the {} model predicts it "
                    "attains on {} (its work over its predicted time); hollow markers: "
                    "measured, where known. Marker size: share of the profile's predicted time.{}",
                    options.model, device.name,
                    large ? fmt::format(" The {} kernels with the most predicted time on this device are drawn.",
                                        options.top)
                          : ""),
        missing, outputs));
  }
  std::set<std::string> quadrant_names;  // kernels whose names differ only in punctuation get -2, -3...
  for (const size_t index :
       heaviest_kernels(profile, prediction, static_cast<size_t>(std::max(0, options.quadrant_kernels)))) {
    const KernelRecord* kernel = &profile.kernels[index];
    std::string stem = "quadrant-" + file_name_part(kernel->name);
    for (int n = 2; !quadrant_names.insert(stem).second; ++n)
      stem = fmt::format("quadrant-{}-{}", file_name_part(kernel->name), n);
    const std::string name = stem + ".svg";
    content.charts.push_back(draw_for_report(
        quadrant_chart(*kernel, labelled, *chart_target_for(name), *predictor), charts_folder,
        fmt::format("Quadrant split of {}", shortened_kernel_name(kernel->name)),
        quadrant_caption(options.model),
        missing, outputs));
  }
  std::vector<AccuracyEntry> entries = validation_entries_from(prediction);
  if (large) {
    std::set<std::string_view> shown;
    for (const size_t k : content.shown_kernels) shown.insert(profile.kernels[k].name);
    std::erase_if(entries, [&](const AccuracyEntry& e) { return !shown.contains(e.kernel); });
  }
  if (!entries.empty())
    content.charts.push_back(draw_for_report(
        accuracy_chart(entries, fmt::format("stored in profile {}", profile_label),
                       *chart_target_for("accuracy.svg"), options.model),
        charts_folder, "Prediction accuracy",
        fmt::format("Predicted against measured time (the band: within 25 %), and the share of predictions within each "
                    "error. Measured times come from the profile (measured_ms, measured_ms_by_device).{}",
                    large ? fmt::format(" Kernels: the {} with the most predicted time; {} has every prediction.",
                                        options.top, kReportPredictionsFile)
                          : ""),
        missing, outputs));

  const std::filesystem::path page = folder / kReportPage;
  outputs.add(staging / kReportPage, html_report(content));
  check_report_folder(folder);  // still no more than a report, whatever ran meanwhile
  outputs.commit();
  std::cout << fmt::format("wrote {} ({} kernels on {} devices, {} warnings, {} charts; chart data and gnuplot scripts "
                           "in {}; every prediction in {}, every warning in {}{})\n",
                           printable(page.string()), profile.kernels.size(), devices.size(), content.warnings.size(),
                           content.charts.size(), printable(charts_folder.shown.string()),
                           printable((folder / kReportPredictionsFile).string()), printable((folder / kReportWarningsFile).string()),
                           content.diagnostics_file.empty()
                               ? ""
                               : fmt::format(", {} diagnostics in {}",
                                             content.diagnostics_file_has_every_kernel ? "every kernel's"
                                                                                       : "the shown kernels'",
                                             printable((folder / kReportDiagnosticsFile).string())));
  if (missing)
    throw GnuplotMissing(fmt::format("gnuplot not found: install Debian's gnuplot-nox package (apt-get install "
                                     "gnuplot-nox, or scripts/setup.sh); {} was written without its charts, whose "
                                     "data and scripts are in {}",
                                     page.string(), charts_folder.shown.string()));
}

}  // namespace

void add_report_command(CLI::App& app) {
  auto options = std::make_shared<ReportOptions>();
  CLI::App* command =
      app.add_subcommand("report", "Write an HTML report: predictions, warnings and charts of a profile on devices");
  command->add_option("--profile", options->profile, "Kernel profile: a file, or a bundled profile's name")->required();
  command->add_option("--device", options->devices, devices_option_help("Target device"));
  command->add_option("--output,-o", options->output,
                      "Folder for index.html and charts/ (new, empty, or an earlier report, which it replaces)")
      ->required();
  command->add_option("--quadrant-kernels", options->quadrant_kernels,
                      "Quadrant-split charts for this many of the most time-consuming kernels")
      ->transform(whole_number(0, 100));
  command->add_option("--top", options->top,
                      "Kernels in the tables and roofline charts of a larger profile: the N with the most predicted "
                      "time (default 50); every prediction is in predictions.csv beside index.html")
      ->transform(whole_number(1, 1e9));
  command->add_flag("--all-diagnostics", options->all_diagnostics,
                    "diagnostics.csv: every kernel's diagnostics, not only those of the kernels the tables show "
                    "(slower on a large profile)");
  command->add_flag("--all-gpus", options->all_gpus,
                    "Every measured GPU of the data folders and, derived from its spec sheet (marked derived), every GPU "
                    "of the spec table without a measured profile");
  add_model_option(*command, options->model);
  command->callback([options] { run_report(*options); });
}

}  // namespace roofcast
