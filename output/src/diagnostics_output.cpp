#include "roofcast/output/diagnostics_output.hpp"

#include <fmt/format.h>

#include "roofcast/formats/printable_text.hpp"

namespace roofcast {

std::string diagnostics_text(const std::vector<Diagnostic>& diagnostics) {
  if (diagnostics.empty()) return "";
  std::string out = "\nDiagnostics (each alone at its ideal, predicted with the same model)\n";
  for (const auto& d : diagnostics) {
    std::string verdict;
    if (!d.measured) verdict = "";
    else if (!d.applies) verdict = "  ok";
    else
      verdict = fmt::format("  if fixed: {:.6f} ms instead of {:.6f} ms ({:+.1f} %)", d.fixed_ms, d.predicted_ms,
                            d.predicted_ms > 0 ? 100 * (d.fixed_ms - d.predicted_ms) / d.predicted_ms : 0.0);
    out += fmt::format("  {:<30} {}{}\n", d.name, printable(d.finding), verdict);
  }
  return out;
}

}  // namespace roofcast
