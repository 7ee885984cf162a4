#include "roofcast/plots/html_report.hpp"

#include <cmath>
#include <regex>
#include <set>

#include <fmt/format.h>

#include "roofcast/formats/kernel_name_text.hpp"
#include "roofcast/formats/printable_text.hpp"

namespace roofcast {

namespace {

constexpr std::string_view kStyle = R"css(
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 2rem auto;
       max-width: 1280px; padding: 0 1.5rem; color: #1d1d1f; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: 0.2rem; }
h2 { font-size: 1.25rem; margin-top: 2.2rem; border-bottom: 1px solid #ddd; padding-bottom: 0.2rem; }
.meta { color: #555; margin-top: 0; }
table { border-collapse: collapse; font-size: 0.9rem; margin: 0.6rem 0; }
th, td { padding: 0.25rem 0.6rem; border-bottom: 1px solid #e6e6e6; text-align: right; white-space: nowrap; }
th { background: #f4f4f6; font-weight: 600; }
td.name, th.name { text-align: left; }
td.name { white-space: normal; overflow-wrap: anywhere; min-width: 8rem; max-width: 28rem; }
td.memory { background: #fbe3cf; }
td.compute { background: #d6e8f5; }
.bound { display: inline-block; min-width: 1.2em; font-size: 0.75rem; font-weight: 700; color: #444; }
.measured { color: #666; font-size: 0.8rem; }
ul.warnings li { margin: 0.35rem 0; }
.kind { display: inline-block; font-size: 0.75rem; font-weight: 700; text-transform: uppercase; color: #8a4b00;
        background: #fff1dc; border-radius: 3px; padding: 0 0.35rem; margin-right: 0.4rem; }
figure { margin: 1.2rem 0 2rem 0; }
figure svg { width: 100%; height: auto; display: block; border: 1px solid #eee; }
figcaption { color: #444; font-size: 0.9rem; margin-top: 0.4rem; }
.missing { padding: 1rem; background: #fff4f4; border: 1px solid #f0caca; }
.scroll { overflow-x: auto; }
code { font-size: 0.85rem; }
)css";


// A number as `spec` formats it, or a dash when it is not finite (O_krn of a kernel without DRAM traffic).
std::string finite_or_dash(double value, std::string_view spec) {
  return std::isfinite(value) ? fmt::format(fmt::runtime(spec), value) : std::string("&ndash;");
}

std::string time_ms(double ms) {
  if (!std::isfinite(ms)) return "&ndash;";
  if (ms >= 100) return fmt::format("{:.1f}", ms);
  if (ms >= 1) return fmt::format("{:.3f}", ms);
  return fmt::format("{:.4f}", ms);
}

// Indices of the kernels the tables show: the chosen ones, or every kernel in profile order.
std::vector<size_t> kernels_shown(const ReportContent& c) {
  if (!c.shown_kernels.empty()) return c.shown_kernels;
  const size_t devices = c.device_names.size();
  std::vector<size_t> all(devices > 0 ? c.prediction->kernels.size() / devices : 0);
  for (size_t k = 0; k < all.size(); ++k) all[k] = k;
  return all;
}

size_t kernel_count(const ReportContent& c) {
  return c.device_names.empty() ? 0 : c.prediction->kernels.size() / c.device_names.size();
}

bool some_kernels_left_out(const ReportContent& c) { return kernels_shown(c).size() < kernel_count(c); }

std::string file_link(const std::string& file) {
  return fmt::format("<a href=\"{0}\"><code>{0}</code></a>", html_escaped(file));
}

// What the tables leave out and where the rest is.
std::string selection_note(const ReportContent& c) {
  std::string note;
  if (some_kernels_left_out(c))
    note = fmt::format("The tables show the {} kernels with the most predicted time (summed over the devices) of {}, "
                       "the heaviest first.",
                       kernels_shown(c).size(), kernel_count(c));
  if (!c.predictions_file.empty())
    note += fmt::format("{}Every kernel's predicted time, bound and measured time on every device: {}; every "
                        "intermediate value: <code>roofcast predict --model {} --format csv</code>.",
                        note.empty() ? "" : " ", file_link(c.predictions_file), html_escaped(c.model));
  return note.empty() ? "" : "<p>" + note + "</p>\n";
}

std::string device_totals_table(const ReportContent& c) {
  std::string html =
      "<table><tr><th class=\"name\">Device</th><th class=\"name\">Id</th><th>Predicted ms total</th>"
      "<th>Measured ms total</th><th>Memory-bound kernels</th><th>Compute-bound kernels</th></tr>\n";
  for (const auto& t : c.prediction->totals)
    html += fmt::format("<tr><td class=\"name\">{}</td><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td>"
                        "<td>{}</td></tr>\n",
                        html_escaped(t.device), html_escaped(t.device_id), time_ms(t.predicted_ms),
                        t.measured_ms ? time_ms(*t.measured_ms) : "&ndash;", t.memory_bound_kernels,
                        t.compute_bound_kernels);
  return html + "</table>\n";
}

std::string prediction_matrix(const ReportContent& c) {
  const size_t devices = c.device_names.size();
  std::string html = "<div class=\"scroll\"><table><tr><th class=\"name\">Kernel</th><th class=\"name\">Type</th>";
  for (const auto& d : c.device_names) html += fmt::format("<th>{}</th>", html_escaped(d));
  html += "</tr>\n";
  for (const size_t k : kernels_shown(c)) {
    const auto& first = c.prediction->kernels[k * devices];
    html += fmt::format("<tr><td class=\"name\">{}</td><td class=\"name\">{}</td>", html_kernel_name(first.kernel),
                        to_string(first.parameters.type));
    for (size_t d = 0; d < devices; ++d) {
      const auto& p = c.prediction->kernels[k * devices + d];
      const bool memory = p.prediction.bound == Bound::memory;
      html += fmt::format("<td class=\"{}\" title=\"{} bound\"><span class=\"bound\">{}</span> {}", to_string(p.prediction.bound),
                          to_string(p.prediction.bound), memory ? "M" : "C", time_ms(p.predicted_ms()));
      if (p.measured_ms)
        html += fmt::format("<br><span class=\"measured\">measured {} ({} %)</span>", time_ms(*p.measured_ms),
                            finite_or_dash(100 * p.error.value_or(0), "{:+.1f}"));
      html += "</td>";
    }
    html += "</tr>\n";
  }
  return html + "</table></div>\n";
}

std::string thesis_details_row(const KernelPrediction& p, const ThesisPrediction& t) {
  return fmt::format(
      "<tr><td class=\"name\">{}</td><td class=\"name\">{}</td><td class=\"name {}\">{}</td><td>{}</td><td>{}</td>"
      "<td>{}</td><td>{} %</td><td>{} %</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
      "<td>{}</td><td>{}</td></tr>\n",
      html_kernel_name(p.kernel), html_escaped(p.device), to_string(p.prediction.bound), to_string(p.prediction.bound),
      time_ms(p.predicted_ms()), p.measured_ms ? time_ms(*p.measured_ms) : "&ndash;",
      p.error ? finite_or_dash(100 * *p.error, "{:+.2f}") : "&ndash;", finite_or_dash(100 * p.parameters.E_mix, "{:.2f}"),
      finite_or_dash(100 * t.E_instr, "{:.2f}"), finite_or_dash(t.T_op, "{:.2f}"),
      finite_or_dash(t.T_op_adjusted, "{:.2f}"), finite_or_dash(t.O_krn, "{:.4f}"),
      finite_or_dash(t.O_dev, "{:.4f}"), finite_or_dash(p.parameters.W_comp, "{:.4g}"),
      finite_or_dash(p.parameters.W_traf, "{:.4g}"));
}

std::string pipes_details_row(const KernelPrediction& p, const PipesPrediction& r) {
  return fmt::format(
      "<tr><td class=\"name\">{}</td><td class=\"name\">{}</td><td class=\"name {}\">{}</td><td>{}</td><td>{}</td>"
      "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
      html_kernel_name(p.kernel), html_escaped(p.device), to_string(p.prediction.bound), html_escaped(r.limiter),
      time_ms(p.predicted_ms()), p.measured_ms ? time_ms(*p.measured_ms) : "&ndash;",
      p.error ? finite_or_dash(100 * *p.error, "{:+.2f}") : "&ndash;", time_ms(r.compute_ms), time_ms(r.memory_ms),
      time_ms(r.latency.ms), time_ms(r.launch_ms));
}

std::string details_table(const ReportContent& c) {
  const bool thesis = c.model == "thesis";
  std::string html =
      "<details><summary>Every intermediate value of the model (kernel &times; device; times in ms, totals over "
      "the kernel's profiled launches)</summary>"
      "<div class=\"scroll\"><table><tr><th class=\"name\">Kernel</th><th class=\"name\">Device</th>";
  html += thesis ? "<th class=\"name\">Bound</th><th>Predicted ms total</th><th>Measured ms total</th><th>Error %</th><th>E_mix</th>"
                   "<th>E_instr</th><th>T_op</th><th>T'_op</th><th>O_krn</th><th>O_dev</th><th>W_comp</th>"
                   "<th>W_traf (bytes)</th></tr>\n"
                 : "<th class=\"name\">Limiter</th><th>Predicted ms total</th><th>Measured ms total</th><th>Error %</th>"
                   "<th>Compute ms total</th><th>Memory ms total</th><th>Latency ms total</th><th>Launch ms total</th></tr>\n";
  const size_t devices = c.device_names.size();
  for (const size_t k : kernels_shown(c))
    for (size_t d = 0; d < devices; ++d) {
      const KernelPrediction& p = c.prediction->kernels[k * devices + d];
      if (const auto* t = p.prediction.thesis()) html += thesis_details_row(p, *t);
      if (const auto* r = p.prediction.pipes()) html += pipes_details_row(p, *r);
    }
  return html + "</table></div></details>\n";
}

std::string device_notes_list(const ReportContent& c) {
  if (c.device_notes.empty()) return "";
  std::string items;
  for (const auto& note : c.device_notes) items += fmt::format("<li>{}</li>\n", html_escaped(note));
  return fmt::format("<p><span class=\"kind\">device profiles</span>Terms the model goes without on these devices, "
                     "for want of bench keys in their profiles.</p>\n<ul class=\"warnings\">\n{}</ul>\n",
                     items);
}

std::string warnings_list(const ReportContent& c) {
  if (c.warnings.empty()) return "<p>No warnings: no short invocations, no kernel with most of its traffic in L2, "
                                 "no compute-bound kernel under 25 % utilization.</p>\n";
  // A large profile lists the warnings of the kernels the tables show; the file has them all.
  std::set<std::string_view> shown;
  if (some_kernels_left_out(c))
    for (const size_t k : kernels_shown(c)) shown.insert(c.profile->kernels[k].name);
  std::string html;
  for (const auto kind : {ReportWarning::Kind::l2_traffic, ReportWarning::Kind::short_invocation,
                          ReportWarning::Kind::low_utilization}) {
    std::string items;
    size_t others = 0;
    for (const auto& w : c.warnings) {
      if (w.kind != kind) continue;
      if (shown.empty() || shown.contains(w.kernel))
        items += fmt::format("<li><strong>{}</strong>: {}</li>\n", html_kernel_name(w.kernel), html_escaped(w.detail));
      else
        ++others;
    }
    if (others > 0)
      items += fmt::format("<li>and {} more kernels{}</li>\n", others,
                           c.warnings_file.empty() ? "" : " (all in " + file_link(c.warnings_file) + ")");
    if (items.empty()) continue;
    html += fmt::format("<p><span class=\"kind\">{}</span>{}</p>\n<ul class=\"warnings\">\n{}</ul>\n",
                        to_string(kind), html_escaped(explanation(kind)), items);
  }
  return html;
}

std::string charts_section(const ReportContent& c) {
  std::string html;
  for (size_t i = 0; i < c.charts.size(); ++i) {
    const auto& chart = c.charts[i];
    html += fmt::format("<figure id=\"chart-{}\">\n<h3>{}</h3>\n", i + 1, html_escaped(chart.title));
    if (chart.svg.empty())
      html += fmt::format("<div class=\"missing\">{}</div>\n", html_escaped(chart.missing_note));
    else
      html += inline_svg(chart.svg, fmt::format("c{}-", i + 1), chart.title) + "\n";
    html += fmt::format("<figcaption>{}{}</figcaption>\n</figure>\n", html_escaped(chart.caption),
                        chart.source_files.empty()
                            ? ""
                            : fmt::format(" <br>Restyle it: <code>{}</code>", html_escaped(chart.source_files)));
  }
  return html;
}

}  // namespace

std::string html_kernel_name(const std::string& name) {
  const std::string shown = shortened_kernel_name(name);
  return shown == name ? html_escaped(name)
                       : fmt::format("<span title=\"{}\">{}</span>", html_escaped(name), html_escaped(shown));
}

std::string html_escaped(std::string_view text) {
  std::string result;
  for (const char ch : printable(text)) {
    switch (ch) {
      case '&': result += "&amp;"; break;
      case '<': result += "&lt;"; break;
      case '>': result += "&gt;"; break;
      case '"': result += "&quot;"; break;
      case '\'': result += "&#39;"; break;
      default: result += ch;
    }
  }
  return result;
}

std::string inline_svg(std::string_view svg, std::string_view id_prefix, std::string_view label) {
  std::string text(svg.substr(std::min(svg.find("<svg"), svg.size())));
  const std::string prefix(id_prefix);
  text = std::regex_replace(text, std::regex(R"re(\bid=(['"]))re"), "id=$1" + prefix);
  // gnuplot repeats a plot's group id when it redraws an opaque key; ids must be unique in a page.
  {
    std::string unique;
    std::set<std::string> seen;
    const std::regex id(R"re(\bid=(['"])([^'"]*)\1)re");
    auto last = text.cbegin();
    for (std::sregex_iterator it(text.cbegin(), text.cend(), id), end; it != end; ++it) {
      unique.append(last, (*it)[0].first);
      std::string value = (*it)[2].str();
      for (int copy = 2; seen.contains(value); ++copy) value = fmt::format("{}-{}", (*it)[2].str(), copy);
      seen.insert(value);
      unique += fmt::format("id={0}{1}{0}", (*it)[1].str(), value);
      last = (*it)[0].second;
    }
    unique.append(last, text.cend());
    text = std::move(unique);
  }
  text = std::regex_replace(text, std::regex(R"re(href=(['"])#)re"), "href=$1#" + prefix);
  text = std::regex_replace(text, std::regex(R"re(url\(#)re"), "url(#" + prefix);
  const auto open = text.find("<svg");
  if (open != std::string::npos)
    text.insert(open + 4, fmt::format(" role=\"img\" aria-label=\"{}\"", html_escaped(label)));
  return text;
}

std::string html_report(const ReportContent& c) {
  const std::string reference =
      c.profile && !c.profile->reference_device.empty() ? c.profile->reference_device : std::string("unknown");
  std::string html = fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; "
      "img-src data:\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>roofcast report: {0}</title>\n<style>{1}</style>\n</head>\n<body>\n"
      "<h1>roofcast report: {0}</h1>\n"
      "<p class=\"meta\">{2} kernels on {3} devices &middot; {6} &middot; counters "
      "from reference device {4} &middot; {5}</p>\n",
      html_escaped(c.profile_label), kStyle, c.profile ? c.profile->kernels.size() : 0, c.device_names.size(),
      html_escaped(reference), html_escaped(c.generated_by),
      c.model == "thesis" ? "thesis model (Konstantinidis 2017)" : html_escaped(c.model) + " model");
  html += "<h2>Totals per device</h2>\n" + device_totals_table(c);
  html += fmt::format("<h2>Warnings ({})</h2>\n", c.warnings.size() + c.device_notes.size()) + device_notes_list(c) +
          warnings_list(c);
  const bool thesis = c.model == "thesis";
  html += std::string("<h2>Predicted time per kernel (ms, total over its profiled launches)</h2>\n") +
          (thesis ? "<p>M: memory bound (limited by DRAM bandwidth), C: compute bound (limited by the kernel's adjusted "
                    "throughput T'_op). "
                  : "<p>M: memory bound (DRAM, L2 or L1 traffic), C: compute bound (a pipe, the issue limit, tensor "
                    "cores, shared memory or atomics). ") +
          "Measured times, where the profile has them, below with the prediction's error.</p>\n" +
          selection_note(c) + prediction_matrix(c) + details_table(c);
  html += diagnostics_section_html(c);
  html += "<h2>Charts</h2>\n" + charts_section(c);
  html += thesis ? "<p class=\"meta\">Written by roofcast. Method: model.md (thesis chapters 3-4): predicted time = "
                   "W_comp / min(T'_op, O_krn &times; B_mem).</p>\n</body>\n</html>\n"
                 : "<p class=\"meta\">Written by roofcast. Method: pipes-model.md: predicted time = launch + "
                   "max(compute, memory, latency, block dispatch).</p>\n</body>\n</html>\n";
  return html;
}

}  // namespace roofcast
