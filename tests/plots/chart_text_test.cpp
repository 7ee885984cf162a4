// Every chart, drawn by gnuplot, on the thesis data and on real H100/H200 data with PyTorch's long
// kernel names: no text covers another text, a line of the plot or a point marker, and every
// text stays on the canvas. The boxes come from gnuplot's SVG (text_boxes.hpp), which has the
// PNG's geometry.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "chart_checks.hpp"
#include "roofcast/data/bundled_data.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/formats/validation_json.hpp"
#include "roofcast/model/predictor.hpp"
#include "roofcast/plots/accuracy_chart.hpp"
#include "roofcast/plots/quadrant_chart.hpp"
#include "roofcast/plots/ranking_chart.hpp"
#include "roofcast/plots/roofline_chart.hpp"
#include "roofcast/plots/validation_entries.hpp"
#include "text_boxes.hpp"

using namespace roofcast;
using namespace roofcast::testing;

namespace {

const std::string kSource = ROOFCAST_SOURCE_DIR;
const std::string kRun = kSource + "/docs/validation/2026-11-24-latency";

DeviceProfile device_file(const std::string& path) { return parse_device_profile(roofcast::read_text_file(path), path); }
KernelProfile profile_file(const std::string& path) { return parse_kernel_profile(roofcast::read_text_file(path), path); }

DeviceProfile bundled(const char* name) {
  const auto device = find_bundled_device(name);
  REQUIRE(device);
  return *device;
}

// The measured devices of the run: the H200 and H100 and their MPS partitions.
std::vector<DeviceProfile> measured_devices() {
  std::vector<DeviceProfile> devices;
  for (const char* gpu : {"h200-run", "h100-run"})
    for (const char* part : {"full", "mps50", "mps25"}) {
      const std::string path = fmt::format("{}/{}/devices/{}.json", kRun, gpu, part);
      if (std::ifstream(path)) devices.push_back(device_file(path));
    }
  return devices;
}

// Every way the chart's texts could collide, one line each; empty when the chart reads.
std::vector<std::string> collisions(const GnuplotChart& chart) {
  const RenderedSvg svg = render_svg(chart);
  const std::vector<DrawnText> texts = drawn_texts(*svg.root);
  std::vector<std::string> found = overlapping_texts(texts);
  const std::vector<Segment> lines = plotted_lines(*svg.root);
  const std::vector<Marker> markers = plotted_markers(*svg.root);
  std::istringstream view_box(svg.root->attribute("viewBox"));
  double x0 = 0, y0 = 0, width = 0, height = 0;
  view_box >> x0 >> y0 >> width >> height;
  for (const DrawnText& t : texts) {
    if (t.left() < -0.5 || t.right() > width + 0.5 || t.top() < -0.5 || t.bottom() > height + 0.5)
      found.push_back(fmt::format("\"{}\" runs off the canvas", t.text));
    for (const Segment& s : lines)
      if (crosses(t, s)) {
        found.push_back(fmt::format("\"{}\" is crossed by a line from ({:.0f}, {:.0f}) to ({:.0f}, {:.0f})", t.text,
                                    s.from.x, s.from.y, s.to.x, s.to.y));
        break;
      }
    for (const Marker& m : markers)
      if (covers(t, m)) {
        found.push_back(fmt::format("\"{}\" covers a marker at ({:.0f}, {:.0f})", t.text, m.centre.x, m.centre.y));
        break;
      }
  }
  return found;
}

void require_readable(const GnuplotChart& chart) {
  const std::vector<std::string> found = collisions(chart);
  INFO(chart.chart_file_name << ":\n" << fmt::format("{}", fmt::join(found, "\n")));
  CHECK(found.empty());
}

}  // namespace

TEST_CASE("roofline charts: no text covers another, a line or a marker") {
  const auto thesis = make_predictor("thesis"), pipes = make_predictor("pipes");
  SECTION("the README's: the thesis' Rodinia kernels on the GTX-1060 6GB") {
    const KernelProfile rodinia = *find_bundled_profile("thesis-rodinia");
    require_readable(roofline_chart(bundled("GTX-1060 6GB"), &rodinia, "thesis-rodinia",
                                    *chart_target_for("roofline-rodinia.svg"), *thesis));
  }
  SECTION("PyTorch's kernels on an H200 (a copy kernel, template names of 5,000 characters)") {
    const KernelProfile pytorch = profile_file(kRun + "/h200-run/profiles/pytorch_ops.json");
    require_readable(roofline_chart(device_file(kRun + "/h200-run/devices/full.json"), &pytorch, "pytorch_ops",
                                    *chart_target_for("roofline-pytorch.svg"), *pipes));
  }
  SECTION("every kernel of the corpus on an H100") {
    KernelProfile corpus;
    for (const char* program : {"stream", "sgemm", "atomics", "merge_sort", "serial_latency", "redblack_sor"}) {
      const KernelProfile part = profile_file(fmt::format("{}/h100-run/profiles/{}.json", kRun, program));
      corpus.reference_device = part.reference_device;
      corpus.kernels.insert(corpus.kernels.end(), part.kernels.begin(), part.kernels.end());
    }
    require_readable(roofline_chart(device_file(kRun + "/h100-run/devices/full.json"), &corpus, "corpus",
                                    *chart_target_for("roofline-corpus.svg"), *pipes));
  }
  SECTION("an H100's roofs alone, and a thesis GPU's") {
    require_readable(roofline_chart(device_file(kRun + "/h100-run/devices/full.json"), nullptr, "",
                                    *chart_target_for("roofline-h100.svg"), *pipes));
    require_readable(roofline_chart(bundled("GTX-480"), nullptr, "", *chart_target_for("roofline-gtx480.svg"), *thesis));
  }
}

TEST_CASE("quadrant charts: no text covers another, a line or a marker") {
  const KernelProfile redblack = *find_bundled_profile("thesis-redblack");
  for (const char* model : {"thesis", "pipes"}) {
    INFO(model);
    require_readable(quadrant_chart(redblack.kernels.at(0), bundled_devices(),
                                    *chart_target_for(fmt::format("quadrant-{}.svg", model)), *make_predictor(model)));
  }
  const KernelProfile pytorch = profile_file(kRun + "/h200-run/profiles/pytorch_ops.json");
  for (const auto& kernel : {pytorch.kernels.at(2), pytorch.kernels.at(4)})
    require_readable(quadrant_chart(kernel, measured_devices(), *chart_target_for("quadrant-pytorch.svg"),
                                    *make_predictor("pipes")));
}

TEST_CASE("accuracy and rank charts: no text covers another, a line or a marker") {
  const KernelProfile redblack = *find_bundled_profile("thesis-redblack");
  const ProfilePrediction prediction = predict_profile(*make_predictor("thesis"), redblack, bundled_devices());
  require_readable(accuracy_chart(validation_entries_from(prediction), "the thesis' Table 5.6",
                                  *chart_target_for("accuracy-redblack.svg"), "thesis"));
  const std::string validation = kSource + "/docs/validation/2026-11-25-accuracy/results/h200-pipes.json";
  require_readable(accuracy_chart(parse_validation_file(roofcast::read_text_file(validation), validation).entries, "validate run",
                                  *chart_target_for("accuracy-corpus.svg"), "pipes"));

  std::vector<DeviceRank> ranks;
  for (const auto& [name, ms] : std::vector<std::pair<std::string, double>>{
           {"NVIDIA H200", 25.5}, {"NVIDIA H100 80GB HBM3", 28.8}, {"NVIDIA H200 (MPS 25%)", 29.8}}) {
    DeviceRank rank;
    rank.device = name;
    rank.kernels_ms = ms;
    rank.launch_gaps_ms = 0.5;
    rank.transfers_ms = 1.0;
    rank.total_ms = ms + 1.5;
    ranks.push_back(rank);
  }
  require_readable(ranking_chart(ranks, "pytorch_ops", *chart_target_for("rank.svg")));
}
