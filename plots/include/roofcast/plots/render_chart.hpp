#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "roofcast/formats/input_error.hpp"
#include "roofcast/plots/gnuplot_chart.hpp"

namespace roofcast {

// gnuplot is not installed: the data and script were written, the chart was not.
class GnuplotMissing : public InputError {
 public:
  using InputError::InputError;
};

struct ChartFiles {
  std::filesystem::path chart, data, script;
};

// The gnuplot program on PATH, or nullopt when there is none.
std::optional<std::filesystem::path> find_gnuplot();

// Writes the chart's data and script into `folder` (atomically), then runs gnuplot there to
// draw the chart (written under a temporary name and renamed, so a failed run leaves no half
// file). Throws GnuplotMissing, naming the package and the files written, when gnuplot is
// absent, and InputError with gnuplot's message when it fails.
ChartFiles render_chart(const GnuplotChart& chart, const std::filesystem::path& folder);

// Writes only the data and script (no gnuplot run).
ChartFiles write_chart_sources(const GnuplotChart& chart, const std::filesystem::path& folder);

}  // namespace roofcast
