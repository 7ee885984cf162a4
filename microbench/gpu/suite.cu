#include "roofcast/microbench/suite.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <stdexcept>

#include "characterizers.hpp"
#include "device_query.hpp"
#include "nvml_clocks.hpp"
#include "roofcast/microbench/bench_groups.hpp"
#include "roofcast/microbench/peak_table.hpp"
#include "roofcast/microbench/transfer_fit.hpp"

namespace roofcast::microbench {

namespace {

double median_or_zero(const std::vector<double>& samples) { return samples.empty() ? 0 : summarize(samples).median; }

double value_of(const SuiteResult& result, const std::string& key) {
  const Measurement* m = result.find(key);
  return m ? m->value.median : 0;
}

// The group `name` of bench_groups(): the suite's steps and that list must not drift apart.
const BenchGroup& group_named(const std::string& name) {
  for (const auto& group : bench_groups())
    if (group.name == name) return group;
  throw std::logic_error("suite step \"" + name + "\" is not in bench_groups()");
}

// Every copy direction's sweep, fitted; a failure is recorded and the others kept.
void characterize_and_fit_transfers(const gpu::Context& context, SuiteResult& result) {
  try {
    for (auto& sweep : gpu::characterize_transfers(context)) {
      try {
        fit_transfer_sweep(sweep);
        result.transfers.push_back(std::move(sweep));
      } catch (const std::invalid_argument& error) {  // one bad fit does not lose the others
        result.problems.push_back(std::string("host-device copies: ") + error.what());
      }
    }
  } catch (const std::exception& error) {
    result.problems.push_back(std::string("host-device copies: ") + error.what());
  }
}

// The rates measured earlier that size the roofline sweep's launches.
gpu::RooflineRates roofline_rates(const SuiteResult& result) {
  gpu::RooflineRates rates;
  rates.dram_gbps = value_of(result, "dram_read_gbps");
  rates.fp32_gflops = value_of(result, "fp32_gflops");
  rates.fp64_gflops = value_of(result, "fp64_gflops");
  rates.half2_gflops = value_of(result, "half2_gflops");
  rates.int32_mad_giops = value_of(result, "int32_mad_giops");
  return rates;
}

}  // namespace

SuiteResult run_suite(const SuiteOptions& options, const ProgressCallback& progress) {
  using namespace roofcast::gpu;
  const auto started = std::chrono::steady_clock::now();
  int devices = 0;
  const Error status = device_count(&devices);
  if (status != kSuccess || devices == 0) {
    // Without a driver the runtime says "driver version is insufficient": say what is missing.
    int driver = 0;
    const bool no_driver = driver_version(&driver) == kSuccess && driver == 0;
    throw GpuError(fmt::format(
        "no GPU on this machine ({}): roofcast bench measures a GPU of the machine it runs on; to predict for a "
        "GPU you do not have, use a device `roofcast devices` lists",
        no_driver ? fmt::format("no {} driver is loaded", std::string_view(ROOFCAST_BACKEND_NAME) == "hip" ? "AMD" : "NVIDIA")
        : status != kSuccess ? fmt::format("{} runtime: {}", ROOFCAST_BACKEND_NAME, error_string(status))
                             : "the driver sees none"));
  }
  if (options.device < 0 || options.device >= devices)
    throw GpuError(fmt::format("--device {}: this machine has {} GPU(s) (0 to {})", options.device, devices,
                               devices - 1));
  ROOFCAST_GPU_CHECK(set_device(options.device));

  SuiteResult result;
  result.quick = options.quick;
  result.device = query_device(options.device);
  for (const auto& group : options.groups) group_named(group);  // no unknown group goes unrun unnoticed
  const auto wanted = [&](const std::string& group) {
    return options.groups.empty() ||
           std::find(options.groups.begin(), options.groups.end(), group_named(group).name) != options.groups.end();
  };

  Context context;
  context.device = options.device;
  context.sm_count = result.device.sm_count;
  context.warp_size = result.device.warp_size;
  context.compute_major = compute_capability_major(options.device);
  context.l2_bytes = static_cast<size_t>(result.device.l2_bytes);
  size_t free = 0, total = 0;
  ROOFCAST_GPU_CHECK(mem_get_info(&free, &total));
  context.free_bytes = free;
  context.quick = options.quick;
  context.policy = {options.quick ? 1 : 2, options.quick ? 10 : 15};
  context.target_ms = options.quick ? 1.0 : 3.0;

  NvmlClockSampler nvml(result.device.pci_bus_id);

  const int sweep_points = wanted("roofline sweep") ? roofline_point_count(context) : 0;
  int total_steps = 1 + sweep_points;  // "SMs in use", then one per group run
  for (const auto& group : bench_groups())
    if (wanted(group.name) && group.name != "roofline sweep") ++total_steps;
#if !ROOFCAST_HAVE_WGMMA
  if (wanted("tensor cores (wgmma)")) --total_steps;
#endif
  int done = 0;
  auto step = [&](const std::string& name) { progress(done++, total_steps, name); };
  // One failing characterizer does not lose the others' results: it is recorded and reported.
  auto run_group = [&](const std::string& name, const std::function<std::vector<Measurement>()>& characterize) {
    if (!wanted(name)) return;
    step(name);
    try {
      const auto more = characterize();
      const auto& keys = group_named(name).keys;
      for (const auto& m : more)
        if (std::find(keys.begin(), keys.end(), m.key) == keys.end())
          result.problems.push_back(fmt::format("{}: measured \"{}\", which bench_groups() does not list for it "
                                                "(`roofcast bench --complete` would not find it)",
                                                name, m.key));
      result.measurements.insert(result.measurements.end(), more.begin(), more.end());
    } catch (const std::exception& error) {
      result.problems.push_back(name + ": " + error.what());
    }
  };

  step("SMs in use");
  result.device.sm_count_observed = count_running_sms(context);
  if (options.check_device) options.check_device(result.device);
  run_group("arithmetic", [&] { return characterize_compute(context); });
  run_group("shared memory", [&] { return characterize_shared_memory(context); });
  run_group("pipe issue rates", [&] { return characterize_pipes(context); });
  run_group("atomics", [&] { return characterize_atomics(context); });
  run_group("tensor cores", [&] { return characterize_tensor_cores(context); });
#if ROOFCAST_HAVE_WGMMA
  run_group("tensor cores (wgmma)", [&] { return characterize_wgmma_tensor_cores(context, result.problems); });
#endif
  run_group("L1 and L2", [&] { return characterize_caches(context); });
  run_group("DRAM", [&] { return characterize_dram(context); });
  run_group("DRAM latency", [&] { return characterize_memory_parallelism(context); });
  run_group("gathers", [&] { return characterize_gathers(context); });
  run_group("scattered stores", [&] { return characterize_scattered_stores(context); });
  run_group("arithmetic latency", [&] { return characterize_arithmetic_latency(context); });
  run_group("memory latency", [&] { return characterize_memory_latency(context); });
  run_group("launch overhead", [&] { return characterize_launch(context); });
  if (wanted("host-device copies")) {
    step("host-device copies");
    characterize_and_fit_transfers(context, result);
  }
  if (wanted("roofline sweep")) {
    int point = 0;
    progress(done, total_steps, "roofline sweep");
    try {
      result.sweep = characterize_roofline(context, roofline_rates(result), [&] {
        ++point;
        progress(++done, total_steps, fmt::format("roofline sweep ({}/{})", point, sweep_points));
      });
    } catch (const std::exception& error) {
      result.problems.push_back(std::string("roofline sweep: ") + error.what());
    }
  }

  nvml.stop();
  std::vector<double> in_kernel;
  for (const auto& m : result.measurements)
    if (m.sm_clock_mhz > 0) in_kernel.push_back(m.sm_clock_mhz);
  result.clocks.sm_clock_mhz_in_kernel = median_or_zero(in_kernel);
  result.clocks.nvml_available = nvml.available();
  result.clocks.nvml_problem = nvml.problem();
  if (nvml.available()) {
    const auto sm = nvml.sm_clock_samples(), memory = nvml.memory_clock_samples();
    if (!sm.empty()) result.clocks.nvml_sm_clock_mhz = summarize(sm);
    if (!memory.empty()) result.clocks.nvml_memory_clock_mhz = summarize(memory);
    result.clocks.nvml_max_sm_clock_mhz = nvml.max_sm_clock_mhz();
    result.clocks.nvml_max_memory_clock_mhz = nvml.max_memory_clock_mhz();
    if (!nvml.driver_version().empty())
      result.device.driver_version = fmt::format("{} ({})", nvml.driver_version(), result.device.driver_version);
  }
  apply_theoretical_peaks(result);
  result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  progress(total_steps, total_steps, "done");
  return result;
}

}  // namespace roofcast::microbench
