// `roofcast plot` and `roofcast report` run as a user runs them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <fstream>
#include <future>
#include <sstream>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include "run_command.hpp"
#include "xml_tree.hpp"

using roofcast::testing::run_roofcast;
namespace fs = std::filesystem;

namespace {

fs::path fresh_folder(const std::string& name) {
  const auto folder = fs::temp_directory_path() / ("roofcast-plot-command-" + std::to_string(::getpid()) + "-" + name);
  fs::remove_all(folder);
  fs::create_directories(folder);
  return folder;
}

std::string slurp(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Runs roofcast with PATH pointing at an empty folder: no gnuplot to be found.
roofcast::testing::CommandResult run_without_gnuplot(const std::vector<std::string>& arguments) {
  const std::string saved = std::getenv("PATH") ? std::getenv("PATH") : "";
  const auto empty = fresh_folder("empty-path");
  ::setenv("PATH", empty.c_str(), 1);
  auto result = run_roofcast(arguments);
  ::setenv("PATH", saved.c_str(), 1);
  return result;
}

}  // namespace

TEST_CASE("plot quadrant with bundled data writes the chart, its data and its script") {
  const auto folder = fresh_folder("quadrant");
  const auto chart = folder / "q.svg";
  const auto result = run_roofcast({"plot", "quadrant", "--profile", "thesis-redblack", "--kernel", "sor_red",
                                    "--device", "GTX-480", "--device", "GTX-660", "--output", chart.string()});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK_THAT(result.out, Catch::Contains("q.svg"));
  REQUIRE(fs::exists(folder / "q.dat"));
  REQUIRE(fs::exists(folder / "q.gp"));
  const std::string svg = slurp(chart);
  const auto root = roofcast::testing::parse_xml(svg);
  CHECK(root->name == "svg");
  for (const char* name : {"GTX-480", "GTX-660", "sor_red"}) CHECK_THAT(root->all_text(), Catch::Contains(name));
  CHECK_THAT(root->all_text(), !Catch::Contains("Tesla K20c"));
  // No stray temporary file is left behind.
  int files = 0;
  for ([[maybe_unused]] const auto& entry : fs::directory_iterator(folder)) ++files;
  CHECK(files == 3);
}

TEST_CASE("plot roofline and accuracy write PNG and PDF by extension") {
  const auto folder = fresh_folder("formats");
  auto result = run_roofcast({"plot", "roofline", "--device", "GTX-1060 6GB", "--profile", "thesis-rodinia", "--output",
                              (folder / "r.png").string()});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  CHECK(slurp(folder / "r.png").starts_with("\x89PNG"));
  result = run_roofcast({"plot", "accuracy", "--profile", "thesis-redblack", "--output", (folder / "a.pdf").string()});
  REQUIRE(result.exit_code == 0);
  CHECK(slurp(folder / "a.pdf").starts_with("%PDF"));
}

TEST_CASE("plot accuracy reads a validation file") {
  const auto folder = fresh_folder("validation");
  const auto file = folder / "validation.json";
  std::ofstream(file) << R"({"format": "roofcast-validation", "version": 1, "entries": [
      {"kernel": "k1", "device": "H100", "predicted_ms": 1.44, "measured_ms": 1.2, "bound": "memory"},
      {"kernel": "k2", "device": "H100", "predicted_ms": 0.5, "measured_ms": 1.0, "bound": "compute"}]})";
  const auto result = run_roofcast({"plot", "accuracy", "--validation", file.string(), "--output", (folder / "acc.svg").string()});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto root = roofcast::testing::parse_xml(slurp(folder / "acc.svg"));
  CHECK_THAT(root->all_text(), Catch::Contains("H100: 35.0 % | 50 %"));

  std::ofstream(file) << R"({"entries": [{"kernel": "k1", "device": "H100", "predicted_ms": 1.5}]})";
  const auto bad = run_roofcast({"plot", "accuracy", "--validation", file.string(), "--output", (folder / "b.svg").string()});
  CHECK(bad.exit_code == 1);
  CHECK(bad.err == "roofcast: " + file.string() + ": entries[0].measured_ms: missing\n");
}

TEST_CASE("plot errors are one line naming what is wrong") {
  auto result = run_roofcast({"plot", "quadrant", "--profile", "thesis-redblack", "--kernel", "nope"});
  CHECK(result.exit_code == 1);
  CHECK(result.err == "roofcast: --kernel nope: no kernel of thesis-redblack matches (by whole, mangled or base name, or "
                      "part of the name); its kernels: \"sor_red\" (4 launches)\n");
  result = run_roofcast({"plot", "roofline", "--device", "GTX-660", "--output", "chart.jpg"});
  CHECK(result.exit_code == 1);
  CHECK(result.err == "roofcast: --output chart.jpg: unknown chart format \".jpg\": use .svg, .png or .pdf\n");
  result = run_roofcast({"plot", "roofline", "--device", "no-such-gpu"});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::StartsWith("roofcast: --device no-such-gpu: unknown device"));
}

TEST_CASE("without gnuplot: a clear message naming the package, non-zero exit, data and script written") {
  const auto folder = fresh_folder("no-gnuplot");
  const auto result = run_without_gnuplot({"plot", "roofline", "--device", "GTX-660", "--profile", "thesis-redblack",
                                           "--output", (folder / "r.svg").string()});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains("gnuplot-nox"));
  CHECK(std::count(result.err.begin(), result.err.end(), '\n') == 1);
  CHECK_FALSE(fs::exists(folder / "r.svg"));
  CHECK_THAT(slurp(folder / "r.dat"), Catch::Contains("sor_red"));
  CHECK_THAT(slurp(folder / "r.gp"), Catch::Contains("set output output_file"));

  const auto report = run_without_gnuplot({"report", "--profile", "thesis-redblack", "--device", "GTX-660", "--output",
                                           (folder / "report").string()});
  CHECK(report.exit_code == 1);
  CHECK_THAT(report.err, Catch::Contains("gnuplot-nox"));
  CHECK_THAT(slurp(folder / "report" / "index.html"), Catch::Contains("gnuplot is not installed"));
  CHECK(fs::exists(folder / "report" / "charts" / "roofline-gtx-660.gp"));
}

TEST_CASE("report: one self-contained page with the predictions, warnings and inline charts") {
  const auto folder = fresh_folder("report");
  // The thesis model: its low-utilization warning and its heaviest kernel (lvmd-krn).
  const auto result = run_roofcast({"report", "--model", "thesis", "--profile", "thesis-rodinia", "--device", "GTX-660",
                                    "--device", "GTX-1060 6GB", "--output", folder.string()});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const std::string html = slurp(folder / "index.html");
  for (const char* expected : {"roofcast report: thesis-rodinia", "GTX-660", "GTX-1060 6GB", "lvmd-krn", "srad-c2",
                               "Content-Security-Policy", "short invocations", "low utilization",
                               "Roofline of GTX-660", "Quadrant split of lvmd-krn"})
    CHECK_THAT(html, Catch::Contains(expected));
  // Inline SVG only: no script, no external resource, no clashing ids between charts.
  CHECK_THAT(html, !Catch::Contains("<script"));
  CHECK_THAT(html, !Catch::Contains("href=\"http"));
  CHECK_THAT(html, !Catch::Contains("href='http"));
  CHECK_THAT(html, !Catch::Contains("<?xml"));
  CHECK_THAT(html, !Catch::Contains("src=\""));
  size_t charts = 0;
  for (size_t at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1)) ++charts;
  CHECK(charts == 5);  // 2 rooflines, 3 quadrant-split charts; no measured times, so no accuracy chart
  CHECK(html.find("id='c1-gpPt6'") != std::string::npos);
  CHECK(html.find("id='c2-gpPt6'") != std::string::npos);
  CHECK(html.find("id='gpPt6'") == std::string::npos);
  // Every id of the page is unique.
  std::set<std::string> ids;
  const std::regex id(R"re(\bid=(['"])([^'"]*)\1)re");
  for (std::sregex_iterator it(html.begin(), html.end(), id), end; it != end; ++it) {
    INFO((*it)[2].str());
    CHECK(ids.insert((*it)[2].str()).second);
  }
}

TEST_CASE("plot accuracy draws the validation file that roofcast validate writes") {
  const auto folder = fresh_folder("validate");
  const auto validation = folder / "validation.json";
  const auto validate = run_roofcast(
      {"validate", "--model", "thesis", "--reference-profile", "thesis-redblack", "--all-devices", "--output", validation.string()});
  INFO(validate.err);
  REQUIRE(validate.exit_code == 0);
  const auto result = run_roofcast(
      {"plot", "accuracy", "--validation", validation.string(), "--output", (folder / "accuracy.svg").string()});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto root = roofcast::testing::parse_xml(slurp(folder / "accuracy.svg"));
  // The thesis' red/black SOR on its six GPUs: the same figures as the profile's own measured times give.
  for (const char* text : {"6 predictions on 6 devices", "GTX-660: 0.1 % | 100 %",
                           "all 6 predictions: 3.3 % | 100 %", "Tesla K20c"})
    CHECK_THAT(root->all_text(), Catch::Contains(text));
}

TEST_CASE("plot refuses a chart path that is a symbolic link and writes none of the chart's three files") {
  const auto folder = fresh_folder("symlink-chart");
  const auto target = folder / "elsewhere.svg";
  std::ofstream(target) << "kept";
  fs::create_symlink(target, folder / "r.svg");
  const auto result = run_roofcast({"plot", "roofline", "--device", "GTX-480", "--output", (folder / "r.svg").string()});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains((folder / "r.svg").string() + ": is a symbolic link"));
  CHECK(fs::is_symlink(folder / "r.svg"));
  CHECK(slurp(target) == "kept");
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(folder)) names.insert(entry.path().filename().string());
  CHECK(names == std::set<std::string>{"elsewhere.svg", "r.svg"});
}

TEST_CASE("a report into a folder that is not a report's is refused at once, the folder untouched") {
  const auto folder = fresh_folder("report-fails");
  const auto report = folder / "report";
  fs::create_directories(report / "index.html");  // a folder where the page goes
  const auto result = run_roofcast({"report", "--profile", "thesis-redblack", "--device", "GTX-660", "--output",
                                    report.string()});
  CHECK(result.exit_code == 1);
  CHECK_THAT(result.err, Catch::Contains((report / "index.html").string() + ": is a folder"));
  std::set<std::string> names;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) names.insert(entry.path().filename().string());
  CHECK(names == std::set<std::string>{"report", "index.html"});  // no charts folder, no staging folder

  // Anything a report does not write would be lost with the folder: refused, named.
  fs::remove(report / "index.html");
  std::ofstream(report / "notes.txt") << "mine";
  const auto other = run_roofcast({"report", "--profile", "thesis-redblack", "--device", "GTX-660", "--output",
                                   report.string()});
  CHECK(other.exit_code == 1);
  CHECK(other.err == "roofcast: " + report.string() + ": holds notes.txt, which roofcast report does not write; a "
                                                      "report replaces the whole folder: give a new or empty folder, "
                                                      "or move notes.txt away\n");
  CHECK(slurp(report / "notes.txt") == "mine");
}

TEST_CASE("a report run again into its folder replaces it whole: no chart of the earlier run stays") {
  const auto folder = fresh_folder("report-again") / "report";
  const auto first = run_roofcast({"report", "--profile", "thesis-rodinia", "--device", "GTX-660", "--device",
                                   "GTX-1060 6GB", "--quadrant-kernels", "1", "--output", folder.string()});
  REQUIRE(first.exit_code == 0);
  REQUIRE(fs::exists(folder / "charts" / "roofline-gtx-660.svg"));
  const auto second = run_roofcast({"report", "--profile", "thesis-redblack", "--device", "GTX-480",
                                    "--quadrant-kernels", "0", "--output", folder.string() + "/"});
  INFO(second.err);
  REQUIRE(second.exit_code == 0);
  std::set<std::string> charts;
  for (const auto& entry : fs::directory_iterator(folder / "charts")) charts.insert(entry.path().filename().string());
  CHECK(charts == std::set<std::string>{"roofline-gtx-480.svg", "roofline-gtx-480.dat", "roofline-gtx-480.gp",
                                        "accuracy.svg", "accuracy.dat", "accuracy.gp"});
  CHECK_THAT(slurp(folder / "predictions.csv"), Catch::StartsWith("kernel,K_type,predicted_ms GTX-480,"));
  CHECK_THAT(slurp(folder / "index.html"), !Catch::Contains("lvmd-krn"));  // a Rodinia kernel of the first run
  // Only the report beside it: no staging folder, no former folder.
  CHECK(std::distance(fs::directory_iterator(folder.parent_path()), fs::directory_iterator{}) == 1);
}

TEST_CASE("8 reports at once into one folder: the folder is one run's whole output, never a mix") {
  const auto folder = fresh_folder("report-concurrent") / "report";
  const std::vector<std::string> devices = {"GTX-480", "GTX-660", "GTX-960", "GTX-1060 6GB",
                                            "Tesla K20c", "Tesla M2050", "GTX-660", "GTX-480"};
  std::vector<std::future<roofcast::testing::CommandResult>> runs;
  for (const auto& device : devices)
    runs.push_back(std::async(std::launch::async, [&folder, device] {
      return run_roofcast({"report", "--model", "thesis", "--profile", "thesis-redblack", "--device", device,
                           "--quadrant-kernels", "0", "--output", folder.string()});
    }));
  for (auto& run : runs) {
    const auto result = run.get();
    INFO(result.err);
    CHECK(result.exit_code == 0);
  }
  // The device of the page is the device of every other file.
  const std::string csv = slurp(folder / "predictions.csv");
  std::smatch found;
  REQUIRE(std::regex_search(csv, found, std::regex("^kernel,K_type,predicted_ms ([^,]*),")));
  const std::string device = found[1].str();
  CHECK(std::find(devices.begin(), devices.end(), device) != devices.end());
  const std::string html = slurp(folder / "index.html");
  CHECK_THAT(html, Catch::Contains("Roofline of " + device + "<"));
  // Its one roofline (and the accuracy chart of the profile's measured times), of that device.
  std::vector<fs::path> rooflines;
  for (const auto& entry : fs::directory_iterator(folder / "charts"))
    if (entry.path().filename().string().starts_with("roofline-") && entry.path().extension() == ".gp")
      rooflines.push_back(entry.path());
  REQUIRE(rooflines.size() == 1);
  CHECK_THAT(slurp(rooflines[0]), Catch::Contains(device));
  CHECK(std::distance(fs::directory_iterator(folder / "charts"), fs::directory_iterator{}) == 6);
  for (const auto& other : devices)
    if (other != device) CHECK_THAT(html, !Catch::Contains("Roofline of " + other + "<"));
  CHECK(std::distance(fs::directory_iterator(folder.parent_path()), fs::directory_iterator{}) == 1);
}

TEST_CASE("a symbolic link at charts/ is refused as one at index.html is: nothing written through either") {
  const auto base = fresh_folder("report-links");
  const auto report = base / "report";
  const auto elsewhere = base / "elsewhere";
  fs::create_directories(elsewhere);
  std::ofstream(elsewhere / "kept.txt") << "kept";
  for (const char* link : {"charts", "index.html"}) {
    fs::remove_all(report);
    fs::create_directories(report);
    if (std::string(link) == "charts")
      fs::create_directory_symlink(elsewhere, report / link);
    else
      fs::create_symlink(elsewhere / "kept.txt", report / link);
    const auto result = run_roofcast({"report", "--profile", "thesis-redblack", "--device", "GTX-660", "--output",
                                      report.string()});
    INFO(link);
    CHECK(result.exit_code == 1);
    CHECK_THAT(result.err, Catch::StartsWith("roofcast: " + (report / link).string() + ": is a symbolic link; "));
    CHECK(fs::is_symlink(report / link));
    CHECK(std::distance(fs::directory_iterator(elsewhere), fs::directory_iterator{}) == 1);
    CHECK(slurp(elsewhere / "kept.txt") == "kept");
  }
}

TEST_CASE("a report removes the staging folders a killed report left beside its folder, and only those") {
  const auto base = fresh_folder("report-stale");
  const auto report = base / "report";
  fs::create_directories(base / ".report.roofcast-Killed01" / "charts");  // a killed run's, held by no one
  std::ofstream(base / ".report.roofcast-Killed01" / "index.html") << "half a report";
  fs::create_directories(base / ".report.roofcast-Running1");  // a running one's: held
  const int held = ::open((base / ".report.roofcast-Running1").c_str(), O_RDONLY | O_DIRECTORY);
  REQUIRE(::flock(held, LOCK_EX) == 0);
  fs::create_directories(base / ".report.backup");  // not ours
  fs::create_directories(report);
  std::ofstream(report / ".index.html.roofcast-Killed02") << "an older run's temporary";
  const auto result = run_roofcast({"report", "--model", "thesis", "--profile", "thesis-redblack", "--device",
                                    "GTX-660", "--quadrant-kernels", "0", "--output", report.string()});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(base)) names.insert(entry.path().filename().string());
  CHECK(names == std::set<std::string>{"report", ".report.roofcast-Running1", ".report.backup"});
  CHECK_FALSE(fs::exists(report / ".index.html.roofcast-Killed02"));  // went with the former folder
  ::close(held);
}

TEST_CASE("report --top: a larger profile shows its heaviest kernels and links every prediction") {
  const auto folder = fresh_folder("report-top");
  const auto result = run_roofcast({"report", "--profile", "thesis-rodinia", "--device", "GTX-660", "--top", "5",
                                    "--quadrant-kernels", "0", "--output", folder.string()});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const std::string html = slurp(folder / "index.html");
  CHECK_THAT(html, Catch::Contains("The tables show the 5 kernels with the most predicted time"));
  CHECK_THAT(html, Catch::Contains("<a href=\"predictions.csv\">"));
  // The matrix and the details list 5 kernels on the one device, not Rodinia's 28.
  size_t rows = 0;
  for (size_t at = html.find("<tr><td class=\"name\">"); at != std::string::npos;
       at = html.find("<tr><td class=\"name\">", at + 1))
    ++rows;
  CHECK(rows == 1 + 5 + 5);  // the totals row, the matrix, the details
  CHECK_THAT(html, Catch::Contains("more kernels (all in <a href=\"warnings.csv\">"));
  // Every kernel is in the linked file: a header and 28 rows.
  const std::string csv = slurp(folder / "predictions.csv");
  CHECK(std::count(csv.begin(), csv.end(), '\n') == 1 + 28);
  CHECK_THAT(csv, Catch::StartsWith("kernel,K_type,predicted_ms GTX-660,bound GTX-660,measured_ms GTX-660,invocations\n"));
  CHECK_THAT(slurp(folder / "warnings.csv"), Catch::StartsWith("kind,kernel,detail\n"));
  // The roofline draws the 5 heaviest and says so.
  CHECK_THAT(slurp(folder / "charts" / "roofline-gtx-660.gp"), Catch::Contains("23 lighter kernels not drawn"));
}
