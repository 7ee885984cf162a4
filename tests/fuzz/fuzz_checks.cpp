#include "fuzz_checks.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <variant>

#include <fmt/format.h>

#include "roofcast/data/bundled_data.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/model/pipes_prediction.hpp"
#include "roofcast/model/profile_prediction.hpp"
#include "roofcast/model/transfers.hpp"

namespace roofcast::fuzz {

namespace {

void check_optional(const std::optional<double>& value, std::string_view what) {
  if (value) check_finite_non_negative(*value, what);
}

void check_thesis(const ThesisPrediction& p, const std::string& where) {
  for (const auto& [value, name] : {std::pair{p.T_op, "T_op"}, {p.E_instr, "E_instr"},
                                    {p.T_op_adjusted, "T_op_adjusted"}, {p.O_dev, "O_dev"},
                                    {p.T_predicted, "T_predicted"}, {p.predicted_ms, "predicted_ms"}})
    check_finite_non_negative(value, fmt::format("thesis {} of {}", name, where));
  // O_krn is +infinity for a kernel that moves no DRAM bytes, by definition.
  if (std::isnan(p.O_krn) || p.O_krn < 0) finding("thesis O_krn NaN or negative", where);
}

void check_prediction(const ProfilePrediction& prediction) {
  for (const auto& k : prediction.kernels) {
    const std::string where = fmt::format("kernel \"{}\" on {}", k.kernel, k.device);
    if (const auto* thesis = k.prediction.thesis()) check_thesis(*thesis, where);
    if (const auto* pipes = k.prediction.pipes()) check_pipes(*pipes, where);
    check_optional(k.measured_ms, "measured_ms of " + where);
    check_optional(k.E_util, "E_util of " + where);
    check_optional(k.corrected_ms, "corrected_ms of " + where);
    for (const auto& error : {k.error, k.corrected_error})
      if (error && !(std::isfinite(*error) && *error >= -1)) finding("a prediction error not finite or below -1", where);
  }
  for (const auto& total : prediction.totals) {
    check_finite_non_negative(total.predicted_ms, "total predicted_ms on " + total.device);
    check_optional(total.measured_ms, "total measured_ms on " + total.device);
    check_optional(total.corrected_ms, "total corrected_ms on " + total.device);
  }
}

}  // namespace

void finding(std::string_view what, std::string_view detail) {
  std::fprintf(stderr, "FUZZ FINDING: %.*s: %.*s\n", static_cast<int>(what.size()), what.data(),
               static_cast<int>(detail.size()), detail.data());
  std::abort();
}

void check_finite_non_negative(double value, std::string_view what) {
  if (!std::isfinite(value) || value < 0) finding(fmt::format("{} = {}", what, value), "not finite and >= 0");
}

void check_pipes(const PipesPrediction& p, const std::string& where) {
  for (const auto& [value, name] : {std::pair{p.compute_ms, "compute_ms"}, {p.memory_ms, "memory_ms"},
                                    {p.blocks, "blocks"}, {p.compute_wave_factor, "compute_wave_factor"},
                                    {p.launch_ms, "launch_ms"}, {p.dispatch_ms, "dispatch_ms"},
                                    {p.predicted_ms, "predicted_ms"}})
    check_finite_non_negative(value, fmt::format("pipes {} of {}", name, where));
  if (p.blocks_per_sm < 0) finding("pipes blocks_per_sm negative", where);
  for (const auto* costs : {&p.compute, &p.memory})
    for (const auto& cost : *costs) check_finite_non_negative(cost.ms, fmt::format("pipes cost {} of {}", cost.name, where));
}

void check_device(const DeviceProfile& device) {
  const std::string& d = device.name;
  const auto& t = device.throughput;
  for (const auto& [value, name] : {std::pair{t.fp32_gflops, "fp32_gflops"}, {t.fp64_gflops, "fp64_gflops"},
                                    {t.int32_mad_giops, "int32_mad_giops"}, {t.int32_add_giops, "int32_add_giops"},
                                    {t.shared_ldst_gops, "shared_ldst_gops"}, {t.dram_gbps, "dram_gbps"},
                                    {device.sm_clock_mhz, "sm_clock_mhz"}})
    check_finite_non_negative(value, fmt::format("device {} {}", d, name));
  if (device.sm_count < 0) finding("negative sm_count", d);
  const auto& o = device.occupancy;
  for (const double value : {o.max_threads_per_sm, o.max_blocks_per_sm, o.registers_per_sm,
                             o.register_allocation_unit})
    check_finite_non_negative(value, fmt::format("device {} occupancy limit", d));
  for (const auto& [name, value] : device.extra_throughput)
    check_finite_non_negative(value, fmt::format("device {} {}", d, name));
  for (const auto& [name, fit] : device.transfers) {
    check_finite_non_negative(fit.bandwidth_gbps, fmt::format("device {} transfer {} bandwidth", d, name));
    check_finite_non_negative(fit.latency_us, fmt::format("device {} transfer {} latency", d, name));
  }
}

void check_profile(const KernelProfile& profile) {
  for (const auto& kernel : profile.kernels) {
    const std::string& k = kernel.name;
    if (kernel.invocations < 1) finding("invocations below 1", k);
    check_optional(kernel.measured_ms, "measured_ms of " + k);
    for (const auto& [device, ms] : kernel.measured_ms_by_device)
      check_finite_non_negative(ms, fmt::format("measured_ms of {} on {}", k, device));
    for (const auto& shape : kernel.launch_shapes) {
      for (const double value : {shape.blocks(), shape.threads_per_block(), shape.shared_bytes_per_block()})
        check_finite_non_negative(value, "launch shape of " + k);
      if (shape.invocations < 0 || shape.registers_per_thread < 0) finding("negative launch shape count", k);
    }
    if (const auto* counters = std::get_if<KernelCounters>(&kernel.description)) {
      const auto& c = counters->thesis;
      for (const double value : {c.flop_count_sp_fma, c.flop_count_dp_fma, c.inst_compute_ld_st, c.inst_executed,
                                 c.inst_fp_32, c.inst_fp_64, c.inst_integer, c.dram_read_transactions,
                                 c.dram_write_transactions})
        check_finite_non_negative(value, "a thesis counter of " + k);
      for (const auto& [name, value] : counters->extra) check_finite_non_negative(value, name + " of " + k);
    } else {
      const auto& p = std::get<KernelParameters>(kernel.description);
      for (const double value : {p.W_comp, p.W_traf, p.E_mix, p.D_ops, p.D_ldst})
        check_finite_non_negative(value, "a parameter of " + k);
    }
  }
  for (const auto& transfer : profile.transfers) {
    check_finite_non_negative(transfer.count, "a transfer count");
    check_finite_non_negative(transfer.bytes, "transfer bytes");
    check_optional(transfer.measured_ms, "a transfer's measured_ms");
  }
}

void predict_and_check(const KernelProfile& profile, const std::vector<DeviceProfile>& devices) {
  const DeviceProfile* reference = nullptr;
  for (const auto& device : devices)
    if (device.name == profile.reference_device) reference = &device;
  for (const auto& model : model_names()) check_prediction(predict_profile(*make_predictor(model), profile, devices, reference));
  for (const auto& device : devices) {
    for (const auto& kernel : profile.kernels)
      check_pipes(predict_pipes(kernel, device), fmt::format("kernel \"{}\" on {}", kernel.name, device.name));
    for (const auto& transfer : profile.transfers) {
      const auto fit = device.transfers.find(transfer_key(transfer.kind, transfer.pinned));
      if (fit != device.transfers.end())
        check_finite_non_negative(predict_transfer_ms(fit->second, transfer.bytes, transfer.count),
                                  "predicted transfer time on " + device.name);
    }
  }
}

void check_imported_profile(const nlohmann::json& imported) {
  const KernelProfile profile = parse_kernel_profile(imported.dump(2), kSource);
  check_profile(profile);
  predict_and_check(profile, bundled_devices_for_fuzzing());
}

const std::vector<DeviceProfile>& bundled_devices_for_fuzzing() {
  static const std::vector<DeviceProfile> devices = bundled_devices();
  return devices;
}

const std::vector<KernelProfile>& bundled_profiles_for_fuzzing() {
  static const std::vector<KernelProfile> profiles = [] {
    std::vector<KernelProfile> result;
    for (const auto& id : bundled_profile_ids()) result.push_back(*find_bundled_profile(id));
    return result;
  }();
  return profiles;
}

}  // namespace roofcast::fuzz
