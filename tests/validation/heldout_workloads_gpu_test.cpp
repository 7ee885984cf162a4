// The held-out programs (docs/validation/heldout/README.md), each run at its small size on the
// GPU: every kernel it times must also be checked against its host reference, every check must
// pass, and every time must be positive. The list comes from the build
// (ROOFCAST_HELDOUT_WORKLOADS in workloads/CMakeLists.txt).
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>

namespace {

struct Run {
  int exit_code = -1;
  std::string output;
};

Run run_workload(const std::string& workload) {
  const std::string command = std::string(ROOFCAST_BINARY_DIR) + "/roofcast-workload-" + workload +
                              " --small --warmups 1 --repeats 3 2>&1";
  Run run;
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe)) run.output += buffer.data();
  const int status = ::pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

struct Lines {
  std::map<std::string, double> kernel_median_ms;  // "kernel NAME median_ms T ..."
  std::map<std::string, std::string> check_result;  // "check NAME ok|FAILED ..."
};

Lines read_lines(const std::string& output) {
  Lines lines;
  std::istringstream text(output);
  std::string line;
  while (std::getline(text, line)) {
    std::istringstream words(line);
    std::string tag, name, word;
    if (!(words >> tag >> name >> word)) continue;
    if (tag == "check") lines.check_result[name] = word;
    double median = -1;
    if (tag == "kernel" && word == "median_ms" && words >> median) lines.kernel_median_ms[name] = median;
  }
  return lines;
}

}  // namespace

TEST_CASE("each held-out program checks every kernel it times, and the checks pass") {
  std::istringstream names(ROOFCAST_HELDOUT_WORKLOADS);
  std::set<std::string> workloads;
  for (std::string name; names >> name;) workloads.insert(name);
  REQUIRE(workloads.size() >= 6);
  for (const auto& workload : workloads) {
    SECTION(workload) {
      const Run run = run_workload(workload);
      INFO(run.output);
      CHECK(run.exit_code == 0);
      const Lines lines = read_lines(run.output);
      REQUIRE(!lines.kernel_median_ms.empty());
      for (const auto& [kernel, median_ms] : lines.kernel_median_ms) {
        INFO(kernel);
        CHECK(median_ms > 0);
        REQUIRE(lines.check_result.contains(kernel));
        CHECK(lines.check_result.at(kernel) == "ok");
      }
      CHECK(lines.check_result.size() == lines.kernel_median_ms.size());
    }
  }
}
