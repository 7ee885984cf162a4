#include "roofcast/plots/render_chart.hpp"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
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
  const std::string assignment = "output_file=" + gnuplot::quoted(output);
  int error_pipe[2];
  if (::pipe2(error_pipe, O_CLOEXEC) != 0) throw InputError("cannot start gnuplot: pipe failed");
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(error_pipe[0]);
    ::close(error_pipe[1]);
    throw InputError("cannot start gnuplot: fork failed");
  }
  if (pid == 0) {
    if (::chdir(folder.c_str()) != 0) ::_exit(126);
    const int null = ::open("/dev/null", O_RDWR);
    ::dup2(error_pipe[1], 2);
    if (null >= 0) {
      ::dup2(null, 0);
      ::dup2(null, 1);
    }
    std::vector<char*> argv{const_cast<char*>(gnuplot.c_str()), const_cast<char*>("-e"),
                            const_cast<char*>(assignment.c_str()), const_cast<char*>(script.c_str()), nullptr};
    ::execv(gnuplot.c_str(), argv.data());
    ::_exit(127);
  }
  ::close(error_pipe[1]);
  std::string errors;
  char buffer[4096];
  for (ssize_t count; (count = ::read(error_pipe[0], buffer, sizeof buffer)) != 0;) {
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) break;
    errors.append(buffer, static_cast<size_t>(count));
  }
  ::close(error_pipe[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), errors};
}

// The chart's file names in `folder`, which is created when missing.
ChartFiles chart_files_in(const GnuplotChart& chart, const std::filesystem::path& folder) {
  // The chart's file name is written into its script: text, without line breaks or other control characters.
  if (printable(chart.chart_file_name) != chart.chart_file_name)
    throw InputError(fmt::format("{}: the chart's file name holds control characters or bytes that are not UTF-8; "
                                 "choose another name",
                                 printable(chart.chart_file_name)));
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw InputError(fmt::format("{}: cannot create the folder: {}", folder.string(), error.message()));
  return {folder / chart.chart_file_name, folder / chart.data_file_name, folder / chart.script_file_name, {}};
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

ChartFiles render_chart(const GnuplotChart& chart, const std::filesystem::path& folder, OutputFiles& outputs) {
  ChartFiles files = chart_files_in(chart, folder);
  const auto gnuplot = find_gnuplot();
  if (!gnuplot) {
    outputs.add(files.data, chart.data);
    outputs.add(files.script, chart.script);
    throw GnuplotMissing(fmt::format(
        "gnuplot not found: install Debian's gnuplot-nox package (apt-get install gnuplot-nox, or scripts/setup.sh) "
        "to draw {}; its data and script are written: {} and {}",
        files.chart.string(), files.data.string(), files.script.string()));
  }
  // gnuplot reads the data by its final name and writes the chart itself: all three are made
  // in a private folder and moved into `folder` when `outputs` is committed.
  const std::filesystem::path workspace = outputs.workspace(folder);
  outputs.add_from_workspace(workspace, files.data, chart.data);
  outputs.add_from_workspace(workspace, files.script, chart.script);
  outputs.add_from_workspace(workspace, files.chart);
  const auto [status, errors] = run_gnuplot(*gnuplot, workspace, chart.script_file_name, chart.chart_file_name);
  if (status != 0)
    throw InputError(fmt::format("{}: gnuplot failed (exit {}): {}", files.script.string(), status,
                                 last_lines(errors, 2)));
  files.drawn = workspace / chart.chart_file_name;
  return files;
}

ChartFiles render_chart(const GnuplotChart& chart, const std::filesystem::path& folder) {
  OutputFiles outputs;
  try {
    ChartFiles files = render_chart(chart, folder, outputs);
    outputs.commit();
    files.drawn = files.chart;
    return files;
  } catch (const GnuplotMissing&) {
    outputs.commit();
    throw;
  }
}

}  // namespace roofcast
