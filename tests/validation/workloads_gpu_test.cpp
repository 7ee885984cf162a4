// Every validation workload the build makes, run at its small size on the GPU: it must verify
// its results against the host reference and print a positive time for each of its kernels.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

#include "gpu_skip.hpp"

#include <nlohmann/json.hpp>

namespace {

struct Run {
  int exit_code = -1;
  std::string output;
};

Run run_shell(const std::string& command) {
  Run run;
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::array<char, 4096> buffer{};
  while (std::fgets(buffer.data(), buffer.size(), pipe)) run.output += buffer.data();
  const int status = ::pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

Run run_workload(const std::string& workload) {
  return run_shell(std::string(ROOFCAST_BINARY_DIR) + "/roofcast-workload-" + workload +
                   " --small --warmups 1 --repeats 3 2>&1");
}

// Kernel name -> median time, from the "kernel NAME median_ms T ..." lines.
std::map<std::string, double> kernel_times(const std::string& output) {
  std::map<std::string, double> times;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    std::istringstream words(line);
    std::string tag, name, key;
    double median = -1;
    if (words >> tag >> name >> key >> median && (tag == "kernel" || tag == "op") && key == "median_ms")
      times[name] = median;
  }
  return times;
}

// The workloads the build makes (ROOFCAST_WORKLOADS of workloads/CMakeLists.txt).
std::vector<std::string> built_workloads() {
  std::istringstream names(ROOFCAST_WORKLOADS);
  std::vector<std::string> workloads;
  for (std::string name; names >> name;) workloads.push_back(name);
  return workloads;
}

// The kernels each workload times ("kernel NAME median_ms ..."). heat2d runs its solver as an
// application does and times no kernel of its own: its check is its result against the host's.
const std::map<std::string, std::vector<std::string>> kKernelsOf = {
    {"redblack_sor", {"sor_red", "sor_black"}},
    {"lmsor", {"lmsor_red", "lmsor_black"}},
    {"sgemm", {"sgemm_tile32", "sgemm_tile16"}},
    {"stream", {"stream_copy", "stream_scale", "stream_add", "stream_triad"}},
    {"int_heavy", {"int_hash"}},
    {"divergent", {"divergent_branches"}},
    {"short_kernel", {"short_saxpy"}},
    {"serial_latency", {"serial_fma_chain", "pointer_chase"}},
    {"launch_chain", {"tiny_step"}},
    {"low_occupancy", {"lowocc_fp32_loop", "lowocc_fp64_loop"}},
    {"atomics",
     {"histogram_shared", "scatter_add_distinct_1m", "scatter_add_distinct_64k", "scatter_add_distinct_1k",
      "scatter_add_distinct_32", "scatter_add_distinct_1"}},
    {"graph_gather", {"bfs_pull_step"}},
    {"merge_sort", {"bitonic_sort_tiles", "merge_pass"}},
    {"bulk_copy", {"bulk_copy_scale"}},
    {"heat2d", {}},
};

}  // namespace

// CTest runs each workload on its own (`-c WORKLOAD`, tests/CMakeLists.txt).
TEST_CASE("each workload verifies against its host reference and times its kernels", "[workloads]") {
  const std::vector<std::string> workloads = built_workloads();
  REQUIRE(!workloads.empty());
  for (const auto& workload : workloads) {
    SECTION(workload) {
      INFO(workload);
      // A workload the build makes must say here what it times, or nothing of it is checked.
      REQUIRE(kKernelsOf.contains(workload));
      const Run run = run_workload(workload);
      INFO(run.output);
      CHECK(run.exit_code == 0);
      if (workload == "bulk_copy" && run.output.rfind("skip bulk_copy:", 0) == 0) {
        roofcast::testing::skip_checks("bulk_copy: not a Hopper GPU, the bulk-copy (TMA) workload does not run here");
        return;
      }
      CHECK(run.output.find("check ") != std::string::npos);
      CHECK(run.output.find("FAILED") == std::string::npos);
      const auto times = kernel_times(run.output);
      for (const auto& kernel : kKernelsOf.at(workload)) {
        INFO(kernel);
        REQUIRE(times.contains(kernel));
        CHECK(times.at(kernel) > 0);
      }
    }
  }
}

TEST_CASE("the PyTorch ops script verifies and times every op", "[pytorch]") {
  if (run_shell("python3 -c 'import torch' 2>&1").exit_code != 0) {
    roofcast::testing::skip_checks("python3 has no torch here: the PyTorch ops script does not run");
    return;
  }
  const Run run = run_shell("python3 " + std::string(ROOFCAST_SOURCE_DIR) +
                            "/workloads/pytorch_ops.py --small --warmups 1 --repeats 3 2>&1");
  INFO(run.output);
  CHECK(run.exit_code == 0);
  CHECK(run.output.find("FAILED") == std::string::npos);
  const auto times = kernel_times(run.output);
  for (const char* op : {"matmul_fp32", "matmul_bf16", "elementwise_axpb", "elementwise_gelu", "softmax", "layernorm",
                         "sum_all", "sum_rows"}) {
    INFO(op);
    REQUIRE(times.contains(op));
    CHECK(times.at(op) > 0);
  }
  // --op: that op alone, in a process of its own (scripts/dev/collector-parity.sh).
  const Run one = run_shell("python3 " + std::string(ROOFCAST_SOURCE_DIR) +
                            "/workloads/pytorch_ops.py --small --warmups 1 --repeats 3 --op layernorm 2>&1");
  INFO(one.output);
  CHECK(one.exit_code == 0);
  CHECK(one.output.find("check layernorm ok") != std::string::npos);
  const auto alone = kernel_times(one.output);
  CHECK(alone.size() == 1);
  CHECK(alone.contains("layernorm"));
}

TEST_CASE("each latency-class workload verifies and times every kernel its manifest entries name", "[latency-classes]") {
  std::ifstream file(std::string(ROOFCAST_SOURCE_DIR) + "/workloads/latency_classes.json");
  REQUIRE(file);
  const auto manifest = nlohmann::json::parse(file);
  for (const auto& entry : manifest.at("classes")) {
    const std::string cls = entry.at("class"), program = entry.at("program");
    SECTION(program) {
      const Run run = run_workload(program);
      INFO(run.output);
      CHECK(run.exit_code == 0);
      CHECK(run.output.find("check ") != std::string::npos);
      CHECK(run.output.find("FAILED") == std::string::npos);
      const auto times = kernel_times(run.output);
      size_t kernels = 0;
      for (const auto& kernel : manifest.at("kernels")) {
        if (kernel.at("class") != cls) continue;
        ++kernels;
        const std::string name = kernel.at("kernel");
        INFO(name);
        REQUIRE(times.contains(name));
        CHECK(times.at(name) > 0);
      }
      CHECK(kernels >= 2);
    }
  }
}
