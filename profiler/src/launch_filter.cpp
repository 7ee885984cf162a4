#include "roofcast/profiler/launch_filter.hpp"

namespace roofcast::profiler {

LaunchFilter::LaunchFilter(const LaunchFilterSettings& settings) : settings_(settings) {
  if (!settings.name_regex.empty()) regex_.emplace(settings.name_regex, std::regex::ECMAScript);
}

std::optional<uint64_t> LaunchFilter::admit(const std::string& demangled_name, int device) {
  if (settings_.device && *settings_.device != device) return std::nullopt;
  if (regex_ && !std::regex_search(demangled_name, *regex_)) return std::nullopt;
  const uint64_t match = matched_++;
  if (match < settings_.skip) return std::nullopt;
  if (settings_.count && recorded_ >= *settings_.count) return std::nullopt;
  return recorded_++;
}

}  // namespace roofcast::profiler
