// The roofline of a Hopper GPU, with its many close tensor-core roofs and a PyTorch profile's long
// C++ kernel names: every label is drawn, none covers another, and everything stays on the canvas.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "chart_checks.hpp"
#include "text_boxes.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/model/predictor.hpp"
#include "roofcast/plots/roofline_chart.hpp"

using namespace roofcast;
using namespace roofcast::testing;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

TEST_CASE("roofline of an H100 with a PyTorch profile: every roof labelled, no label over another, all on the canvas") {
  const std::string source = ROOFCAST_SOURCE_DIR;
  const std::string device_path = source + "/docs/bench-results/2026-11-24-latency/h100-sxm.json";
  const std::string profile_path = source + "/docs/validation/2026-11-24-latency/h100-run/profiles/pytorch_ops.json";
  const DeviceProfile device = parse_device_profile(slurp(device_path), device_path);
  const KernelProfile profile = parse_kernel_profile(slurp(profile_path), profile_path);
  const GnuplotChart chart = roofline_chart(device, &profile, "pytorch_ops", *chart_target_for("h100.svg"), *roofcast::make_predictor("pipes"));
  CHECK_THAT(chart.script, !Catch::Contains("No room to label"));

  const RenderedSvg svg = render_svg(chart);
  const std::vector<DrawnText> texts = drawn_texts(*svg.root);
  const PlotArea area = plot_area(*svg.root, chart.script);
  const Axis y = axis_from_script(chart.script, 'y');
  std::vector<std::pair<double, DrawnText>> roof_labels;  // each roof's height, its label
  for (const auto& c : roofline_ceilings(device)) {
    if (c.kind != RooflineCeiling::Kind::compute) continue;
    const auto found = std::find_if(texts.begin(), texts.end(), [&](const auto& t) { return t.text == c.label(); });
    INFO(c.label());
    REQUIRE(found != texts.end());
    roof_labels.emplace_back(y_pixel(c.value, y, area), *found);
  }
  CHECK(roof_labels.size() >= 10);  // fp64, fp32, int32, half2 and the tensor-core peaks
  // Beside the ends of their roofs, right of the plot, in the roofs' order, each as near its
  // roof's height as the labels of the roofs close to it leave room.
  std::sort(roof_labels.begin(), roof_labels.end(), [](auto& a, auto& b) { return a.first < b.first; });
  for (size_t i = 0; i < roof_labels.size(); ++i) {
    const auto& [roof_y, label] = roof_labels[i];
    INFO(label.text);
    CHECK(label.left() > area.right);
    CHECK(label.left() < area.right + 30);
    // Within the rows of the labels that share its room: at most all of them.
    CHECK(std::abs((label.top() + label.bottom()) / 2 - roof_y) < static_cast<double>(roof_labels.size()) * 16);
    if (i > 0) CHECK(label.top() >= roof_labels[i - 1].second.bottom() - 0.5);
  }

  // Every text on the canvas, the plot's key and the kernels' key right of the plot.
  std::istringstream view_box(svg.root->attribute("viewBox"));
  double x0 = 0, y0 = 0, width = 0, height = 0;
  view_box >> x0 >> y0 >> width >> height;
  for (const auto& t : texts) {
    INFO(t.text);
    CHECK(t.left() >= 0);
    CHECK(t.right() <= width);
    CHECK(t.top() >= 0);
    CHECK(t.bottom() <= height);
    if (t.text.starts_with("measured fp32 sweep") || t.text.starts_with("fp32 kernel, predicted"))
      CHECK(t.left() > area.right);
  }
  CHECK(overlapping_texts(texts).empty());

  // The kernels' key: distinct shortened names, one row per kernel, that say which kernel it is.
  std::set<std::string> rows;
  const std::regex key_row(R"(^\*?[0-9]+ (\S+) +(fp32|fp64|int|copy) )");
  for (const auto& t : texts) {
    std::smatch match;
    if (std::regex_search(t.text, match, key_row)) rows.insert(match[1]);
  }
  CHECK(rows.size() == profile.kernels.size());
  for (const char* op : {"NormTwoOps", "OnSelf_add", "MaxNanFunctor", "SoftMaxForwardReg<float>"})
    CHECK(std::any_of(rows.begin(), rows.end(), [&](const std::string& row) { return row.find(op) != std::string::npos; }));
}
