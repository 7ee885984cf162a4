#include "roofcast/microbench/report.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

#include "roofcast/formats/profile_json.hpp"
#include "roofcast/microbench/transfer_fit.hpp"

namespace roofcast::microbench {

namespace {

using nlohmann::json;

double required(const SuiteResult& result, const std::string& key) {
  const Measurement* m = result.find(key);
  if (!m) throw std::runtime_error(fmt::format("the suite has no \"{}\" measurement", key));
  return m->value.median;
}

std::string csv_number(double value) { return fmt::format("{:.6g}", value); }

std::string csv_optional(const std::optional<double>& value) { return value ? csv_number(*value) : ""; }

json summary_json(const Summary& s) {
  return {{"median", s.median}, {"min", s.min}, {"max", s.max}, {"count", s.count}};
}

// GOP/s of a sweep point at one of its times (work per launch / time).
double gops_at(const SweepPoint& p, double time_ms) { return p.gops * p.time_ms.median / time_ms; }

CopyTimeFit fit_of(const TransferSweep& sweep) {
  return {sweep.latency_us, sweep.bandwidth_gbps, sweep.worst_relative_residual};
}

}  // namespace

std::optional<double> latency_cycles(const Measurement& m) {
  if (m.unit != "ns" || m.sm_clock_mhz <= 0) return std::nullopt;
  return m.value.median * m.sm_clock_mhz / 1e3;
}

json measurement_json(const Measurement& m) {
  json entry = {{"label", m.label},
                {"unit", m.unit},
                {"value", summary_json(m.value)},
                {"time_ms", summary_json(m.time_ms)},
                {"work_per_launch", m.work_per_launch},
                {"verified", m.verified},
                {"details", m.details}};
  if (m.sm_clock_mhz > 0) entry["sm_clock_mhz"] = m.sm_clock_mhz;
  if (const auto cycles = latency_cycles(m)) entry["cycles"] = *cycles;
  return entry;
}

DeviceProfile make_device_profile(const SuiteResult& result, const std::string& name) {
  DeviceProfile profile;
  profile.name = name;
  DeviceThroughput& t = profile.throughput;
  t.fp32_gflops = required(result, "fp32_gflops");
  t.fp64_gflops = required(result, "fp64_gflops");
  t.int32_mad_giops = required(result, "int32_mad_giops");
  t.int32_add_giops = required(result, "int32_add_giops");
  t.shared_ldst_gops = required(result, "shared_ldst_gops");
  // B_mem as the thesis defines it: the mean of the read-only, write-only and copy kernels.
  t.dram_gbps = (required(result, "dram_read_gbps") + required(result, "dram_write_gbps") +
                 required(result, "dram_copy_gbps")) / 3.0;
  for (const auto& m : result.measurements) {
    const bool thesis_key = m.key == "fp32_gflops" || m.key == "fp64_gflops" || m.key == "int32_mad_giops" ||
                            m.key == "int32_add_giops" || m.key == "shared_ldst_gops";
    if (!thesis_key) profile.extra_throughput[m.key] = m.value.median;
  }
  profile.sm_count = effective_sm_count(result.device);
  for (const auto& sweep : result.transfers)
    if (sweep.bandwidth_gbps > 0) profile.transfers[sweep.key] = {sweep.bandwidth_gbps, sweep.latency_us};
  for (const auto& p : result.sweep)
    profile.roofline_sweep.push_back({p.precision, static_cast<double>(p.iterations), p.ops_per_byte,
                                      p.time_ms.median, p.gops, p.gbps});
  return profile;
}

json device_profile_json(const SuiteResult& result, const Provenance& provenance) {
  DeviceProfileDetails details;
  json& document = details.members;

  // Per-point spread beside the median the public format requires.
  for (const SweepPoint& p : result.sweep)
    details.roofline_sweep.push_back(
        {{"elements", p.elements}, {"time_ms_min", p.time_ms.min}, {"time_ms_max", p.time_ms.max}, {"verified", p.verified}});

  // Beside each copy fit: how well the line fits and the sizes it was fitted over.
  json transfer_sweep = json::array();
  for (const auto& sweep : result.transfers) {
    if (sweep.bandwidth_gbps <= 0 || sweep.points.empty()) continue;
    json& fit = details.transfers[sweep.key];
    fit["worst_relative_residual"] = sweep.worst_relative_residual;
    fit["sizes"] = sweep.points.size();
    fit["smallest_bytes"] = sweep.points.front().bytes;
    fit["largest_bytes"] = sweep.points.back().bytes;
    for (const auto& p : sweep.points)
      transfer_sweep.push_back({{"key", sweep.key},
                                {"bytes", p.bytes},
                                {"time_ms", p.time_ms.median},
                                {"time_ms_min", p.time_ms.min},
                                {"time_ms_max", p.time_ms.max},
                                {"gbps", p.gbps()},
                                {"fitted_ms", fitted_copy_ms(fit_of(sweep), p.bytes)},
                                {"verified", p.verified}});
  }
  if (!transfer_sweep.empty()) document["transfer_sweep"] = transfer_sweep;

  const DeviceInfo& d = result.device;
  document["device"] = {{"name", d.name},
                        {"backend", d.backend},
                        {"arch", d.arch},
                        {"pci_bus_id", d.pci_bus_id},
                        {"sm_count", effective_sm_count(d)},
                        {"sm_count_reported", d.sm_count},
                        {"sm_count_observed", d.sm_count_observed},
                        {"warp_size", d.warp_size},
                        {"l2_bytes", d.l2_bytes},
                        {"memory_bytes", d.memory_bytes},
                        {"memory_bus_bits", d.memory_bus_bits},
                        {"memory_clock_mhz_attribute", d.memory_clock_mhz_attribute},
                        {"sm_clock_mhz_attribute", d.sm_clock_mhz_attribute},
                        {"driver_version", d.driver_version},
                        {"runtime_version", d.runtime_version},
                        {"mps_active_thread_percentage", d.mps_active_thread_percentage}};
  // Occupancy limits (waves): only those the runtime or the occupancy calculator gave.
  const Occupancy& o = d.occupancy;
  json& device = document["device"];
  auto put = [&](const char* key, int value) {
    if (value > 0) device[key] = value;
  };
  put("max_threads_per_sm", o.max_threads_per_sm);
  put("warps_per_sm", d.warp_size > 0 ? o.max_threads_per_sm / d.warp_size : 0);
  put("max_blocks_per_sm", o.max_blocks_per_sm);
  put("registers_per_sm", o.registers_per_sm);
  put("max_registers_per_thread", o.max_registers_per_thread);
  put("register_allocation_unit", o.register_allocation_unit);
  put("shared_bytes_per_sm", o.shared_bytes_per_sm);
  put("max_shared_bytes_per_block_optin", o.max_shared_bytes_per_block_optin);
  if (o.max_shared_bytes_per_block_optin > 0) device["reserved_shared_bytes_per_block"] = o.reserved_shared_bytes_per_block;
  put("shared_allocation_unit", o.shared_allocation_unit);

  const ClockLog& c = result.clocks;
  json clocks = {{"sm_clock_mhz_in_kernel", c.sm_clock_mhz_in_kernel},
                 {"memory_clock_mhz", c.memory_clock_mhz(d)},
                 {"nvml_available", c.nvml_available}};
  if (c.nvml_available) {
    clocks["nvml_sm_clock_mhz"] = summary_json(c.nvml_sm_clock_mhz);
    clocks["nvml_memory_clock_mhz"] = summary_json(c.nvml_memory_clock_mhz);
    clocks["nvml_max_sm_clock_mhz"] = c.nvml_max_sm_clock_mhz;
    clocks["nvml_max_memory_clock_mhz"] = c.nvml_max_memory_clock_mhz;
  } else {
    clocks["nvml_problem"] = c.nvml_problem;
  }
  document["clocks"] = clocks;

  json theoretical = json::object(), fraction = json::object(), measurements = json::object();
  for (const auto& m : result.measurements) {
    if (m.theoretical) {
      theoretical[m.key] = *m.theoretical;
      fraction[m.key] = m.value.median / *m.theoretical;
    }
    measurements[m.key] = measurement_json(m);
  }
  document["theoretical"] = theoretical;
  document["fraction_of_theoretical"] = fraction;
  document["measurements"] = measurements;
  if (!result.problems.empty()) document["problems"] = result.problems;
  document["provenance"] = {{"command", provenance.command},
                            {"date_utc", provenance.date_utc},
                            {"roofcast_version", provenance.roofcast_version},
                            {"quick", result.quick},
                            {"wall_seconds", result.wall_seconds}};
  if (!provenance.roofcast_git.empty()) document["provenance"]["roofcast_git"] = provenance.roofcast_git;
  return to_json(make_device_profile(result, provenance.profile_name), details);
}

std::string measurements_csv(const SuiteResult& result) {
  std::string csv =
      "kind,key,precision,iterations,unit,median,min,max,time_ms_median,time_ms_min,time_ms_max,"
      "work_per_launch,ops_per_byte,gbps,theoretical,percent_of_theoretical,sm_clock_mhz,verified\n";
  for (const auto& m : result.measurements) {
    const std::optional<double> percent =
        m.theoretical && *m.theoretical > 0 ? std::optional<double>(100 * m.value.median / *m.theoretical)
                                            : std::nullopt;
    csv += fmt::format("peak,{},,,{},{},{},{},{},{},{},{},,,{},{},{},{}\n", m.key, m.unit, csv_number(m.value.median),
                       csv_number(m.value.min), csv_number(m.value.max), csv_number(m.time_ms.median),
                       csv_number(m.time_ms.min), csv_number(m.time_ms.max), csv_number(m.work_per_launch),
                       csv_optional(m.theoretical), csv_optional(percent),
                       m.sm_clock_mhz > 0 ? csv_number(m.sm_clock_mhz) : "", m.verified ? "true" : "false");
  }
  for (const auto& p : result.sweep) {
    csv += fmt::format("sweep,mixbench_{},{},{},GOP/s,{},{},{},{},{},{},{},{},{},,,,{}\n", p.precision, p.precision,
                       p.iterations, csv_number(p.gops), csv_number(gops_at(p, p.time_ms.max)),
                       csv_number(gops_at(p, p.time_ms.min)), csv_number(p.time_ms.median),
                       csv_number(p.time_ms.min), csv_number(p.time_ms.max),
                       csv_number(p.gops * p.time_ms.median * 1e6), csv_number(p.ops_per_byte), csv_number(p.gbps),
                       p.verified ? "true" : "false");
  }
  // One row per copy size: GB/s at the median, slowest and fastest repetition.
  for (const auto& sweep : result.transfers)
    for (const auto& p : sweep.points)
      csv += fmt::format("transfer,{},,,GB/s,{},{},{},{},{},{},{},,{},,,,{}\n", sweep.key, csv_number(p.gbps()),
                         csv_number(p.bytes / p.time_ms.max / 1e6), csv_number(p.bytes / p.time_ms.min / 1e6),
                         csv_number(p.time_ms.median), csv_number(p.time_ms.min), csv_number(p.time_ms.max),
                         fmt::format("{:.0f}", p.bytes), csv_number(p.gbps()), p.verified ? "true" : "false");
  return csv;
}

std::vector<SummaryRow> summary_rows(const SuiteResult& result) {
  std::vector<SummaryRow> rows;
  for (const auto& m : result.measurements)
    rows.push_back({m.label, m.unit, m.value.median, m.theoretical, latency_cycles(m)});
  if (result.find("dram_read_gbps") && result.find("dram_write_gbps") && result.find("dram_copy_gbps")) {
    const DeviceProfile profile = make_device_profile(result, "summary");
    const Measurement* read = result.find("dram_read_gbps");
    rows.push_back({"B_mem (mean of read, write, copy)", "GB/s", profile.throughput.dram_gbps, read->theoretical, std::nullopt});
  }
  return rows;
}

std::string transfer_size_range(const TransferSweep& sweep) {
  if (sweep.points.empty()) return "none";
  auto size = [](double bytes) {
    return bytes >= (1 << 20) ? fmt::format("{:g} MiB", bytes / (1 << 20)) : fmt::format("{:g} KiB", bytes / 1024);
  };
  return fmt::format("{} to {} ({})", size(sweep.points.front().bytes), size(sweep.points.back().bytes),
                     sweep.points.size());
}

std::vector<std::string> sweep_dips(const std::vector<SweepPoint>& sweep, double tolerance) {
  std::vector<std::string> dips;
  std::map<std::string, const SweepPoint*> previous;
  for (const auto& p : sweep) {
    const SweepPoint*& left = previous[p.precision];
    if (left && p.gops < (1 - tolerance) * left->gops)
      dips.push_back(fmt::format("{} at {} iterations: {:.1f} % below {} iterations", p.precision, p.iterations,
                                 100 * (1 - p.gops / left->gops), left->iterations));
    left = &p;
  }
  return dips;
}

std::string markdown_report(const SuiteResult& result, const Provenance& provenance) {
  const DeviceInfo& d = result.device;
  const ClockLog& c = result.clocks;
  std::string md = fmt::format("# roofcast bench: {}\n\n", provenance.profile_name);
  md += fmt::format("- Device: {} ({}, {}), PCI {}\n", d.name, d.backend, d.arch, d.pci_bus_id);
  md += fmt::format("- SMs: {} reported, {} observed running blocks", d.sm_count, d.sm_count_observed);
  if (!d.mps_active_thread_percentage.empty())
    md += fmt::format(" (MPS, CUDA_MPS_ACTIVE_THREAD_PERCENTAGE={})", d.mps_active_thread_percentage);
  md += fmt::format("\n- Memory: {:.1f} GiB, {}-bit bus; L2 {:.1f} MiB\n", d.memory_bytes / (1 << 30),
                    d.memory_bus_bits, d.l2_bytes / (1 << 20));
  md += fmt::format("- Driver {}, runtime {}\n", d.driver_version, d.runtime_version);
  md += fmt::format("- SM clock measured in kernels: {:.0f} MHz", c.sm_clock_mhz_in_kernel);
  if (c.nvml_available)
    md += fmt::format("; NVML during the run: SM {:.0f} MHz median ({:.0f} to {:.0f}, max {:.0f}), memory {:.0f} MHz",
                      c.nvml_sm_clock_mhz.median, c.nvml_sm_clock_mhz.min, c.nvml_sm_clock_mhz.max,
                      c.nvml_max_sm_clock_mhz, c.nvml_memory_clock_mhz.median);
  else
    md += fmt::format("; NVML: {}", c.nvml_problem);
  md += fmt::format("\n- Date (UTC): {}; suite wall time {:.1f} s{}\n", provenance.date_utc, result.wall_seconds,
                    result.quick ? " (--quick)" : "");
  md += fmt::format("- Command: `{}`\n\n", provenance.command);
  for (const auto& problem : result.problems) md += fmt::format("**FAILED** {}\n\n", problem);

  md += "## Peaks\n\nTheoretical values use the SM clock measured inside each kernel and the per-architecture "
        "table in microbench/src/peak_table.cpp; DRAM uses the memory clock and bus width.\n\n";
  md += "| quantity | unit | measured (median) | min | max | theoretical | % | SM MHz | verified | configuration |\n";
  md += "|---|---|---:|---:|---:|---:|---:|---:|---|---|\n";
  for (const auto& m : result.measurements) {
    const bool latency = m.unit == "us" || m.unit == "ns";
    md += fmt::format("| {} | {} | {:.2f} | {:.2f} | {:.2f} | {} | {} | {} | {} | {} |\n", m.label, m.unit,
                      m.value.median, m.value.min, m.value.max,
                      m.theoretical ? fmt::format("{:.2f}", *m.theoretical) : "",
                      m.theoretical && !latency ? fmt::format("{:.1f}", 100 * m.value.median / *m.theoretical) : "",
                      m.sm_clock_mhz > 0 ? fmt::format("{:.0f}", m.sm_clock_mhz) : "", m.verified ? "yes" : "NO",
                      m.details);
  }
  for (const auto& row : summary_rows(result)) {
    if (row.label.rfind("B_mem", 0) == 0)
      md += fmt::format("| {} | {} | {:.2f} | | | {} | {} | | | |\n", row.label, row.unit, row.measured,
                        row.theoretical ? fmt::format("{:.2f}", *row.theoretical) : "",
                        row.percent() ? fmt::format("{:.1f}", *row.percent()) : "");
  }

  if (!result.transfers.empty()) {
    md += "\n## Copies\n\nEach size timed between two events (median of the repetitions), every byte that "
          "arrived checked. Fit: time = latency + bytes / bandwidth, least squares on relative residuals; bytes "
          "are counted once (a device-to-device copy reads and writes each).\n\n";
    md += "| copy | key | bandwidth GB/s | latency us | sizes | worst residual % | verified |\n";
    md += "|---|---|---:|---:|---|---:|---|\n";
    for (const auto& sweep : result.transfers) {
      const bool verified = std::all_of(sweep.points.begin(), sweep.points.end(), [](const auto& p) { return p.verified; });
      md += fmt::format("| {} | {} | {:.2f} | {:.2f} | {} | {:.1f} | {} |\n", sweep.label, sweep.key,
                        sweep.bandwidth_gbps, sweep.latency_us, transfer_size_range(sweep),
                        100 * sweep.worst_relative_residual, verified ? "yes" : "NO");
    }
    md += "\n| key | bytes | time ms (median) | min | max | GB/s | fitted ms | residual % |\n";
    md += "|---|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const auto& sweep : result.transfers)
      for (const auto& p : sweep.points) {
        const double fitted = fitted_copy_ms(fit_of(sweep), p.bytes);
        md += fmt::format("| {} | {:.0f} | {:.4f} | {:.4f} | {:.4f} | {:.2f} | {:.4f} | {:+.1f} |\n", sweep.key, p.bytes,
                          p.time_ms.median, p.time_ms.min, p.time_ms.max, p.gbps(), fitted,
                          100 * (fitted - p.time_ms.median) / p.time_ms.median);
      }
  }

  if (!result.sweep.empty()) {
    md += "\n## Roofline sweep (mixbench)\n\n";
    const auto dips = sweep_dips(result.sweep, 0.03);
    md += dips.empty() ? "Every curve rises monotonically (no point more than 3 % below its left neighbour).\n\n"
                       : fmt::format("Points more than 3 % below their left neighbour: {}.\n\n", fmt::join(dips, "; "));
    md += "| precision | iterations | ops/byte | time ms (median) | GOP/s | GB/s | verified |\n";
    md += "|---|---:|---:|---:|---:|---:|---|\n";
    for (const auto& p : result.sweep)
      md += fmt::format("| {} | {} | {:.3f} | {:.3f} | {:.1f} | {:.1f} | {} |\n", p.precision, p.iterations,
                        p.ops_per_byte, p.time_ms.median, p.gops, p.gbps, p.verified ? "yes" : "NO");
  }
  return md;
}

}  // namespace roofcast::microbench
