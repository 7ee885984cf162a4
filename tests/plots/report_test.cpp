// The report's warnings and its HTML page, without gnuplot.
#include <catch2/catch.hpp>

#include "roofcast/data/bundled_data.hpp"
#include "roofcast/plots/html_report.hpp"
#include "roofcast/plots/report_warnings.hpp"
#include "many_kernels.hpp"
#include "xml_tree.hpp"

using namespace roofcast;

namespace {

DeviceProfile device(const char* name) { return *find_bundled_device(name); }

// sor_red of the thesis with extra counters and a chosen number of invocations.
KernelRecord sor_red_with(std::map<std::string, double> extra, int invocations = 4) {
  KernelRecord kernel = find_bundled_profile("thesis-redblack")->kernels.at(0);
  std::get<KernelCounters>(kernel.description).extra = std::move(extra);
  kernel.invocations = invocations;
  return kernel;
}

std::vector<ReportWarning> warnings_for(const KernelRecord& kernel, const std::vector<DeviceProfile>& devices) {
  KernelProfile profile{"GTX-480", {kernel}};
  return report_warnings(profile, predict_profile(*roofcast::make_predictor("thesis"), profile, devices));
}

bool has(const std::vector<ReportWarning>& warnings, ReportWarning::Kind kind) {
  return std::any_of(warnings.begin(), warnings.end(), [&](auto& w) { return w.kind == kind; });
}

}  // namespace

TEST_CASE("L2 traffic warning: above 2x the DRAM bytes, from any of the counter spellings") {
  const KernelRecord plain = sor_red_with({});
  const double dram = kernel_parameters_of(plain).W_traf;
  const std::vector<DeviceProfile> devices{device("GTX-660")};
  CHECK(l2_bytes_of(plain) == -1);
  CHECK_FALSE(has(warnings_for(plain, devices), ReportWarning::Kind::l2_traffic));
  CHECK_FALSE(has(warnings_for(sor_red_with({{"lts__t_bytes.sum", 1.9 * dram}}), devices), ReportWarning::Kind::l2_traffic));

  const auto above = warnings_for(sor_red_with({{"lts__t_bytes.sum", 2.5 * dram}}), devices);
  REQUIRE(has(above, ReportWarning::Kind::l2_traffic));
  CHECK_THAT(above.front().detail, Catch::Contains("2.5x the DRAM traffic"));

  const auto sectors = sor_red_with({{"lts__t_sectors_op_read.sum", dram / 32}, {"lts__t_sectors_op_write.sum", 2 * dram / 32}});
  CHECK(l2_bytes_of(sectors) == Approx(3 * dram));
  CHECK(has(warnings_for(sectors, devices), ReportWarning::Kind::l2_traffic));
  const auto nvprof = sor_red_with({{"l2_read_transactions", dram / 32}, {"l2_write_transactions", dram / 32}});
  CHECK(l2_bytes_of(nvprof) == Approx(2 * dram));
}

TEST_CASE("short-invocation warning: under 0.1 ms per invocation on some device") {
  const std::vector<DeviceProfile> devices{device("GTX-660"), device("GTX-480")};
  CHECK_FALSE(has(warnings_for(sor_red_with({}, 4), devices), ReportWarning::Kind::short_invocation));
  // 34.8 ms on the GTX-660 over 1000 invocations: 0.035 ms each.
  const auto warnings = warnings_for(sor_red_with({}, 1000), devices);
  REQUIRE(has(warnings, ReportWarning::Kind::short_invocation));
  const auto w = std::find_if(warnings.begin(), warnings.end(),
                              [](auto& w) { return w.kind == ReportWarning::Kind::short_invocation; });
  CHECK_THAT(w->detail, Catch::Contains("GTX-660, GTX-480"));
}

TEST_CASE("low-utilization warning: compute bound with E_mix x E_instr under 25 %") {
  KernelRecord kernel;
  kernel.name = "mostly-loads";
  kernel.description = KernelParameters{KernelType::fp32, 1e9, 1e6, 0.5, 0.05, 0.6};
  const auto warnings = warnings_for(kernel, {device("GTX-660")});
  REQUIRE(has(warnings, ReportWarning::Kind::low_utilization));
  // sor_red on the GTX-660: compute bound at 57.69 % x 55.89 % = 32 %: no warning.
  CHECK_FALSE(has(warnings_for(sor_red_with({}), {device("GTX-660")}), ReportWarning::Kind::low_utilization));
}

TEST_CASE("inline_svg prefixes ids and their references and drops the XML prolog") {
  const std::string svg = "<?xml version=\"1.0\"?>\n<svg viewBox=\"0 0 10 10\"><defs><circle id='gpPt5' r='1'/>"
                          "<use xlink:href='#gpPt5' id='gpPt6'/></defs><g clip-path=\"url(#gpclip_1)\"/></svg>";
  const std::string inlined = inline_svg(svg, "c3-", "A <chart>");
  CHECK(inlined == "<svg role=\"img\" aria-label=\"A &lt;chart&gt;\" viewBox=\"0 0 10 10\"><defs><circle id='c3-gpPt5' "
                   "r='1'/><use xlink:href='#c3-gpPt5' id='c3-gpPt6'/></defs><g clip-path=\"url(#c3-gpclip_1)\"/></svg>");
}

TEST_CASE("inline_svg makes repeated ids unique (gnuplot redraws an opaque key under the same group id)") {
  const std::string svg = "<svg><g id=\"gnuplot_plot_1\"/><g id=\"gnuplot_plot_1\"/><g id=\"gnuplot_plot_1\"/></svg>";
  CHECK(inline_svg(svg, "c1-", "x") == "<svg role=\"img\" aria-label=\"x\"><g id=\"c1-gnuplot_plot_1\"/>"
                                      "<g id=\"c1-gnuplot_plot_1-2\"/><g id=\"c1-gnuplot_plot_1-3\"/></svg>");
}

TEST_CASE("html report: tables, grouped warnings, charts or the note that replaces them") {
  const KernelProfile profile = *find_bundled_profile("thesis-redblack");
  const std::vector<DeviceProfile> devices{device("GTX-480"), device("GTX-660")};
  const ProfilePrediction prediction = predict_profile(*roofcast::make_predictor("thesis"), profile, devices, &devices[0]);
  ReportContent content;
  content.profile_label = "thesis-redblack";
  content.profile = &profile;
  content.prediction = &prediction;
  content.device_names = {"GTX-480", "GTX-660"};
  content.warnings = {{ReportWarning::Kind::short_invocation, "sor_red", "0.05 ms per invocation on <GTX-660>"}};
  content.charts = {{"Chart one", "Caption one", "<svg viewBox=\"0 0 1 1\"><circle id='a'/></svg>", "", "cd x && gnuplot a.gp"},
                    {"Chart two", "Caption two", "", "Not drawn: gnuplot is not installed", ""}};
  const std::string html = html_report(content);
  for (const char* expected : {"<!DOCTYPE html>", "default-src 'none'", "roofcast report: thesis-redblack", "sor_red",
                               "34.803", "measured 34.851", "21.456", "0.05 ms per invocation on &lt;GTX-660&gt;",
                               "Invocations under 0.1 ms", "Chart one", "id='c1-a'", "Caption one",
                               "cd x &amp;&amp; gnuplot a.gp", "Not drawn: gnuplot is not installed"})
    CHECK_THAT(html, Catch::Contains(expected));
  CHECK_THAT(html, !Catch::Contains("<script"));
}

TEST_CASE("warnings for 40,000 kernels: each kernel's own warnings, once") {
  const KernelProfile profile = roofcast::testing::many_kernels(40000);
  const std::vector<DeviceProfile> devices{device("GTX-660")};
  const ProfilePrediction prediction = predict_profile(*roofcast::make_predictor("thesis"), profile, devices);
  // Their time at scale (a lookup by name per kernel once took minutes) is measured by
  // scripts/dev/scale-bench.sh's report run, not here.
  const std::vector<ReportWarning> warnings = report_warnings(profile, prediction);
  CHECK(warnings.size() == warnings_for(profile.kernels[0], devices).size() * 40000);
}

TEST_CASE("html report of a large profile: the chosen kernels, the rest in the linked files") {
  const KernelProfile profile = roofcast::testing::many_kernels(6);
  const std::vector<DeviceProfile> devices{device("GTX-480"), device("GTX-660")};
  const ProfilePrediction prediction = predict_profile(*roofcast::make_predictor("thesis"), profile, devices);
  ReportContent content;
  content.profile_label = "many";
  content.profile = &profile;
  content.prediction = &prediction;
  content.device_names = {"GTX-480", "GTX-660"};
  content.shown_kernels = {4, 1};
  content.predictions_file = "predictions.csv";
  content.warnings_file = "warnings.csv";
  content.warnings = {{ReportWarning::Kind::short_invocation, "sor_red_variant_4", "shown"},
                      {ReportWarning::Kind::short_invocation, "sor_red_variant_0", "left out"},
                      {ReportWarning::Kind::short_invocation, "sor_red_variant_2", "left out"}};
  const std::string html = html_report(content);
  CHECK_THAT(html, Catch::Contains("The tables show the 2 kernels with the most predicted time (summed over the "
                                   "devices) of 6"));
  CHECK_THAT(html, Catch::Contains("<a href=\"predictions.csv\"><code>predictions.csv</code></a>"));
  CHECK_THAT(html, Catch::Contains("<li>and 2 more kernels (all in <a href=\"warnings.csv\">"));
  CHECK_THAT(html, Catch::Contains("<strong>sor_red_variant_4</strong>: shown"));
  CHECK_THAT(html, !Catch::Contains("left out"));
  // The matrix rows, then the details rows (kernel x device), in the chosen order.
  const size_t matrix_4 = html.find("<tr><td class=\"name\">sor_red_variant_4</td><td class=\"name\">");
  const size_t matrix_1 = html.find("<tr><td class=\"name\">sor_red_variant_1</td><td class=\"name\">");
  CHECK(matrix_4 < matrix_1);
  CHECK(html.find("sor_red_variant_0</td>") == std::string::npos);
  CHECK(html.find("sor_red_variant_5</td>") == std::string::npos);
}
