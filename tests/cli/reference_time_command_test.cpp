// The reference-time term from the command line (docs/pipes-model.md, "The reference's measured
// time"): `--ablate reference-time` switches it off in every command and every output names the
// model; `explain` shows what it did where it acted.
#include <catch2/catch.hpp>

#include <string>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

using roofcast::testing::run_roofcast;

namespace {

// PyTorch's LayerNorm profiled on the H100 of the 2026-11-24 corpus run, predicted for its H200:
// its stall counts give 14.3 ns per instruction, a launch took 8.4 ns per instruction on the H100.
const std::string kRuns = std::string(ROOFCAST_SOURCE_DIR) + "/docs/validation/2026-11-24-latency/";
const std::string kProfile = kRuns + "h100-run/profiles/pytorch_ops.json";
const std::string kH200 = kRuns + "h200-run/devices/full.json";
const std::string kLayerNorm =
    "void at::native::(anonymous namespace)::LayerNormForwardCUDAKernel<double, double, false>(long, double const*, "
    "double const*, double const*, double const*, double const*, double*)";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("explain shows where the reference's measured time capped the latency, and --ablate takes it out") {
  const auto with = run_roofcast({"explain", "--profile", kProfile, "--kernel", kLayerNorm, "--device", kH200});
  INFO(with.err);
  REQUIRE(with.exit_code == 0);
  CHECK(contains(with.out, "; model pipes\n"));
  CHECK(contains(with.out, "\nReference time (the kernel's measured time on the reference GPU bounds these"));
  CHECK(contains(with.out, "latency capped at 8.445 ns per instruction (14.310 from the stall counts)"));

  const auto without = run_roofcast(
      {"explain", "--profile", kProfile, "--kernel", kLayerNorm, "--device", kH200, "--ablate", "reference-time"});
  INFO(without.err);
  REQUIRE(without.exit_code == 0);
  CHECK(contains(without.out, "; model pipes without reference-time\n"));
  CHECK_FALSE(contains(without.out, "Reference time"));
  CHECK(contains(without.out, "x 14.310 ns each"));

  const auto json = run_roofcast({"explain", "--profile", kProfile, "--kernel", kLayerNorm, "--device", kH200,
                                  "--format", "json"});
  REQUIRE(json.exit_code == 0);
  const auto latency = nlohmann::json::parse(json.out)["predictions"][0]["details"]["latency"];
  CHECK(latency["uncapped_ns_per_instruction"].get<double>() == Approx(14.31).epsilon(1e-3));
}

TEST_CASE("ablate: predict and validate name the model without the term, and the thesis model refuses it") {
  const auto predicted = run_roofcast({"predict", "--profile", kProfile, "--device", kH200, "--ablate",
                                       "reference-time", "--format", "json"});
  REQUIRE(predicted.exit_code == 0);
  CHECK(nlohmann::json::parse(predicted.out)["model"] == "pipes without reference-time");

  const auto validated = run_roofcast({"validate", "--reference-profile", kProfile, "--device", kH200,
                                       "--allow-missing", "--measured", kRuns + "h200-run/profiles/pytorch_ops.json",
                                       "--ablate", "reference-time", "--ablate", "launch", "--output", "-"});
  INFO(validated.err);
  REQUIRE(validated.exit_code == 0);
  const auto report = nlohmann::json::parse(validated.out);
  CHECK(report["model"] == "pipes without launch, reference-time");
  // The command it records runs again as it is: the model under its name.
  CHECK(contains(report["command"].get<std::string>(), "--model 'pipes without launch, reference-time'"));

  const auto thesis = run_roofcast({"predict", "--profile", kProfile, "--model", "thesis", "--ablate", "latency"});
  CHECK(thesis.exit_code != 0);
  CHECK(contains(thesis.err, "--ablate"));
  const auto unknown = run_roofcast({"predict", "--profile", kProfile, "--ablate", "reference_time"});
  CHECK(unknown.exit_code != 0);
  CHECK(contains(unknown.err, "reference-time"));  // the known terms are listed
}

TEST_CASE("tune --ablate reference-time predicts every configuration without the profiled launch's time") {
  const std::string run = std::string(ROOFCAST_SOURCE_DIR) + "/docs/validation/2026-11-27-tune-h100/";
  const std::vector<std::string> tune = {"tune", "--profile", run + "profiles/sweep_reduce.json", "--device",
                                         run + "device.json", "--block-sizes", "128,512", "--format", "json"};
  const auto with = run_roofcast(tune);
  std::vector<std::string> ablated = tune;
  ablated.insert(ablated.end(), {"--ablate", "reference-time"});
  const auto without = run_roofcast(ablated);
  REQUIRE(with.exit_code == 0);
  REQUIRE(without.exit_code == 0);
  const auto a = nlohmann::json::parse(with.out), b = nlohmann::json::parse(without.out);
  CHECK(a["model"] == "pipes");
  CHECK(b["model"] == "pipes without reference-time");
  // One float atomic per block: at the float same-word rate with the term (the profiled launch took
  // that long per atomic), at the integer rate without; where the atomics set the time, faster.
  const auto ms = [](const nlohmann::json& tuned, int threads) {
    for (const auto& launch : tuned["devices"][0]["launches"])
      if (launch["threads_per_block"] == threads) return launch["predicted_ms"].get<double>();
    return -1.0;
  };
  for (int threads : {128, 256}) {
    INFO(threads << " threads");
    CHECK(ms(b, threads) > 0);
    CHECK(ms(b, threads) < ms(a, threads));
  }
  CHECK(ms(b, 512) == Approx(ms(a, 512)));  // there the atomics do not set the time
}
