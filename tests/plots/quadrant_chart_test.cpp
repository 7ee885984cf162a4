// The quadrant-split chart: each device's point at (B_mem, T_op), its adjusted point, and its
// landing point on the kernel's line, in the data file and in the SVG.
#include <catch2/catch.hpp>

#include <cmath>
#include <regex>
#include <sstream>

#include "chart_checks.hpp"
#include "text_boxes.hpp"
#include "roofcast/data/bundled_data.hpp"
#include "roofcast/plots/quadrant_chart.hpp"

using namespace roofcast;
using namespace roofcast::testing;

namespace {

const KernelRecord& sor_red() {
  static const KernelProfile profile = *find_bundled_profile("thesis-redblack");
  return profile.kernels.at(0);
}

// The devices block of the data file: name -> (B_mem, T_op, T'_op, line_x, line_y).
std::map<std::string, std::vector<double>> device_rows(const std::string& data) {
  std::map<std::string, std::vector<double>> rows;
  std::istringstream in(data);
  bool in_devices = false;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("#")) {
      in_devices = line.find("devices:") != std::string::npos;
      continue;
    }
    if (!in_devices || line.empty()) continue;
    std::istringstream fields(line);
    std::vector<double> values(5);
    for (auto& v : values) fields >> v;
    const auto quote = line.find('"');
    rows[line.substr(quote + 1, line.size() - quote - 2)] = values;
  }
  return rows;
}

}  // namespace

TEST_CASE("quadrant points follow the model: drop when memory bound, move when compute bound") {
  const auto devices = bundled_devices();
  const auto points = quadrant_points(sor_red(), devices, *roofcast::make_predictor("thesis"));
  REQUIRE(points.size() == devices.size());
  const double O_krn = kernel_parameters_of(sor_red()).O_krn();
  for (const auto& p : points) {
    INFO(p.device);
    CHECK(p.line_y == Approx(O_krn * p.line_x).epsilon(1e-9));  // on the kernel's line
    if (p.bound == Bound::memory) {
      CHECK(p.line_x == Approx(p.bandwidth));       // vertical drop
      CHECK(p.line_y <= p.T_op_adjusted * (1 + 1e-12));
    } else {
      CHECK(p.line_y == Approx(p.T_op_adjusted));  // horizontal move
      CHECK(p.line_x <= p.bandwidth * (1 + 1e-12));
    }
  }
  const auto gtx660 = std::find_if(points.begin(), points.end(), [](auto& p) { return p.device == "GTX-660"; });
  REQUIRE(gtx660 != points.end());
  CHECK(gtx660->bound == Bound::compute);
  CHECK(gtx660->T_op == Approx(89.70));
  CHECK(gtx660->T_op_adjusted == Approx(28.92).margin(5e-3));
  CHECK(gtx660->predicted_ms == Approx(34.803).margin(5e-4));
}

TEST_CASE("quadrant chart: every device's point lands at its bandwidth and throughput in the SVG") {
  const auto devices = bundled_devices();
  for (const auto scale : {QuadrantScale::log, QuadrantScale::linear}) {
    const GnuplotChart chart = quadrant_chart(sor_red(), devices, *chart_target_for("quadrant.svg"), *roofcast::make_predictor("thesis"), scale);
    const auto rows = device_rows(chart.data);
    REQUIRE(rows.size() == devices.size());
    for (const auto& device : devices) {
      INFO(device.name);
      REQUIRE(rows.contains(device.name));
      CHECK(rows.at(device.name)[0] == Approx(device.throughput.dram_gbps).epsilon(1e-5));
      CHECK(rows.at(device.name)[1] == Approx(device.throughput.fp64_gflops).epsilon(1e-5));  // sor_red is fp64
    }

    const RenderedSvg svg = render_svg(chart);
    const PlotArea area = plot_area(*svg.root, chart.script);
    const Axis x = axis_from_script(chart.script, 'x'), y = axis_from_script(chart.script, 'y');
    CHECK(x.log == (scale == QuadrantScale::log));
    const std::string text = svg_text(*svg.root);
    CHECK_THAT(text, Catch::Contains("memory bound (above the line)"));
    // On linear axes the compute-bound region of this kernel is a sliver: the key names it.
    if (scale == QuadrantScale::log) CHECK_THAT(text, Catch::Contains("compute bound (below the line)"));
    CHECK_THAT(text, Catch::Contains("compute-bound region"));
    for (const auto& device : devices) {
      INFO(device.name);
      CHECK_THAT(text, Catch::Contains(device.name));
      const int number = plot_number(chart.script, device.name + ":");
      REQUIRE(number > 0);
      const auto markers = markers_of(*svg.root, number, area);
      REQUIRE(markers.size() == 1);
      CHECK(markers[0].first == Approx(x_pixel(device.throughput.dram_gbps, x, area)).margin(1.0));
      CHECK(markers[0].second == Approx(y_pixel(device.throughput.fp64_gflops, y, area)).margin(1.0));
    }
  }
}

TEST_CASE("quadrant chart of an int kernel uses the integer throughput and unit") {
  const KernelProfile rodinia = *find_bundled_profile("thesis-rodinia");
  const auto kernel = std::find_if(rodinia.kernels.begin(), rodinia.kernels.end(), [](auto& k) { return k.name == "bfs-k2"; });
  REQUIRE(kernel != rodinia.kernels.end());
  const auto devices = bundled_devices();
  const GnuplotChart chart = quadrant_chart(*kernel, devices, *chart_target_for("q.svg"), *roofcast::make_predictor("thesis"));
  CHECK_THAT(chart.script, Catch::Contains("int GIOP/s"));
  const auto rows = device_rows(chart.data);
  for (const auto& device : devices) CHECK(rows.at(device.name)[1] == Approx(device.throughput.int32_mad_giops).epsilon(1e-5));
}

TEST_CASE("quadrant points of the pipes model: the adjusted point's side of the line is the bound, the arrow follows") {
  const auto devices = bundled_devices();
  for (const char* model : {"thesis", "pipes"}) {
    INFO(model);
    const auto points = quadrant_points(sor_red(), devices, *roofcast::make_predictor(model));
    const double O_krn = kernel_parameters_of(sor_red()).O_krn();
    for (const auto& p : points) {
      INFO(p.device);
      // Above the line exactly when memory bound: what the chart's regions say.
      CHECK((p.T_op_adjusted > O_krn * p.bandwidth_adjusted) == (p.bound == Bound::memory));
      CHECK(p.landing_y == Approx(O_krn * p.landing_x).epsilon(1e-9));
      if (p.bound == Bound::memory) CHECK(p.landing_x == Approx(p.bandwidth_adjusted));  // a vertical drop
      else CHECK(p.landing_y == Approx(p.T_op_adjusted));                                 // a horizontal move
      // The prediction: on the line, no higher than where the arrow lands (latency and launch add time).
      CHECK(p.line_y == Approx(O_krn * p.line_x).epsilon(1e-9));
      CHECK(p.line_y <= p.landing_y * (1 + 1e-9));
    }
  }
}

TEST_CASE("quadrant chart: a device's name sits beside its own point, nearer to it than to any other") {
  const auto devices = bundled_devices();
  const GnuplotChart chart = quadrant_chart(sor_red(), devices, *chart_target_for("names.svg"), *roofcast::make_predictor("pipes"));
  const RenderedSvg svg = render_svg(chart);
  const PlotArea area = plot_area(*svg.root, chart.script);
  const Axis x = axis_from_script(chart.script, 'x'), y = axis_from_script(chart.script, 'y');
  const std::vector<DrawnText> texts = drawn_texts(*svg.root);
  int named = 0;
  for (const auto& device : devices) {
    const auto label = std::find_if(texts.begin(), texts.end(), [&](auto& t) { return t.text == device.name; });
    if (label == texts.end()) continue;  // no room: the key names it
    ++named;
    const auto distance = [&](const DeviceProfile& d) {
      const double px = x_pixel(d.throughput.dram_gbps, x, area), py = y_pixel(d.throughput.fp64_gflops, y, area);
      const double dx = std::max({label->left() - px, 0.0, px - label->right()});
      const double dy = std::max({label->top() - py, 0.0, py - label->bottom()});
      return std::hypot(dx, dy);
    };
    INFO(device.name);
    CHECK(distance(device) < 15);
    for (const auto& other : devices)
      if (other.name != device.name) CHECK(distance(other) > distance(device));
  }
  CHECK(named >= 5);
}
