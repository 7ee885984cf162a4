#pragma once

#include <map>
#include <string>
#include <vector>

namespace roofcast::profiler {

// `roofcast profile --output` patterns, as Nsight Compute and Nsight Systems spell them: %p is
// the process id of the profiled process, %q{VAR} the value of environment variable VAR in it
// (e.g. OMPI_COMM_WORLD_RANK, RANK), %% a percent sign. With a pattern each process of the
// application gets its own profile (processes whose names come out equal share one).

// Whether `pattern` names anything per process (%p or %q{...}); throws InputError for a % that
// is none of %p, %q{VAR}, %%.
bool is_per_process(const std::string& pattern);
// The variables %q{...} names, in order of appearance.
std::vector<std::string> pattern_variables(const std::string& pattern);
// The file name for a process; an unset variable expands to nothing.
std::string expand_output_pattern(const std::string& pattern, int pid, const std::map<std::string, std::string>& env);

}  // namespace roofcast::profiler
