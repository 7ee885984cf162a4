// The roofline of a Hopper GPU, with its many close tensor-core roofs and a PyTorch profile's long
// C++ kernel names: every label is drawn, none covers another, and everything stays on the canvas.
#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "chart_checks.hpp"
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

// A text of the SVG and the rectangle it covers (an estimate from its font size: SVG draws a
// point as a pixel, an average character is at most 0.62 em wide).
struct DrawnText {
  std::string text;
  double left, right, top, bottom;
};

std::vector<DrawnText> drawn_texts(const XmlElement& svg) {
  std::vector<DrawnText> texts;
  const std::regex translate(R"(translate\(([-0-9.]+),([-0-9.]+)\))");
  for (const XmlElement* group : svg.descendants("g")) {
    std::smatch match;
    const std::string transform = group->attribute("transform");
    if (group->attribute("font-size").empty() || !std::regex_search(transform, match, translate)) continue;
    if (transform.find("rotate") != std::string::npos) continue;  // the slopes' and the y axis' labels
    std::string text = group->all_text();
    text.erase(0, text.find_first_not_of(" \t\n"));
    text.erase(text.find_last_not_of(" \t\n") + 1);
    if (text.empty()) continue;
    const double x = std::stod(match[1]), y = std::stod(match[2]), size = std::stod(group->attribute("font-size"));
    const double width = static_cast<double>(text.size()) * 0.62 * size;
    const std::string anchor = group->attribute("text-anchor");
    const double left = anchor == "end" ? x - width : anchor == "middle" ? x - width / 2 : x;
    texts.push_back({text, left, left + width, y - 0.8 * size, y + 0.25 * size});
  }
  return texts;
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
  std::vector<DrawnText> roof_labels;
  for (const auto& c : roofline_ceilings(device)) {
    if (c.kind != RooflineCeiling::Kind::compute) continue;
    const auto found = std::find_if(texts.begin(), texts.end(), [&](const auto& t) { return t.text == c.label(); });
    INFO(c.label());
    REQUIRE(found != texts.end());
    roof_labels.push_back(*found);
  }
  CHECK(roof_labels.size() >= 10);  // fp64, fp32, int32, half2 and the tensor-core peaks
  for (size_t i = 0; i < roof_labels.size(); ++i)
    for (size_t j = i + 1; j < roof_labels.size(); ++j) {
      const auto &a = roof_labels[i], &b = roof_labels[j];
      INFO(a.text << " and " << b.text);
      CHECK_FALSE((a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom));
    }

  // Every text on the canvas (1250 x 650), the plot's key and the kernels' key right of the plot.
  const PlotArea area = plot_area(*svg.root, chart.script);
  for (const auto& t : texts) {
    INFO(t.text);
    CHECK(t.left >= 0);
    CHECK(t.right <= 1250);
    CHECK(t.top >= 0);
    CHECK(t.bottom <= 650);
    if (t.text.starts_with("measured fp32 sweep") || t.text.starts_with("fp32 kernel, predicted"))
      CHECK(t.left > area.right);
  }

  // The kernels' key: distinct shortened names, one row per kernel.
  std::set<std::string> rows;
  const std::regex key_row(R"(^\*?[0-9]+ (.{20}) )");
  for (const auto& t : texts) {
    std::smatch match;
    if (std::regex_search(t.text, match, key_row)) rows.insert(match[1]);
  }
  CHECK(rows.size() == profile.kernels.size());
}
