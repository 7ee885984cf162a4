#include "roofcast/microbench/bench_completion.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "roofcast/model/bench_keys.hpp"

namespace roofcast::microbench {

namespace {

using nlohmann::json;

std::string text_member(const json& object, const char* key) {
  const auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

// "NVIDIA H100 80GB HBM3", or "NVIDIA H100 80GB HBM3 (MPS 25%)".
std::string gpu_text(const std::string& name, const std::string& mps) {
  return mps.empty() ? name : fmt::format("{} (MPS {}%)", name, mps);
}

}  // namespace

CompletionPlan completion_plan(const DeviceProfile& profile) {
  CompletionPlan plan;
  plan.missing_keys = missing_bench_keys(profile);
  for (const auto& key : plan.missing_keys) {
    const auto group = std::find_if(bench_groups().begin(), bench_groups().end(), [&](const BenchGroup& g) {
      return std::find(g.keys.begin(), g.keys.end(), key) != g.keys.end();
    });
    if (group == bench_groups().end())
      throw std::logic_error(fmt::format("no bench group measures \"{}\", a key the pipes model reads", key));
    if (std::find(plan.groups.begin(), plan.groups.end(), group->name) == plan.groups.end())
      plan.groups.push_back(group->name);
  }
  // In the suite's order.
  std::vector<std::string> ordered;
  for (const auto& g : bench_groups())
    if (std::find(plan.groups.begin(), plan.groups.end(), g.name) != plan.groups.end()) ordered.push_back(g.name);
  plan.groups = std::move(ordered);
  return plan;
}

std::string completion_mismatch(const json& document, const DeviceInfo& gpu) {
  const auto device = document.find("device");
  if (device == document.end() || !device->is_object() || text_member(*device, "name").empty())
    return "the profile records no GPU (no device.name): `roofcast bench --complete` completes profiles that "
           "`roofcast bench` wrote";
  const std::string name = text_member(*device, "name"), mps = text_member(*device, "mps_active_thread_percentage");
  const std::string profiled = gpu_text(name, mps), here = gpu_text(gpu.name, gpu.mps_active_thread_percentage);
  if (name != gpu.name || mps != gpu.mps_active_thread_percentage)
    return fmt::format("the profile was measured on {}, this GPU is {}: complete it on that GPU", profiled, here);
  const std::string pci = text_member(*device, "pci_bus_id");
  if (!pci.empty() && !gpu.pci_bus_id.empty() && pci != gpu.pci_bus_id)
    return fmt::format("the profile was measured on the {} at PCI bus id {}, this one is at {}: complete it on that GPU "
                       "(--device picks the GPU)",
                       name, pci, gpu.pci_bus_id);
  const auto sms = device->find("sm_count");
  if (sms != device->end() && sms->is_number() && sms->get<double>() != effective_sm_count(gpu))
    return fmt::format("the profile was measured with {} SMs, this process has {}: complete it with the same MPS share",
                       sms->get<double>(), effective_sm_count(gpu));
  return "";
}

std::vector<std::string> keys_to_add(const json& document, const SuiteResult& result) {
  const json empty = json::object();
  const auto throughput = document.find("throughput");
  const json& has = throughput != document.end() && throughput->is_object() ? *throughput : empty;
  std::vector<std::string> keys;
  for (const auto& m : result.measurements)
    if (!has.contains(m.key) && std::find(keys.begin(), keys.end(), m.key) == keys.end()) keys.push_back(m.key);
  return keys;
}

json completed_profile(json document, const SuiteResult& result, const CompletionPlan& plan,
                       const Provenance& provenance) {
  const std::vector<std::string> added = keys_to_add(document, result);
  for (const auto& key : added) {
    const Measurement& m = *result.find(key);
    document["throughput"][key] = m.value.median;
    document["measurements"][key] = measurement_json(m);
    if (m.theoretical && *m.theoretical > 0) {
      document["theoretical"][key] = *m.theoretical;
      document["fraction_of_theoretical"][key] = m.value.median / *m.theoretical;
    }
  }
  json run = {{"command", provenance.command},
              {"date_utc", provenance.date_utc},
              {"roofcast_version", provenance.roofcast_version},
              {"quick", result.quick},
              {"wall_seconds", result.wall_seconds},
              {"groups", plan.groups},
              {"keys_added", added}};
  if (!provenance.roofcast_git.empty()) run["roofcast_git"] = provenance.roofcast_git;
  if (!result.problems.empty()) run["problems"] = result.problems;
  document["provenance"]["completions"].push_back(run);
  return document;
}

}  // namespace roofcast::microbench
