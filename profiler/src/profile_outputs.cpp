#include "profile_outputs.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "roofcast/formats/command_line.hpp"
#include "roofcast/formats/json_text.hpp"
#include "roofcast/formats/printable_text.hpp"
#include "roofcast/formats/profile_json.hpp"
#include "roofcast/profiler/kernel_summary.hpp"
#include "roofcast/profiler/output_pattern.hpp"
#include "roofcast/profiler/transfer_summary.hpp"

namespace roofcast::profiler {

namespace {

// ", 4 host/device copies (1.1 MB, 0.2 ms)" for the summary line; empty where the application copied nothing.
std::string copies_summary(const std::vector<CopyRecord>& copies, int device) {
  double count = 0, bytes = 0, ms = 0;
  for (const auto& t : summarize_transfers(copies, device))
    count += t.count, bytes += t.bytes, ms += t.measured_ms.value_or(0);
  if (count == 0) return "";
  return fmt::format(", {:g} host/device copies ({:.3g} MB, {:.3g} ms)", count, bytes / 1e6, ms);
}

template <typename Record>
std::vector<Record> of_processes(const std::vector<Record>& records, const std::set<int>& processes) {
  std::vector<Record> kept;
  for (const auto& record : records)
    if (processes.contains(record.process)) kept.push_back(record);
  return kept;
}

std::string listed(const std::vector<std::string>& names) {
  std::string text;
  for (size_t i = 0; i < names.size() && i < 5; ++i) text += (i ? ", " : "") + printable(names[i]);
  if (names.size() > 5) text += fmt::format(" and {} more", names.size() - 5);
  return text;
}

std::string runs_text(const ProfileRequest& request, const RunExits& exits) {
  if (exits.runs == 1) return fmt::format("one run {:.1f} s", exits.timing.wall_seconds);
  if (request.runs == RunCount::automatic)
    return fmt::format("one run {:.1f} s, then a counter run {:.1f} s for {} launch shape(s) the first run could not "
                       "sample over the run: {}",
                       exits.timing.wall_seconds, exits.counters.wall_seconds, exits.spread_shapes,
                       exits.spread_reasons);
  return fmt::format("timing run {:.1f} s, counter run {:.1f} s", exits.timing.wall_seconds,
                     exits.counters.wall_seconds);
}

std::string sample_text(uint64_t sample, const RunExits& exits) {
  if (sample == 0) return "all";
  std::string text = fmt::format("at most {} per kernel and launch shape", sample);
  if (exits.in_run_spread_shapes > 0)
    text += fmt::format(", {} to {} spread over the run for {} shape(s) with more launches", sample, 3 * sample,
                        exits.in_run_spread_shapes);
  if (exits.spread_shapes > 0) text += fmt::format(", {} spread by a counter run", exits.spread_shapes);
  if (exits.runs == 1 && exits.in_run_spread_shapes == 0) text += ", the first ones";
  return text;
}

// One profile: the group's joined launches, their kernels with counters.
ProfileOutput profile_output(const ProfiledRun& run, const OutputGroup& group, const JoinedRuns& joined,
                             const RunRecords& counters, const RunExits& exits,
                             const std::vector<std::string>& metrics, const std::vector<std::string>& run_notes) {
  const ProfileRequest& request = run.request;
  ProfileOutput output{group.file, {}, std::nullopt, ""};
  const auto launches = of_processes(joined.launches, group.processes);
  auto kernels = summarize_kernels(launches);
  std::vector<std::string> notes = run_notes, missing;
  std::erase_if(kernels, [&](const KernelSummary& kernel) {
    if (kernel.profiled_invocations > 0) return false;
    missing.push_back(kernel.name);
    return true;
  });
  if (!missing.empty())
    notes.push_back(fmt::format("{} kernel(s) timed but never profiled are left out (no counters): {}", missing.size(),
                                listed(missing)));
  for (const auto& note : notes) output.messages.push_back(fmt::format("warning: {}: {}", printable(group.file), note));
  if (kernels.empty()) {
    output.messages.push_back(fmt::format("no kernel of {} has counters", printable(group.file)));
    return output;
  }
  ProfileProvenance provenance{run.device.name,
                               run.device.chip,
                               shell_command(request.command),
                               utc_time_text(std::chrono::system_clock::now()),
                               request.metric_set,
                               counters.passes,
                               metrics,
                               request.cache_control};
  nlohmann::json profile = kernel_profile_json(kernels, provenance, request.per_launch);
  profile["collector"]["sample"] = request.sample > 0 ? nlohmann::json(request.sample) : nlohmann::json("all");
  profile["collector"]["runs"] = exits.runs;
  if (exits.runs == 1) profile["collector"]["single_run"] = true;
  if (exits.spread_shapes > 0) profile["collector"]["spread_shapes"] = exits.spread_shapes;
  if (exits.in_run_spread_shapes > 0) profile["collector"]["in_run_spread_shapes"] = exits.in_run_spread_shapes;
  if (run.per_process) {
    nlohmann::json pids = nlohmann::json::array();
    for (int p : group.processes) pids.push_back(run.timing.process_info[static_cast<size_t>(p)].pid);
    profile["processes"] = pids;
  }
  if (!notes.empty()) profile["notes"] = notes;
  const auto copies = of_processes(run.timing.copies, group.processes);
  add_transfers(profile, copies, request.per_launch, request.device);
  output.text = json_text(profile);
  parse_kernel_profile(*output.text, group.file);  // what we write must be what roofcast reads
  int64_t launch_count = 0, profiled_count = 0;
  for (const auto& kernel : kernels) launch_count += kernel.invocations, profiled_count += kernel.profiled_invocations;
  output.summary = fmt::format(
      "{} kernels, {} launches ({} profiled, {}) on {} -> {} ({}, {} replay passes){}", kernels.size(), launch_count,
      profiled_count, sample_text(request.sample, exits),
      run.device.name.empty() ? "unknown GPU" : run.device.name, printable(group.file), runs_text(request, exits),
      counters.passes ? std::to_string(*counters.passes * static_cast<size_t>(profiled_count)) : "?",
      copies_summary(copies, request.device));
  return output;
}

}  // namespace

std::vector<OutputGroup> output_groups(const std::string& output, bool per_process, const RunRecords& timing) {
  // The output file of each process of the timing run (the same file for all without a pattern).
  std::vector<std::string> names;
  for (const auto& process : timing.process_info)
    names.push_back(per_process ? expand_output_pattern(output, process.pid, process.env) : output);
  std::vector<OutputGroup> groups;
  std::set<int> launching;
  for (const auto& launch : timing.launches) launching.insert(launch.process);
  for (int p = 0; p < static_cast<int>(names.size()); ++p) {
    if (!launching.contains(p)) continue;  // a process that launched no kernel gets no file
    auto group = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.file == names[p]; });
    if (group == groups.end()) group = groups.insert(groups.end(), {names[p], {}});
    group->processes.insert(p);
  }
  return groups;
}

std::vector<ProfileOutput> measured_outputs(const ProfiledRun& run, const AppExit& timing_exit,
                                            const std::vector<std::string>& notes) {
  std::vector<ProfileOutput> outputs;
  for (const auto& group : run.groups) {
    const auto launches = of_processes(run.timing.launches, group.processes);
    const auto kernels = summarize_kernels(launches);
    const MeasuredTimes times = measured_times(kernels, run.device.name.empty() ? "unknown" : run.device.name);
    nlohmann::json json = to_json(times);
    if (!notes.empty()) json["notes"] = notes;
    const auto copies = of_processes(run.timing.copies, group.processes);
    const std::string tail =
        fmt::format(" ({:.1f} s){}", timing_exit.wall_seconds, copies_summary(copies, run.request.device));
    outputs.push_back({group.file, {}, json_text(json),
                       fmt::format("{} kernels, {} launches timed on {} -> {}{}", kernels.size(), launches.size(),
                                   times.device, printable(group.file), tail)});
  }
  return outputs;
}

std::vector<ProfileOutput> profile_outputs(const ProfiledRun& run, const JoinedRuns& joined, const RunRecords& counters,
                                           const RunExits& exits, const std::vector<std::string>& metrics,
                                           const std::vector<std::string>& notes) {
  std::vector<ProfileOutput> outputs;
  for (const auto& group : run.groups)
    outputs.push_back(profile_output(run, group, joined, counters, exits, metrics, notes));
  return outputs;
}

}  // namespace roofcast::profiler
