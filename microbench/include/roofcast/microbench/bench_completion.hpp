#pragma once
// `roofcast bench --complete FILE`: runs only the characterizers whose keys an existing device
// profile lacks, on the GPU that measured it, and adds what they measure to the profile. The
// planning and the merge are pure C++ (tested without a GPU); the suite runs the groups.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "roofcast/microbench/bench_groups.hpp"
#include "roofcast/microbench/report.hpp"
#include "roofcast/microbench/suite_result.hpp"
#include "roofcast/model/device_profile.hpp"

namespace roofcast::microbench {

struct CompletionPlan {
  std::vector<std::string> missing_keys;  // the every-GPU keys the pipes model reads that the profile lacks
  std::vector<std::string> groups;        // the groups that measure them, in suite order
};

// What completes `profile`: missing_bench_keys() and the groups that write them. Throws
// std::logic_error when no group writes a key the model reads (a characterizer is missing).
CompletionPlan completion_plan(const DeviceProfile& profile);

// Why the GPU `gpu` cannot complete the profile `document` ("" when it can): the profile names
// another GPU (device.name, device.pci_bus_id), another MPS share or another SM count, or no GPU
// at all (a profile `roofcast bench` did not write).
std::string completion_mismatch(const nlohmann::json& document, const DeviceInfo& gpu);

// `document` with each measurement of `result` whose key it lacks added (`throughput`,
// `theoretical`, `fraction_of_theoretical`, `measurements`), keys it has kept as they are, and
// the run recorded in `provenance.completions` (command, date, version, groups, keys added).
nlohmann::json completed_profile(nlohmann::json document, const SuiteResult& result, const CompletionPlan& plan,
                                 const Provenance& provenance);

// The keys completed_profile() adds: those measured in `result` that `document`'s `throughput` lacks.
std::vector<std::string> keys_to_add(const nlohmann::json& document, const SuiteResult& result);

}  // namespace roofcast::microbench
