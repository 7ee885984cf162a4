#include "roofcast/plots/report_diagnostics.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "roofcast/plots/html_report.hpp"

namespace roofcast {

namespace {

// As `roofcast explain` prints them, so that the two can be compared by eye.
std::string explain_ms(double ms) { return fmt::format("{:.6f}", ms); }

std::string change_percent(const Diagnostic& d) {
  return fmt::format("{:+.1f}", d.predicted_ms > 0 ? 100 * (d.fixed_ms - d.predicted_ms) / d.predicted_ms : 0.0);
}

std::string firing_table(const ReportContent& c, const std::vector<const ReportDiagnostic*>& firing) {
  std::string html =
      "<div class=\"scroll\"><table><tr><th class=\"name\">Kernel</th><th class=\"name\">Device</th>"
      "<th class=\"name\">Diagnostic</th><th class=\"name\">Finding</th><th>Predicted ms total</th><th>If fixed ms total</th>"
      "<th>Saves ms total</th><th>Change %</th></tr>\n";
  for (const ReportDiagnostic* r : firing) {
    const Diagnostic& d = r->diagnostic;
    html += fmt::format(
        "<tr><td class=\"name\">{}</td><td class=\"name\">{}</td><td class=\"name\">{}</td><td class=\"name\">{}</td>"
        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        html_kernel_name(c.profile->kernels[r->kernel].name), html_escaped(c.device_names[r->device]),
        html_escaped(d.name), html_escaped(d.finding), explain_ms(d.predicted_ms), explain_ms(d.fixed_ms),
        explain_ms(r->saved_ms()), change_percent(d));
  }
  return html + "</table></div>\n";
}

// One item per kernel and diagnostic, naming the devices when it is measured on some of them.
std::string not_measured_list(const ReportContent& c, const std::vector<const ReportDiagnostic*>& missing) {
  std::map<std::tuple<size_t, std::string, std::string>, std::vector<size_t>> devices_of;
  std::vector<std::tuple<size_t, std::string, std::string>> order;
  for (const ReportDiagnostic* r : missing) {
    auto key = std::make_tuple(r->kernel, r->diagnostic.name, r->diagnostic.finding);
    auto [it, added] = devices_of.try_emplace(key);
    if (added) order.push_back(key);
    it->second.push_back(r->device);
  }
  std::string html = "<ul class=\"warnings\">\n";
  for (const auto& key : order) {
    const auto& [kernel, name, finding] = key;
    const auto& devices = devices_of[key];
    std::string on;
    if (devices.size() < c.device_names.size()) {
      std::vector<std::string> names;
      for (const size_t d : devices) names.push_back(html_escaped(c.device_names[d]));
      on = fmt::format(" (on {})", fmt::join(names, ", "));
    }
    html += fmt::format("<li><strong>{}</strong>: {}: {}{}</li>\n", html_kernel_name(c.profile->kernels[kernel].name),
                        html_escaped(name), html_escaped(finding), on);
  }
  return html + "</ul>\n";
}

}  // namespace

std::vector<Diagnostic> reported_diagnostics(const KernelRecord& kernel, const DeviceProfile& device,
                                             const PipesTerms& terms) {
  if (!std::holds_alternative<KernelCounters>(kernel.description)) {
    Diagnostic d;
    d.name = "all diagnostics";
    d.finding = "not measured (the profile gives this kernel's model parameters, not its counters)";
    return {d};
  }
  std::vector<Diagnostic> result = diagnose(kernel, device, terms);
  std::erase_if(result, [](const Diagnostic& d) { return d.measured && !d.applies; });
  return result;
}

std::vector<ReportDiagnostic> report_diagnostics(const KernelProfile& profile, const std::vector<DeviceProfile>& devices,
                                                 const std::vector<size_t>& kernels, const PipesTerms& terms) {
  std::vector<ReportDiagnostic> result;
  for (const size_t k : kernels)
    for (size_t d = 0; d < devices.size(); ++d)
      for (auto& diagnostic : reported_diagnostics(profile.kernels[k], devices[d], terms))
        result.push_back({k, d, std::move(diagnostic)});
  std::stable_sort(result.begin(), result.end(), [](const ReportDiagnostic& a, const ReportDiagnostic& b) {
    if (a.diagnostic.applies != b.diagnostic.applies) return a.diagnostic.applies;
    return a.saved_ms() > b.saved_ms();
  });
  return result;
}

std::string diagnostics_section_html(const ReportContent& c) {
  std::string html = "<h2>Diagnostics</h2>\n";
  if (c.model == "thesis")
    return html + "<p>The diagnostics (uncoalesced global loads, warp divergence, shared-memory bank conflicts, "
                  "occupancy limiter, tail effect) are predictions of the pipes model, as <code>roofcast "
                  "explain</code> gives them: this report uses the thesis model; <code>roofcast report --model "
                  "pipes</code> lists them.</p>\n";
  std::vector<const ReportDiagnostic*> firing, missing;
  for (const auto& r : c.diagnostics) (r.diagnostic.applies ? firing : missing).push_back(&r);
  html += "<p>What each kernel the tables show wastes on each device: uncoalesced global loads (sectors per request "
          "against the ideal for the access width), warp divergence (active threads per warp instruction), "
          "shared-memory bank conflicts (wavefronts per request), the occupancy limiter and the tail effect (a "
          "partial last wave). Each is predicted alone at its ideal with the pipes model, as <code>roofcast explain "
          "--kernel K --device D</code> prints it (the predicted time there includes the block-dispatch bound, so it "
          "can differ from the tables above); the largest saving first.";
  if (!c.diagnostics_file.empty())
    html += fmt::format(fmt::runtime(c.diagnostics_file_has_every_kernel
                            ? " Those of every kernel, with full precision: <a href=\"{0}\"><code>{0}</code></a>."
                            : " The same with full precision: <a href=\"{0}\"><code>{0}</code></a>; every kernel's "
                              "with <code>roofcast report --all-diagnostics</code>."),
                        html_escaped(c.diagnostics_file));
  html += "</p>\n";
  html += firing.empty() ? "<p>No diagnostic fires for these kernels.</p>\n" : firing_table(c, firing);
  if (!missing.empty())
    html += "<p>Not measured (each line says what is missing: counters, which <code>roofcast profile</code> records "
            "with its default <code>--metrics full</code>, or a launch shape and the device's occupancy limits):</p>\n" +
            not_measured_list(c, missing);
  return html;
}

}  // namespace roofcast
