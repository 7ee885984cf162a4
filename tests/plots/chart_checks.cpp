#include "chart_checks.hpp"

#include <unistd.h>

#include <cctype>
#include <cmath>
#include <fstream>
#include <regex>
#include <sstream>
#include <stdexcept>

#include "roofcast/plots/render_chart.hpp"

namespace roofcast::testing {

namespace {

std::filesystem::path fresh_folder() {
  static int counter = 0;
  auto folder = std::filesystem::temp_directory_path() /
                ("roofcast-plots-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  return folder;
}

std::vector<std::pair<double, double>> path_points(const std::string& d) {
  std::vector<std::pair<double, double>> points;
  const std::regex number_pair(R"(([-0-9.]+),([-0-9.]+))");
  for (auto it = std::sregex_iterator(d.begin(), d.end(), number_pair); it != std::sregex_iterator(); ++it)
    points.emplace_back(std::stod((*it)[1]), std::stod((*it)[2]));
  return points;
}

double fraction(double value, const Axis& axis) {
  if (axis.log) return std::log10(value / axis.low) / std::log10(axis.high / axis.low);
  return (value - axis.low) / (axis.high - axis.low);
}

}  // namespace

RenderedSvg render_svg(const GnuplotChart& chart) {
  RenderedSvg result;
  result.folder = fresh_folder();
  const ChartFiles files = render_chart(chart, result.folder);
  std::ifstream in(files.chart);
  std::ostringstream text;
  text << in.rdbuf();
  result.svg = text.str();
  std::filesystem::remove_all(result.folder);  // everything the tests need is in memory now
  result.root = parse_xml(result.svg);
  return result;
}

PlotArea plot_area(const XmlElement& svg, const std::string& script) {
  auto margin = [&](const char* side) {
    std::smatch match;
    if (!std::regex_search(script, match, std::regex(std::string("set ") + side + R"(margin at screen ([0-9.]+))")))
      throw std::runtime_error(std::string("no ") + side + "margin in the script");
    return std::stod(match[1]);
  };
  const std::string view_box = svg.attribute("viewBox");
  std::istringstream numbers(view_box);
  double x0 = 0, y0 = 0, width = 0, height = 0;
  numbers >> x0 >> y0 >> width >> height;
  const PlotArea expected{margin("l") * width, margin("r") * width, (1 - margin("t")) * height,
                          (1 - margin("b")) * height};
  // The border: a closed path of five points (a rectangle) where the margins say.
  for (const XmlElement* path : svg.descendants("path")) {
    const std::string d = path->attribute("d");
    if (d.find('Z') == std::string::npos) continue;
    const auto points = path_points(d);
    if (points.size() != 5) continue;
    PlotArea a{INFINITY, -INFINITY, INFINITY, -INFINITY};
    for (const auto& [x, y] : points) {
      a.left = std::min(a.left, x), a.right = std::max(a.right, x);
      a.top = std::min(a.top, y), a.bottom = std::max(a.bottom, y);
    }
    if (std::abs(a.left - expected.left) < 2 && std::abs(a.right - expected.right) < 2 &&
        std::abs(a.top - expected.top) < 2 && std::abs(a.bottom - expected.bottom) < 2)
      return a;
  }
  throw std::runtime_error("no plot border where the script's margins put it (viewBox " + view_box + ")");
}

Axis axis_from_script(const std::string& script, char axis) {
  Axis result;
  const std::regex range(std::string("set ") + axis + R"(range \[([-0-9.eE+]+):([-0-9.eE+]+)\])");
  std::smatch match;
  if (!std::regex_search(script, match, range)) throw std::runtime_error(std::string("no ") + axis + "range in the script");
  result.low = std::stod(match[1]);
  result.high = std::stod(match[2]);
  const std::regex logscale(R"(set logscale (\w+))");
  if (std::regex_search(script, match, logscale)) result.log = match[1].str().find(axis) != std::string::npos;
  return result;
}

double x_pixel(double x, const Axis& axis, const PlotArea& area) {
  return area.left + fraction(x, axis) * (area.right - area.left);
}

double y_pixel(double y, const Axis& axis, const PlotArea& area) {
  return area.bottom - fraction(y, axis) * (area.bottom - area.top);
}

int plot_number(const std::string& script, const std::string& title_prefix) {
  const auto start = script.find("\nplot ");
  if (start == std::string::npos) return 0;
  const auto end = script.find("\n", script.find_first_not_of(' ', start + 1));
  // Clauses are separated by ", \" line continuations.
  std::string command;
  for (size_t at = start + 1; at < script.size();) {
    const auto line_end = script.find('\n', at);
    const std::string line = script.substr(at, line_end - at);
    command += line + "\n";
    if (!line.ends_with("\\")) break;
    at = line_end + 1;
  }
  (void)end;
  int number = 1;
  size_t clause_start = 0;
  for (;;) {
    const auto separator = command.find(", \\\n", clause_start);
    const std::string clause = command.substr(clause_start, separator - clause_start);
    if (clause.find("title '" + title_prefix) != std::string::npos) return number;
    if (separator == std::string::npos) return 0;
    clause_start = separator + 4;
    ++number;
  }
}

std::vector<std::pair<double, double>> markers_of(const XmlElement& svg, int number, const PlotArea& area) {
  std::vector<std::pair<double, double>> markers;
  const std::regex translate(R"(translate\(([-0-9.]+),([-0-9.]+)\))");
  const std::string id = "gnuplot_plot_" + std::to_string(number);
  for (const XmlElement* group : svg.descendants("g")) {
    // Panels of a multiplot add a letter: gnuplot_plot_5a, gnuplot_plot_5b...
    const std::string group_id = group->attribute("id");
    if (!group_id.starts_with(id) || group_id.size() > id.size() + 1 ||
        (group_id.size() == id.size() + 1 && !std::islower(static_cast<unsigned char>(group_id.back()))))
      continue;
    for (const XmlElement* use : group->descendants("use")) {
      std::smatch match;
      const std::string transform = use->attribute("transform");
      if (!std::regex_search(transform, match, translate)) continue;
      const double x = std::stod(match[1]), y = std::stod(match[2]);
      if (x >= area.left - 0.5 && x <= area.right + 0.5 && y >= area.top - 0.5 && y <= area.bottom + 0.5)
        markers.emplace_back(x, y);
    }
  }
  return markers;
}

std::string svg_text(const XmlElement& svg) {
  std::string text;
  for (const XmlElement* element : svg.descendants("text")) text += element->all_text() + "\n";
  return text;
}

}  // namespace roofcast::testing
