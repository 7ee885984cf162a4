#pragma once

#include <string>
#include <vector>

#include "roofcast/model/access_diagnostics.hpp"
#include "roofcast/model/device_profile.hpp"
#include "roofcast/model/kernel_profile.hpp"

namespace roofcast {

struct ReportContent;

// A line of the report's Diagnostics section: a diagnostic of a kernel on a device that fires
// (with the time the model predicts if it were fixed) or that the profile cannot measure.
struct ReportDiagnostic {
  size_t kernel = 0;  // index into the profile's kernels
  size_t device = 0;  // index into the report's devices
  Diagnostic diagnostic;
  // What fixing it saves (ms); 0 when it does not fire.
  double saved_ms() const { return diagnostic.applies ? diagnostic.predicted_ms - diagnostic.fixed_ms : 0; }
};

// The diagnostics of `kernel` on `device` that fire or are not measured: `roofcast explain`'s
// diagnose(), the same numbers, without those that are fine. A kernel the profile gives as
// model parameters rather than counters gets one not-measured line. `terms`: the pipes model's.
std::vector<Diagnostic> reported_diagnostics(const KernelRecord& kernel, const DeviceProfile& device,
                                             const PipesTerms& terms = {});

// Those of `kernels` (indices into profile.kernels) on every device: the ones that fire,
// the largest saving first, then the ones not measured (in kernel and device order).
std::vector<ReportDiagnostic> report_diagnostics(const KernelProfile& profile, const std::vector<DeviceProfile>& devices,
                                                 const std::vector<size_t>& kernels, const PipesTerms& terms = {});

// The page's Diagnostics section: a table of content.diagnostics that fire, the ones not
// measured, and the link to the file with every kernel's (content.diagnostics_file).
std::string diagnostics_section_html(const ReportContent& content);

}  // namespace roofcast
