// The roofline chart: ceilings, kernels and sweeps land in the data, script and SVG where the model puts them.
#include <catch2/catch.hpp>

#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>

#include <fmt/format.h>

#include "chart_checks.hpp"
#include "gnuplot_text.hpp"
#include "text_boxes.hpp"
#include "roofcast/data/bundled_data.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/plots/roofline_chart.hpp"

using namespace roofcast;
using namespace roofcast::testing;

namespace {

DeviceProfile bundled(const char* name) {
  auto device = find_bundled_device(name);
  REQUIRE(device);
  return *device;
}

// A device as a modern `roofcast bench` writes it: extra peaks and a measured sweep.
DeviceProfile modern_device() {
  DeviceProfile device;
  device.name = "Test GPU <sxm>";
  device.throughput = {60000, 30000, 30000, 60000, 20000, 3000};
  device.extra_throughput = {{"half2_gflops", 120000},  {"tensor_fp16_tflops", 700}, {"l2_gbps", 9000},
                             {"l1_gbps", 25000},        {"dram_read_gbps", 3100},    {"launch_overhead_us", 2.5},
                             {"fp32_theoretical", 67000}, {"memcpy_d2d_gbps", 2900},  {"shared_ldst64_gops", 9000},
                             {"tensor_bf16_gflops", 690000}};
  for (int i = 0; i < 6; ++i) {
    const double intensity = 0.25 * std::pow(4.0, i);
    device.roofline_sweep.push_back({"fp32", double(i * 8), intensity, 1.0, std::min(3000 * intensity, 58000.0), 0});
  }
  return device;
}

}  // namespace

TEST_CASE("roofline ceilings: the six throughputs and every extra peak, with value and unit") {
  const auto ceilings = roofline_ceilings(modern_device());
  std::vector<std::string> labels;
  for (const auto& c : ceilings) labels.push_back(c.label());
  CHECK_THAT(fmt::format("{}", fmt::join(labels, "|")),
             Catch::Equals("fp64 30000 GFLOP/s|fp32 60000 GFLOP/s|int32 MAD 30000 GIOP/s|DRAM 3000 GB/s|"
                           "fp16 (half2) 120000 GFLOP/s|L1 25000 GB/s|L2 9000 GB/s|tensor bf16 690000 GFLOP/s|"
                           "tensor fp16 700000 GFLOP/s"));
}

TEST_CASE("roofline of a thesis device: kernels sit at O_krn and the model's attained throughput") {
  const DeviceProfile device = bundled("GTX-660");
  const auto profile = find_bundled_profile("thesis-redblack");
  REQUIRE(profile);
  const auto points = roofline_kernel_points(device, *profile, *roofcast::make_predictor("thesis"));
  REQUIRE(points.size() == 1);
  CHECK(points[0].name == "sor_red");
  CHECK(points[0].O_krn == Approx(0.3019).margin(5e-5));
  CHECK(points[0].bound == Bound::compute);
  CHECK(points[0].predicted_gops == Approx(28.92).margin(5e-3));  // T'_op (thesis worked example)
  CHECK(points[0].predicted_ms == Approx(34.803).margin(5e-4));
  REQUIRE(points[0].measured_ms);
  CHECK(*points[0].measured_ms == Approx(34.851));
  // W_comp / measured time: the throughput the GTX-660 really reached.
  CHECK(*points[0].measured_gops == Approx(28.92 * 34.803 / 34.851).epsilon(1e-3));

  const GnuplotChart chart = roofline_chart(device, &*profile, "thesis-redblack", *chart_target_for("roofline.svg"), *roofcast::make_predictor("thesis"));
  CHECK(chart.data_file_name == "roofline.dat");
  CHECK(chart.script_file_name == "roofline.gp");
  CHECK_THAT(chart.data, Catch::Contains("1 0.30186 28.9244 3.200 13983232 28.8844 \"sor_red\""));  // O_krn T'_op size rgb measured
  CHECK_THAT(chart.script, Catch::Contains("set logscale xy"));
  CHECK_THAT(chart.script, Catch::Contains("set output output_file"));

  const RenderedSvg svg = render_svg(chart);
  const std::string text = svg_text(*svg.root);
  for (const char* label : {"fp32 1941 GFLOP/s", "fp64 89.7 GFLOP/s", "int32 MAD 359 GIOP/s", "DRAM 117.6 GB/s",
                            "sor_red", "Roofline of GTX-660"})
    CHECK_THAT(text, Catch::Contains(label));
}

TEST_CASE("roofline of the Rodinia kernels numbers every kernel in its key") {
  const auto profile = find_bundled_profile("thesis-rodinia");
  REQUIRE(profile);
  const GnuplotChart chart =
      roofline_chart(bundled("GTX-1060 6GB"), &*profile, "thesis-rodinia", *chart_target_for("r.svg"), *roofcast::make_predictor("thesis"));
  const RenderedSvg svg = render_svg(chart);
  const std::string text = svg_text(*svg.root);
  int number = 1;
  for (const auto& kernel : profile->kernels) {
    INFO(kernel.name);
    CHECK_THAT(text, Catch::Contains(fmt::format("{:>2} {}", number++, kernel.name)));
  }
}

TEST_CASE("roofline draws extra ceilings and the measured sweep, and escapes odd names") {
  const DeviceProfile device = modern_device();
  const GnuplotChart chart = roofline_chart(device, nullptr, "", *chart_target_for("modern.svg"), *roofcast::make_predictor("thesis"));
  CHECK_THAT(chart.data, Catch::Contains("measured fp32 sweep"));
  for (const char* left_out : {"launch", "memcpy", "dram read", "ldst", "theoretical"})
    CHECK_THAT(chart.data, !Catch::Contains(left_out));
  const RenderedSvg svg = render_svg(chart);
  const std::string text = svg_text(*svg.root);
  for (const char* label : {"fp16 (half2) 120000 GFLOP/s", "tensor fp16 700000 GFLOP/s", "tensor bf16 690000 GFLOP/s", "L2 9000 GB/s", "L1 25000 GB/s",
                            "DRAM 3000 GB/s", "Roofline of Test GPU <sxm>", "measured fp32 sweep (mixbench)"})
    CHECK_THAT(text, Catch::Contains(label));

  // The fp32 roof is drawn at 60000 GFLOP/s: its label sits beside the roof's end, at its height.
  const PlotArea area = plot_area(*svg.root, chart.script);
  const Axis y = axis_from_script(chart.script, 'y');
  REQUIRE(y.log);
  const double expected = y_pixel(60000, y, area);
  const std::vector<DrawnText> texts = drawn_texts(*svg.root);
  const auto label = std::find_if(texts.begin(), texts.end(), [](auto& t) { return t.text == "fp32 60000 GFLOP/s"; });
  REQUIRE(label != texts.end());
  CHECK(label->left() > area.right);
  CHECK(std::abs((label->top() + label->bottom()) / 2 - expected) < 8);
}

TEST_CASE("roofline chart formats follow the output extension") {
  const DeviceProfile device = bundled("GTX-480");
  CHECK_THAT(roofline_chart(device, nullptr, "", *chart_target_for("a.png"), *roofcast::make_predictor("thesis")).script,
             Catch::Contains("set terminal pngcairo"));
  CHECK_THAT(roofline_chart(device, nullptr, "", *chart_target_for("a.PDF"), *roofcast::make_predictor("thesis")).script,
             Catch::Contains("set terminal pdfcairo"));
  CHECK_THAT(roofline_chart(device, nullptr, "", *chart_target_for("a.svg"), *roofcast::make_predictor("thesis")).script, Catch::Contains("set terminal svg"));
  CHECK_FALSE(chart_target_for("a.jpg"));
  CHECK_FALSE(chart_target_for("noextension"));
}

TEST_CASE("a device name never leaves its comment, string or data column in the script and data") {
  DeviceProfile device = modern_device();
  device.name = "GPU\nsystem('touch x')\r\n!touch y `touch z` \"q\" \\";
  const GnuplotChart chart = roofline_chart(device, nullptr, "", *chart_target_for("hostile.svg"), *roofcast::make_predictor("thesis"));
  // The name is one comment line (its trailing backslash would continue it onto the next line).
  CHECK(chart.script.starts_with("# Roofline of GPU\\x0asystem('touch x')\\x0d\\x0a!touch y `touch z` \"q\" \\x5c\n"));
  // In the title it is one single-quoted string, where gnuplot gives meaning only to ''.
  CHECK_THAT(chart.script, Catch::Contains("set title 'Roofline of GPU\\x0asystem(''touch x'')\\x0d\\x0a!touch y "
                                           "`touch z` \"q\" \\' font"));
  CHECK_THAT(chart.data, Catch::StartsWith("# Roofline of GPU\\x0asystem('touch x')"));
  for (const std::string& text : {chart.script, chart.data}) {
    CHECK_THAT(text, !Catch::Contains("\nsystem") && !Catch::Contains("\n!") && !Catch::Contains("\r"));
  }
}

TEST_CASE("roofline: kernels beyond the chart's range are listed as not drawn, every number finite") {
  const DeviceProfile device = bundled("GTX-660");
  KernelProfile profile = *find_bundled_profile("thesis-redblack");
  KernelRecord tiny = profile.kernels.front();
  tiny.name = "tiny";
  auto& counters = std::get<KernelCounters>(tiny.description).thesis;
  counters.dram_read_transactions = 1e300;  // O_krn about 1e-292: no place on the axes
  counters.dram_write_transactions = 0;
  profile.kernels.push_back(tiny);
  const GnuplotChart chart = roofline_chart(device, &profile, "p", *chart_target_for("r.svg"), *roofcast::make_predictor("thesis"));
  CHECK_THAT(chart.script, Catch::Contains(" *2 tiny") && Catch::Contains("* = off the chart, not drawn"));
  for (const std::string& text : {chart.script, chart.data})
    CHECK_THAT(text, !Catch::Contains("inf") && !Catch::Contains("nan"));
}

TEST_CASE("roofline: PyTorch's copy kernels are drawn as copies, its integer-free reductions by their type") {
  const std::string source = ROOFCAST_SOURCE_DIR;
  const std::string run = source + "/docs/validation/2026-11-24-latency/h200-run";
  std::ifstream device_in(run + "/devices/full.json"), profile_in(run + "/profiles/pytorch_ops.json");
  std::stringstream device_text, profile_text;
  device_text << device_in.rdbuf();
  profile_text << profile_in.rdbuf();
  const DeviceProfile device = parse_device_profile(device_text.str(), "full.json");
  const KernelProfile profile = parse_kernel_profile(profile_text.str(), "pytorch_ops.json");
  const auto points = roofline_kernel_points(device, profile, *roofcast::make_predictor("pipes"));
  int copies = 0;
  for (const auto& k : points) {
    INFO(k.name);
    const bool copy = k.name.find("copy_kernel") != std::string::npos;
    CHECK(k.data_movement_only == copy);
    copies += copy;
  }
  CHECK(copies == 2);  // bfloat16_copy_kernel_cuda and direct_copy_kernel_cuda
  const GnuplotChart chart = roofline_chart(device, &profile, "pytorch_ops", *chart_target_for("copies.svg"),
                                            *roofcast::make_predictor("pipes"));
  CHECK_THAT(chart.script, Catch::Contains(" copy memory ") && Catch::Contains("copy (no floating point"));
}

TEST_CASE("roofline tics: decades in one style, never an exponent like 1e+07") {
  const DeviceProfile device = modern_device();
  for (const char* file : {"tics.svg", "tics.png"}) {
    const GnuplotChart chart = roofline_chart(device, nullptr, "", *chart_target_for(file), *roofcast::make_predictor("thesis"));
    // The same list for every format: labels of powers of ten, none in exponent form.
    std::smatch tics;
    REQUIRE(std::regex_search(chart.script, tics, std::regex(R"(set ytics \((.*)\))")));
    INFO(tics[1].str());
    CHECK_THAT(tics[1].str(), Catch::Contains("'10⁶' 1e+06"));
    const std::regex tic(R"('([^']*)' [0-9.e+-]+)");
    for (auto it = std::sregex_iterator(chart.script.begin(), chart.script.end(), tic); it != std::sregex_iterator(); ++it)
      CHECK_THAT((*it)[1].str(), !Catch::Contains("e+") && !Catch::Contains("e-"));
    CHECK_THAT(chart.script, !Catch::Contains("set format"));
  }
  // Every tic of the lists is drawn, at the axes' ends too (gnuplot drops one at exactly the lower end).
  const std::string h100 = std::string(ROOFCAST_SOURCE_DIR) + "/docs/validation/2026-11-24-latency/h100-run/devices/full.json";
  std::ifstream in(h100);
  std::stringstream h100_text;
  h100_text << in.rdbuf();
  const GnuplotChart chart = roofline_chart(parse_device_profile(h100_text.str(), h100), nullptr, "",
                                            *chart_target_for("tics.svg"), *roofcast::make_predictor("thesis"));
  const RenderedSvg svg = render_svg(chart);
  const PlotArea area = plot_area(*svg.root, chart.script);
  std::map<char, std::vector<std::string>> drawn;  // the texts left of the plot (y) and under it (x)
  for (const auto& t : drawn_texts(*svg.root)) {
    if (t.right() <= area.left) drawn['y'].push_back(t.text);
    if (t.top() >= area.bottom) drawn['x'].push_back(t.text);
  }
  int tics = 0;
  for (const char axis : {'x', 'y'}) {
    std::smatch list;
    REQUIRE(std::regex_search(chart.script, list, std::regex(std::string("set ") + axis + R"(tics \((.*)\))")));
    const std::string tics_text = list[1];
    const std::regex tic(R"('([^']*)')");
    for (auto it = std::sregex_iterator(tics_text.begin(), tics_text.end(), tic); it != std::sregex_iterator(); ++it, ++tics) {
      INFO(axis << " tic " << (*it)[1]);
      CHECK(std::count(drawn[axis].begin(), drawn[axis].end(), (*it)[1].str()) == 1);
    }
  }
  CHECK(tics >= 8);
}

TEST_CASE("tic labels of the log axes (quadrant, accuracy) are never in exponent form") {
  CHECK(gnuplot::tic_label(0.01) == "0.01");
  CHECK(gnuplot::tic_label(500000) == "500000");
  CHECK(gnuplot::tic_label(1e6) == "10⁶");
  CHECK(gnuplot::tic_label(2e7) == "2×10⁷");
  CHECK(gnuplot::tic_label(1e-5) == "10⁻⁵");
  // Labels in quotes, positions as numbers gnuplot reads.
  CHECK(gnuplot::log_tics(2e5, 5e7) ==
        "('200000' 200000, '500000' 500000, '10⁶' 1e+06, '2×10⁶' 2e+06, '5×10⁶' 5e+06, '10⁷' 1e+07, "
        "'2×10⁷' 2e+07, '5×10⁷' 5e+07)");
}
