#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace roofcast {

// The file format of a rendered chart, chosen by the output file's extension.
enum class ChartFormat { svg, png, pdf };

// .svg, .png or .pdf (any case); nullopt for anything else.
std::optional<ChartFormat> chart_format_from_extension(std::string_view extension);

// A chart as gnuplot renders it: a data file and the script that draws it, kept side by
// side so that a user can restyle the chart by editing the script and running gnuplot.
// The script reads `data_file_name` and writes `chart_file_name` from its own folder; the
// gnuplot variable `output_file` overrides the chart's name (gnuplot -e "output_file='x.svg'").
struct GnuplotChart {
  std::string chart_file_name;   // e.g. "roofline.svg"
  std::string data_file_name;    // e.g. "roofline.dat"
  std::string script_file_name;  // e.g. "roofline.gp"
  std::string data;
  std::string script;
};

// What every chart builder needs to know about where its output goes.
struct ChartTarget {
  std::string chart_file_name;  // the chart's file name (no folder); its extension picks the format
  ChartFormat format = ChartFormat::svg;
};

// The target for a chart file name such as "roofline.png"; nullopt if the extension is not
// a supported format.
std::optional<ChartTarget> chart_target_for(std::string_view chart_file_name);

// A name made safe for a file name: "GTX-1060 6GB" -> "gtx-1060-6gb"; at most kMaxFileNamePart
// characters (a longer one keeps its start and gets a hash of the whole name).
constexpr size_t kMaxFileNamePart = 96;
std::string file_name_part(std::string_view text);

}  // namespace roofcast
