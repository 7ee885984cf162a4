#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "commands/commands.hpp"
#include "roofcast/output/diagnostics_output.hpp"
#include "inputs.hpp"
#include "missing_bench_keys.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/kernel_lookup.hpp"
#include "roofcast/formats/kernel_name_text.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/output/pipes_explanation.hpp"
#include "roofcast/output/prediction_output.hpp"
#include "roofcast/model/predictor.hpp"
#include "roofcast/model/profile_prediction.hpp"
#include "roofcast/model/thesis_prediction.hpp"

namespace roofcast {

namespace {

struct ExplainOptions {
  std::string profile;
  std::string kernel;
  std::string device;
  std::string model;
  std::string format;
};

std::string counters_section(const ThesisCounters& c) {
  return fmt::format(
      "Counters (totals over the profiled invocations)\n"
      "  M_fma32  flop_count_sp_fma        {:>16.0f}\n"
      "  M_fma64  flop_count_dp_fma        {:>16.0f}\n"
      "  M_ldst   inst_compute_ld_st       {:>16.0f}\n"
      "  M_inst   inst_executed            {:>16.0f}  (warp level)\n"
      "  M_fp32   inst_fp_32               {:>16.0f}\n"
      "  M_fp64   inst_fp_64               {:>16.0f}\n"
      "  M_int    inst_integer             {:>16.0f}\n"
      "  M_tran-r dram_read_transactions   {:>16.0f}\n"
      "  M_tran-w dram_write_transactions  {:>16.0f}\n\n",
      c.flop_count_sp_fma, c.flop_count_dp_fma, c.inst_compute_ld_st, c.inst_executed, c.inst_fp_32, c.inst_fp_64,
      c.inst_integer, c.dram_read_transactions, c.dram_write_transactions);
}

std::string parameters_section(const KernelParameters& k, bool from_counters) {
  const char* rule = k.type == KernelType::fp64   ? "M_fp64 > 0"
                     : k.type == KernelType::fp32 ? "M_fp64 = 0 and M_fp32 > 0"
                                                  : "no floating-point instructions";
  return fmt::format(
      "Kernel parameters ({})\n"
      "  K_type  = {}  ({})\n"
      "  W_comp  = {:.0f} operations  (M_op + M_fma)\n"
      "  W_traf  = {:.0f} bytes  (32 x (M_tran-r + M_tran-w))\n"
      "  E_mix   = {:.2f} %  ((M_op + M_fma) / (2 M_op); 50 % for int)\n"
      "  D_ops   = {:.2f} %  (I_ops / (32 M_inst))\n"
      "  D_ldst  = {:.2f} %  (M_ldst / (32 M_inst))\n"
      "  D_other = {:.2f} %  (1 - D_ops - D_ldst)\n"
      "  O_krn   = {:.4f} ops/byte  (W_comp / W_traf)\n\n",
      from_counters ? "thesis eqs. 4.1-4.8, from the counters" : "as published", to_string(k.type), rule, k.W_comp,
      k.W_traf, 100 * k.E_mix, 100 * k.D_ops, 100 * k.D_ldst, 100 * k.D_other(), k.O_krn());
}

std::string prediction_section(const KernelParameters& k, const DeviceProfile& device, const ThesisPrediction& p) {
  const auto& t = device.throughput;
  const std::string type_peak = k.type == KernelType::fp64 ? "T_DP" : k.type == KernelType::fp32 ? "T_SP" : "T_int";
  std::string out = fmt::format(
      "Device {}: T_SP {:.2f}, T_DP {:.2f} GFLOP/s; T_int {:.2f}, T_add {:.2f} GIOP/s; T_ldst {:.2f} G/s; "
      "B_mem {:.2f} GB/s\n\n"
      "Prediction (thesis eqs. 4.9-4.18)\n"
      "  T_op    = {} = {:.2f}\n"
      "  W_op    = T_SP / T_op          = {:.4f}\n"
      "  W_ldst  = (T_SP / 2) / T_ldst  = {:.4f}\n"
      "  W_other = (T_SP / 2) / T_add   = {:.4f}\n"
      "  C_op    = D_ops x W_op         = {:.4f}\n"
      "  C_ldst  = D_ldst x W_ldst      = {:.4f}\n"
      "  C_other = D_other x W_other    = {:.4f}\n"
      "  E_instr = C_op / (C_op + C_ldst + C_other) = {:.2f} %\n"
      "  T'_op   = E_mix x E_instr x T_op = {:.2f} % x {:.2f} % x {:.2f} = {:.2f} G/s\n"
      "  O_dev   = T'_op / B_mem        = {:.4f} ops/byte\n",
      printable(device.name), t.fp32_gflops, t.fp64_gflops, t.int32_mad_giops, t.int32_add_giops, t.shared_ldst_gops,
      t.dram_gbps, type_peak, p.T_op, p.W_op, p.W_ldst, p.W_other, p.C_op, p.C_ldst, p.C_other, 100 * p.E_instr,
      100 * k.E_mix, 100 * p.E_instr, p.T_op, p.T_op_adjusted, p.O_dev);
  if (p.bound == Bound::compute) {
    out += fmt::format("  O_krn {:.4f} > O_dev {:.4f}: compute bound, T_predicted = T'_op = {:.2f} G/s\n"
                       "  time    = W_comp / T_predicted = {:.3f} ms\n",
                       p.O_krn, p.O_dev, p.T_predicted, p.predicted_ms);
  } else {
    out += fmt::format("  O_krn {:.4f} <= O_dev {:.4f}: memory bound, T_predicted = O_krn x B_mem = {:.2f} G/s\n"
                       "  time    = W_comp / T_predicted = W_traf / B_mem = {:.3f} ms\n",
                       p.O_krn, p.O_dev, p.T_predicted, p.predicted_ms);
  }
  return out;
}

void run_explain(const ExplainOptions& options) {
  const std::shared_ptr<const Predictor> predictor = make_predictor(options.model);
  const KernelProfile profile = load_profile(options.profile);
  const KernelRecord& kernel = find_kernel(profile, options.kernel, options.profile);
  const DeviceProfile device = load_device(options.device);
  KernelProfile one = profile;
  one.kernels = {kernel};
  // JSON: in the prediction's notes.
  if (options.format != "json") warn_missing_bench_keys({device}, options.model);
  const ProfilePrediction predicted = predict_profile(*predictor, one, {device});
  const KernelPrediction& p = predicted.kernels.front();

  if (options.format != "text") {
    const auto printer = prediction_printer(options.format, std::cout, printable(options.profile), options.model, false);
    printer->add(p);
    printer->finish(predicted.totals);
    return;
  }
  std::cout << fmt::format("Kernel {} of {} ({} launches profiled on {}) on device {} ({}); model {}\n"
                           "Times in ms are totals over the {} profiled launches; per launch at the end\n\n",
                           printable(shortened_kernel_name(kernel.name)), printable(options.profile), p.invocations,
                           profile.reference_device.empty() ? "?" : printable(profile.reference_device),
                           printable(device.id), printable(device.name), options.model, p.invocations);
  const auto per_launch_line = [&] {
    std::cout << fmt::format("Per launch: predicted {:.6f} ms{}\n", p.per_launch(p.predicted_ms()),
                             p.measured_ms ? fmt::format(", measured {:.6f} ms", p.per_launch(*p.measured_ms)) : "");
  };
  if (const PipesPrediction* pipes = p.prediction.pipes()) {
    std::cout << pipes_explanation_text(*pipes, device);
    if (p.measured_ms)
      std::cout << fmt::format("  measured {:.6f} ms: error (predicted - measured) / measured = {:+.2f} %\n",
                               *p.measured_ms, 100 * *p.error);
    per_launch_line();
    std::cout << diagnostics_text(diagnose(kernel, device, pipes_terms_of_model(options.model)));
    return;
  }
  const ThesisPrediction& thesis = *p.prediction.thesis();
  const auto* counters = std::get_if<KernelCounters>(&kernel.description);
  if (counters) std::cout << counters_section(counters->thesis);
  std::cout << parameters_section(p.parameters, counters != nullptr);
  std::cout << prediction_section(p.parameters, device, thesis);
  if (p.measured_ms)
    std::cout << fmt::format("  measured {:.3f} ms: error (predicted - measured) / measured = {:+.2f} %\n",
                             *p.measured_ms, 100 * *p.error);
  per_launch_line();
}

}  // namespace

void add_explain_command(CLI::App& app) {
  auto options = std::make_shared<ExplainOptions>();
  CLI::App* command =
      app.add_subcommand("explain", "Walk through every intermediate value for one kernel on one device");
  command->add_option("--profile", options->profile, "Kernel profile: a file, or a bundled profile's name")
      ->required();
  command->add_option("--kernel", options->kernel, kKernelOptionHelp);
  command->add_option("--device", options->device,
                      "Target device: an id, name or short name `roofcast devices` lists (H100, h200-mps25), or a "
                      "device-profile file")
      ->required();
  add_model_option(*command, options->model);
  add_format_option(*command, options->format, {"text", "json", "csv"});
  command->callback([options] { run_explain(*options); });
}

}  // namespace roofcast
