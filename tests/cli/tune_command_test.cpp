#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

using roofcast::testing::run_roofcast;
using roofcast::testing::temporary_file;

namespace {

// Profiles and the device profile of the H100 run in docs/validation/2026-11-25-tune.
const std::string kRun = std::string(ROOFCAST_SOURCE_DIR) + "/docs/validation/2026-11-25-tune/";
const std::string kDevice = kRun + "device.json";

// A profile of kernel "k": 4096 blocks of `threads`, each warp issuing `per_warp` instructions
// (half of them FMAs).
std::string tile_profile(int threads, int per_warp) {
  const double warps = 4096.0 * threads / 32, instructions = warps * per_warp;
  nlohmann::json counters = {{"inst_executed", instructions}, {"inst_fp_32", instructions * 16},
                             {"inst_integer", instructions / 4}, {"inst_compute_ld_st", instructions / 4},
                             {"flop_count_sp_fma", instructions * 8}, {"flop_count_dp_fma", 0}, {"inst_fp_64", 0},
                             {"dram_read_transactions", 4096 * 64}, {"dram_write_transactions", 4096 * 32},
                             {"smsp__inst_executed_pipe_fma.sum", instructions / 2}, {"sm__warps_launched.sum", warps}};
  nlohmann::json profile = {
      {"format", "roofcast-profile"},
      {"version", 1},
      {"kernels",
       {{{"name", "k"}, {"invocations", 1}, {"measured_ms", 1.0}, {"counters", counters},
         {"launch_shapes",
          {{{"grid", {4096, 1, 1}}, {"block", {threads, 1, 1}}, {"invocations", 1}, {"registers", 32}}}}}}}};
  return profile.dump();
}

}  // namespace

TEST_CASE("tune ranks block sizes of a profiled kernel, fastest first, and marks the top N") {
  const auto result = run_roofcast({"tune", "--profile", kRun + "profiles/sweep_fma.json", "--device", kDevice,
                                    "--block-sizes", "128,256,1024,2048", "--top", "2", "--format", "json"});
  REQUIRE(result.exit_code == 0);
  const auto json = nlohmann::json::parse(result.out);
  const auto& launches = json["devices"][0]["launches"];
  REQUIRE(launches.size() == 4);  // 256 is the profiled configuration
  for (size_t i = 1; i + 1 < launches.size(); ++i)
    CHECK(launches[i]["predicted_ms"].get<double>() >= launches[i - 1]["predicted_ms"].get<double>());
  CHECK(launches[0]["worth_measuring"] == true);
  CHECK(launches[1]["worth_measuring"] == true);
  CHECK(launches[2]["worth_measuring"] == false);
  // 1024 threads: 2 blocks per SM over 300,000 threads, the slowest (measured too: 0.112 vs 0.086 ms).
  CHECK(launches[2]["threads_per_block"] == 1024);
  CHECK_THAT(launches[3]["problem"].get<std::string>(), Catch::Contains("1024"));
  bool profiled = false;
  for (const auto& launch : launches) profiled = profiled || launch["profiled"] == true;
  CHECK(profiled);
}

TEST_CASE("tune prints a table and CSV, and refuses what it cannot tune") {
  const auto table = run_roofcast({"tune", "--profile", kRun + "profiles/sweep_triad.json", "--device", kDevice,
                                   "--block-sizes", "32,256"});
  REQUIRE(table.exit_code == 0);
  CHECK_THAT(table.out, Catch::Contains("block dispatch"));  // 1 M blocks of 32 threads
  CHECK_THAT(table.out, Catch::Contains("occupancy limiter"));
  const auto csv = run_roofcast({"tune", "--profile", kRun + "profiles/sweep_triad.json", "--device", kDevice,
                                 "--block-sizes", "32,256", "--format", "csv"});
  REQUIRE(csv.exit_code == 0);
  CHECK_THAT(csv.out, Catch::StartsWith("device,id,rank,block"));

  const auto published = run_roofcast({"tune", "--profile", "thesis-redblack", "--device", "GTX-480"});
  CHECK(published.exit_code == 1);
  CHECK_THAT(published.err, Catch::Contains("no launch shape"));
  const auto bad_block = run_roofcast({"tune", "--profile", kRun + "profiles/sweep_fma.json", "--device", kDevice,
                                       "--block-sizes", "16x0"});
  CHECK(bad_block.exit_code == 1);
  CHECK_THAT(bad_block.err, Catch::Contains("--block-sizes 16x0"));
  const auto tile_and_work = run_roofcast({"tune", "--profile", kRun + "profiles/sweep_fma.json", "--device", kDevice,
                                           "--fixed-tile", "--work-per-thread", "2"});
  CHECK(tile_and_work.exit_code == 2);  // options that contradict each other: a usage error
  CHECK_THAT(tile_and_work.err, Catch::Contains("--fixed-tile"));
}

TEST_CASE("tune says what the device profile lacks for the model, in every format") {
  // The 2026-11-25 device profile predates the same-word and scattered atomic benches; the
  // reduction adds one word from each block.
  const std::vector<std::string> args{"tune", "--profile", kRun + "profiles/sweep_reduce.json", "--device", kDevice,
                                      "--block-sizes", "64,512"};
  const auto table = run_roofcast(args);
  REQUIRE(table.exit_code == 0);
  CHECK_THAT(table.out, Catch::Contains("Not modelled on NVIDIA H100 80GB HBM3: no atomic_global_same_word_gops"));
  auto csv_args = args;
  csv_args.insert(csv_args.end(), {"--format", "csv"});
  const auto csv = run_roofcast(csv_args);
  REQUIRE(csv.exit_code == 0);
  CHECK_THAT(csv.out, !Catch::Contains("Not modelled"));
  CHECK_THAT(csv.err, Catch::Contains("no atomic_global_same_word_gops"));
  auto json_args = args;
  json_args.insert(json_args.end(), {"--format", "json"});
  const auto json = run_roofcast(json_args);
  REQUIRE(json.exit_code == 0);
  const auto not_modelled = nlohmann::json::parse(json.out)["devices"][0]["not_modelled"];
  REQUIRE(not_modelled.is_array());
  CHECK(std::any_of(not_modelled.begin(), not_modelled.end(), [](const nlohmann::json& note) {
    return note.get<std::string>().starts_with("no atomic_global_same_word_gops");
  }));
  // A device profile with every bench: nothing to say.
  const auto fresh = run_roofcast({"tune", "--profile", kRun + "profiles/sweep_reduce.json", "--device",
                                   std::string(ROOFCAST_SOURCE_DIR) + "/docs/validation/2026-11-27-tune-h100/device.json",
                                   "--block-sizes", "64,512", "--format", "json"});
  REQUIRE(fresh.exit_code == 0);
  CHECK(nlohmann::json::parse(fresh.out)["devices"][0]["not_modelled"].empty());
}

TEST_CASE("tune --second-profile: two instances of a template, each block's work on the line through them") {
  // The SGEMM instances of the H100 run: sweep_sgemm<256> (94 registers) and <512> (64).
  const std::string h100 = std::string(ROOFCAST_SOURCE_DIR) + "/docs/validation/2026-11-27-tune-h100/";
  const std::vector<std::string> base{"tune", "--profile", h100 + "profiles/sweep_sgemm@256.json", "--device",
                                      h100 + "device.json", "--fixed-tile", "--block-sizes", "1024", "--registers", "62",
                                      "--format", "json"};
  auto with_second = base;
  with_second.insert(with_second.end(), {"--second-profile", h100 + "profiles/sweep_sgemm@512.json"});
  const auto one = run_roofcast(base), two = run_roofcast(with_second);
  INFO(two.err);
  REQUIRE(one.exit_code == 0);
  REQUIRE(two.exit_code == 0);
  const auto json_one = nlohmann::json::parse(one.out), json_two = nlohmann::json::parse(two.out);
  CHECK(json_two["second_kernel"] == "void sweep_sgemm<512>(float*, float const*, float const*, int)");
  CHECK_FALSE(json_one.contains("second_profile"));
  const auto time_of_1024 = [](const nlohmann::json& j) {
    for (const auto& launch : j["devices"][0]["launches"])
      if (launch["threads_per_block"] == 1024) return launch["predicted_ms_per_launch"].get<double>();
    return 0.0;
  };
  // The 1024-thread instance's blocks issue 23 % more than the 256-thread one's (measured 12.7 ms
  // per launch): one profile holds the block's work, two follow its growth.
  CHECK(time_of_1024(json_one) < 8.5);
  CHECK(time_of_1024(json_two) > 10.5);

  auto table_args = with_second;
  table_args.resize(table_args.size() - 4);  // no --format json
  table_args.insert(table_args.end(), {"--second-profile", h100 + "profiles/sweep_sgemm@512.json"});
  const auto table = run_roofcast(table_args);
  REQUIRE(table.exit_code == 0);
  CHECK_THAT(table.out, Catch::Contains("on the line through it and sweep_sgemm<512>"));

  // The same block size twice, or another problem: refused with the reason.
  auto same = base;
  same.insert(same.end(), {"--second-profile", h100 + "profiles/sweep_sgemm@256.json"});
  const auto refused = run_roofcast(same);
  CHECK(refused.exit_code == 1);
  CHECK_THAT(refused.err, Catch::Contains("as many warps"));
  auto untiled = with_second;
  untiled.erase(std::find(untiled.begin(), untiled.end(), "--fixed-tile"));
  const auto other_problem = run_roofcast(untiled);
  CHECK(other_problem.exit_code == 1);
  CHECK_THAT(other_problem.err, Catch::Contains("profile the same problem"));
}

TEST_CASE("tune --fixed-tile gives each block size the work per thread that covers the profiled tile") {
  const auto result = run_roofcast({"tune", "--profile", kRun + "profiles/sweep_reduce.json", "--device", kDevice,
                                    "--block-sizes", "64,1024", "--fixed-tile", "--format", "json"});
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  const auto launches = nlohmann::json::parse(result.out)["devices"][0]["launches"];
  REQUIRE(launches.size() == 3);  // and the profiled 256
  for (const auto& launch : launches) {
    const double threads = launch["threads_per_block"];
    CHECK(launch["work_per_thread"].get<double>() == Approx(256 / threads));
    CHECK(launch["blocks"] == launches[0]["blocks"]);
  }
}

TEST_CASE("explain diagnoses the bad variant and leaves the good one alone") {
  const auto bad = run_roofcast({"explain", "--profile", kRun + "profiles/transpose_conflicting.json", "--device", kDevice});
  REQUIRE(bad.exit_code == 0);
  CHECK_THAT(bad.out, Catch::Contains("Diagnostics"));
  CHECK_THAT(bad.out, Catch::Matches("(.|\n)*shared-memory bank conflicts +16.67 wavefronts(.|\n)*if fixed(.|\n)*"));
  const auto good = run_roofcast({"explain", "--profile", kRun + "profiles/transpose_padded.json", "--device", kDevice});
  REQUIRE(good.exit_code == 0);
  CHECK(good.out.find("if fixed") == std::string::npos);
}

TEST_CASE("tune --second-profile: block sizes the line gives no work cannot be costed, in every format") {
  // 1000 instructions per warp at 256 threads, 100 at 512: a block's work falls by 800 per warp
  // it gains, below zero from 18 warps on. Those were once ranked first at the launch time alone.
  const std::string first = temporary_file("first.json", tile_profile(256, 1000));
  const std::string second = temporary_file("second.json", tile_profile(512, 100));
  const std::vector<std::string> args{"tune", "--profile", first, "--second-profile", second, "--device", kDevice,
                                      "--fixed-tile", "--block-sizes", "128,512,768,1024", "--top", "10"};
  auto json_args = args;
  json_args.insert(json_args.end(), {"--format", "json"});
  const auto json = run_roofcast(json_args);
  INFO(json.err);
  REQUIRE(json.exit_code == 0);
  const auto launches = nlohmann::json::parse(json.out)["devices"][0]["launches"];
  REQUIRE(launches.size() == 5);  // and the profiled 256
  for (size_t i = 0; i < launches.size(); ++i) {
    const auto& launch = launches[i];
    INFO(launch.dump());
    const bool beyond = launch["threads_per_block"].get<double>() > 512;
    CHECK(launch.contains("cannot_cost") == beyond);
    CHECK(launch["worth_measuring"] == !beyond);
    CHECK(launch.contains("predicted_ms") == !beyond);
    CHECK(launch.contains("rank") == !beyond);
    CHECK(beyond == (i >= 3));  // after every prediction
    if (beyond) CHECK_THAT(launch["cannot_cost"].get<std::string>(), Catch::Contains("extrapolated below zero"));
  }

  const auto table = run_roofcast(args);
  REQUIRE(table.exit_code == 0);
  CHECK_THAT(table.out, Catch::Contains("cannot be costed: the two profiles' line gives a 24-warp block"));
  CHECK_THAT(table.out, Catch::Contains("cannot be costed: the two profiles' line gives a 32-warp block"));
  CHECK_THAT(table.out, !Catch::Contains("0.0000"));
  auto csv_args = args;
  csv_args.insert(csv_args.end(), {"--format", "csv"});
  const auto csv = run_roofcast(csv_args);
  REQUIRE(csv.exit_code == 0);
  std::istringstream lines(csv.out);
  size_t refused_rows = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.find("cannot be costed") == std::string::npos) continue;
    ++refused_rows;
    CHECK_THAT(line, Catch::StartsWith("NVIDIA H100 80GB HBM3,device,-,"));  // no rank
    CHECK_THAT(line, !Catch::EndsWith("yes"));
  }
  CHECK(refused_rows == 2);
}

TEST_CASE("numeric options take exactly what their message says, in tune and its sibling commands") {
  const std::vector<std::string> tune{"tune", "--profile", kRun + "profiles/sweep_fma.json", "--device", kDevice,
                                      "--block-sizes", "256", "--format", "json"};
  const auto with = [](std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
  };
  struct Refused {
    std::vector<std::string> args;
    std::string message;
  };
  const std::string profile = kRun + "profiles/sweep_fma.json";
  const std::vector<Refused> refused{
      // --threads 1e-300 was "0 threads of work", every prediction 0 ms, under a message saying 1 to 1e15.
      {with(tune, {"--threads", "1e-300"}), "--threads: expected a whole number from 1 to 1e+15, found \"1e-300\""},
      {with(tune, {"--threads", "0"}), "--threads: expected a whole number from 1 to 1e+15"},
      {with(tune, {"--threads", "0.5"}), "--threads: expected a whole number"},
      {with(tune, {"--threads", "1.5"}), "--threads: expected a whole number"},
      {with(tune, {"--threads", "-1"}), "--threads: expected a whole number"},
      {with(tune, {"--threads", "2e15"}), "--threads: expected a whole number"},
      {with(tune, {"--threads", "0x100"}), "--threads: expected a whole number"},
      {with(tune, {"--threads", "nan"}), "--threads: expected a whole number"},
      {with(tune, {"--threads", "inf"}), "--threads: expected a whole number"},
      // "Value 1.5 not in range 1 to 255" said a value in the range was out of it.
      {with(tune, {"--registers", "1.5"}), "--registers: expected a whole number from 1 to 255, found \"1.5\""},
      {with(tune, {"--registers", "0x20"}), "--registers: expected a whole number from 1 to 255"},
      {with(tune, {"--top", "1.5"}), "--top: expected a whole number from 1 to 1000000, found \"1.5\""},
      {with(tune, {"--top", "0"}), "--top: expected a whole number from 1 to 1000000"},
      {with(tune, {"--shared-bytes", "0.5"}), "--shared-bytes: expected a whole number from 0 to 1000000000"},
      {with(tune, {"--shared-bytes", "-1"}), "--shared-bytes: expected a whole number from 0 to 1000000000"},
      // "Value 0 not in range 0.000000 to 1.79...e308" contradicted itself.
      {{"rank", "--profile", profile, "--device", kDevice, "--top", "0"},
       "--top: expected a whole number from 1 to 1000000000, found \"0\""},
      // Beyond the integer range these were clamped to the largest one without a word.
      {{"rank", "--profile", profile, "--device", kDevice, "--top", "99999999999999999999"},
       "--top: expected a whole number from 1 to 1000000000"},
      {{"report", "--profile", profile, "--device", kDevice, "-o", "unused", "--top", "1.5"},
       "--top: expected a whole number"},
      {{"report", "--profile", profile, "--device", kDevice, "-o", "unused", "--quadrant-kernels", "1.5"},
       "--quadrant-kernels: expected a whole number from 0 to 100, found \"1.5\""},
      {{"split", "--profile", "thesis-redblack", "--kernel", "sor_red", "--blocks", "99999999999999999999"},
       "--blocks: expected a whole number from 1 to 1e+15"},
      {{"profile", "--launch-skip", "-1", "--", "true"}, "--launch-skip: expected a whole number from 0 to 1e+15"},
      {{"profile", "--launch-count", "99999999999999999999", "--", "true"}, "--launch-count: expected a whole number"},
      {{"profile", "--device", "-1", "--", "true"}, "--device: expected a whole number from 0 to 65535"},
      {{"bench", "--device", "0.5", "--output", "unused.json"}, "--device: expected a whole number from 0 to 65535"},
  };
  for (const auto& r : refused) {
    INFO(r.args.back() << " " << r.args[r.args.size() - 2]);
    const auto result = run_roofcast(r.args);
    CHECK(result.exit_code == 2);  // a usage error
    CHECK_THAT(result.err, Catch::Contains(r.message));
  }
  // What the messages allow is taken, 1e6 as the whole number it is.
  const auto million = run_roofcast(with(tune, {"--threads", "1e6", "--top", "1e3", "--registers", "32"}));
  INFO(million.err);
  REQUIRE(million.exit_code == 0);
  const auto json = nlohmann::json::parse(million.out);
  CHECK(json["problem_threads"] == 1e6);
  CHECK(json["top"] == 1000);
  const auto split = run_roofcast({"split", "--profile", "thesis-redblack", "--kernel", "sor_red", "--blocks", "1e3",
                                   "--format", "json"});
  INFO(split.err);
  REQUIRE(split.exit_code == 0);
  CHECK(nlohmann::json::parse(split.out)["total_blocks"] == 1000);
}
