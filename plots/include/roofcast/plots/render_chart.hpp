#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "roofcast/formats/files.hpp"
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
  // The chart as gnuplot drew it, to read before the outputs are committed (then it is `chart`).
  std::filesystem::path drawn;
};

// The gnuplot program on PATH, or nullopt when there is none.
std::optional<std::filesystem::path> find_gnuplot();

// Runs gnuplot to draw the chart, with its data and script, in a private folder inside `folder`;
// the three files become outputs in `outputs`, which the caller commits (OutputFiles), so a failed
// run, or a failure of the command after it, changes nothing in `folder`. Throws GnuplotMissing,
// naming the package and the files, when gnuplot is absent (the data and script are then added
// to `outputs` all the same), and InputError with gnuplot's message when it fails.
ChartFiles render_chart(const GnuplotChart& chart, const std::filesystem::path& folder, OutputFiles& outputs);

// The same, committed at once: the chart, its data and its script all appear, or (gnuplot failed)
// none does; when gnuplot is absent, the data and script appear and GnuplotMissing is thrown.
ChartFiles render_chart(const GnuplotChart& chart, const std::filesystem::path& folder);

}  // namespace roofcast
