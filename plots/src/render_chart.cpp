#include "roofcast/plots/render_chart.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "gnuplot_text.hpp"
#include "roofcast/formats/files.hpp"
#include "roofcast/formats/printable_text.hpp"

namespace roofcast {

namespace {

std::string last_lines(const std::string& text, size_t count) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find_first_not_of(" \t^") != std::string::npos) lines.push_back(line);
  std::string result;
  for (size_t i = lines.size() > count ? lines.size() - count : 0; i < lines.size(); ++i)
    result += (result.empty() ? "" : " | ") + lines[i];
  return result;
}

// Runs `gnuplot -e "output_file='<output>'" <script>` in `folder`; returns its exit status and stderr.
std::pair<int, std::string> run_gnuplot(const std::filesystem::path& gnuplot, const std::filesystem::path& folder,
                                        const std::string& script, const std::string& output) {
  const auto error_path = folder / fmt::format(".{}.gnuplot-errors", script);
  const std::string assignment = "output_file=" + gnuplot::quoted(output);
  const pid_t pid = ::fork();
  if (pid < 0) throw InputError("cannot start gnuplot: fork failed");
  if (pid == 0) {
    if (::chdir(folder.c_str()) != 0) ::_exit(126);
    const int err = ::open(error_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int null = ::open("/dev/null", O_RDWR);
    if (err >= 0) ::dup2(err, 2);
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
    }
    std::vector<char*> argv{const_cast<char*>(gnuplot.c_str()), const_cast<char*>("-e"),
                            const_cast<char*>(assignment.c_str()), const_cast<char*>(script.c_str()), nullptr};
    ::execv(gnuplot.c_str(), argv.data());
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  std::ifstream in(error_path);
  std::ostringstream errors;
  errors << in.rdbuf();
  std::error_code ignored;
  std::filesystem::remove(error_path, ignored);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), errors.str()};
}

}  // namespace

std::optional<std::filesystem::path> find_gnuplot() {
  const char* path = std::getenv("PATH");
  std::string_view folders = path ? path : "/usr/bin:/bin";
  while (!folders.empty()) {
    const auto colon = folders.find(':');
    const std::string folder(folders.substr(0, colon));
    folders = colon == std::string_view::npos ? std::string_view{} : folders.substr(colon + 1);
    if (folder.empty()) continue;
    const auto candidate = std::filesystem::path(folder) / "gnuplot";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

ChartFiles write_chart_sources(const GnuplotChart& chart, const std::filesystem::path& folder) {
  // The chart's file name is written into its script: text, without line breaks or other control characters.
  if (printable(chart.chart_file_name) != chart.chart_file_name)
    throw InputError(fmt::format("{}: the chart's file name holds control characters or bytes that are not UTF-8; "
                                 "choose another name",
                                 printable(chart.chart_file_name)));
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw InputError(fmt::format("{}: cannot create the folder: {}", folder.string(), error.message()));
  ChartFiles files{folder / chart.chart_file_name, folder / chart.data_file_name, folder / chart.script_file_name};
  write_file_atomically(files.data, chart.data);
  write_file_atomically(files.script, chart.script);
  return files;
}

ChartFiles render_chart(const GnuplotChart& chart, const std::filesystem::path& folder) {
  const ChartFiles files = write_chart_sources(chart, folder);
  const auto gnuplot = find_gnuplot();
  if (!gnuplot)
    throw GnuplotMissing(fmt::format(
        "gnuplot not found: install Debian's gnuplot-nox package (apt-get install gnuplot-nox, or scripts/setup.sh) "
        "to draw {}; its data and script are written: {} and {}",
        files.chart.string(), files.data.string(), files.script.string()));
  const std::string temporary = fmt::format(".{}.part", chart.chart_file_name);
  const auto [status, errors] = run_gnuplot(*gnuplot, folder, chart.script_file_name, temporary);
  std::error_code ignored;
  if (status != 0) {
    std::filesystem::remove(folder / temporary, ignored);
    throw InputError(fmt::format("{}: gnuplot failed (exit {}): {}", files.script.string(), status,
                                 last_lines(errors, 2)));
  }
  std::error_code error;
  std::filesystem::rename(folder / temporary, files.chart, error);
  if (error) throw InputError(fmt::format("{}: cannot write the chart: {}", files.chart.string(), error.message()));
  return files;
}

}  // namespace roofcast
