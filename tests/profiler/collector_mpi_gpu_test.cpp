// `roofcast profile -- mpirun -np 2 ...` (issue 15): the collector reaches every rank through
// mpirun's daemon, each rank gets its own profile from %q{OMPI_COMM_WORLD_RANK}, and
// `roofcast merge` of them feeds predict. On one GPU both ranks share it; with two or more,
// rank r runs on GPU r and its launches are recorded there. Built only where CMake finds an MPI; skips (exit 77)
// where there is no GPU.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <map>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "roofcast/formats/files.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "profile_files.hpp"
#include "run_command.hpp"

using roofcast::testing::run_roofcast;
namespace fs = std::filesystem;

namespace {

const std::string kApp = std::string(ROOFCAST_BINARY_DIR) + "/roofcast-mpi-ranks-test-app";

}  // namespace

TEST_CASE("both ranks of mpirun -np 2 are profiled, one profile each, and merge combines them for predict") {
  const fs::path folder = fs::temp_directory_path() / ("roofcast-mpi-test-" + std::to_string(getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder);
  const auto result = run_roofcast({"profile", "--output", (folder / "prof-%q{OMPI_COMM_WORLD_RANK}.json").string(),
                                    "--per-launch", "--", ROOFCAST_MPIEXEC, "-np", "2", "--allow-run-as-root",
                                    "--oversubscribe", kApp});
  INFO(result.out);
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  std::map<int, int> device_of_rank;  // as each rank printed it
  const std::regex rank_line(R"(rank (\d) of 2 on device (\d+) of (\d+))");
  for (std::sregex_iterator it(result.out.begin(), result.out.end(), rank_line), end; it != end; ++it)
    device_of_rank[std::stoi((*it)[1])] = std::stoi((*it)[2]);
  REQUIRE(device_of_rank.size() == 2);
  for (int rank = 0; rank < 2; ++rank) {
    const fs::path file = folder / ("prof-" + std::to_string(rank) + ".json");
    INFO(file.string());
    REQUIRE(fs::exists(file));
    const auto profile = read_checked_profile(file);
    auto kernels = kernels_by_short_name(profile);
    REQUIRE(kernels.count("rank_step") == 1);
    REQUIRE(kernels.count("rank_sum") == 1);
    CHECK(kernels.at("rank_step")["invocations"] == 30);
    CHECK(kernels.at("rank_step")["launch_shapes"][0]["grid"][0] == 4 + rank);  // this rank's own launches
    CHECK(kernels.at("rank_step")["profiled_invocations"] == 5);                  // counters collected in this rank
    CHECK(kernels.at("rank_step")["counters"]["smsp__inst_executed.sum"].get<double>() > 0);
    CHECK(kernels.at("rank_sum")["invocations"] == 1);
    CHECK(profile["processes"].size() == 1);
    for (const auto& launch : kernels.at("rank_step")["launches"]) CHECK(launch["device"] == device_of_rank.at(rank));
  }
  const std::string merged = (folder / "merged.json").string();
  const auto merge =
      run_roofcast({"merge", (folder / "prof-0.json").string(), (folder / "prof-1.json").string(), "-o", merged});
  INFO(merge.err);
  REQUIRE(merge.exit_code == 0);
  const auto profile = read_checked_profile(merged);
  CHECK(profile["kernels"].size() == 4);
  CHECK(profile["merged"]["invocations"] == 62.0);
  const auto predicted = run_roofcast({"predict", "--profile", merged, "--device", "GTX-660"});
  INFO(predicted.err);
  CHECK(predicted.exit_code == 0);
  CHECK(predicted.out.find("[prof-0]") != std::string::npos);
  CHECK(predicted.out.find("[prof-1]") != std::string::npos);
  if (device_of_rank.at(0) != device_of_rank.at(1)) WARN("two GPUs: rank 0 on GPU 0, rank 1 on GPU 1");
  fs::remove_all(folder);
}
