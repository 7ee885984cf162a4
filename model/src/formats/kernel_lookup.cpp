#include "roofcast/formats/kernel_lookup.hpp"

#include <functional>
#include <regex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "roofcast/formats/closest_name.hpp"
#include "roofcast/formats/input_error.hpp"
#include "roofcast/formats/kernel_name_text.hpp"
#include "roofcast/formats/printable_text.hpp"

namespace roofcast {

namespace {

constexpr std::string_view kRegexPrefix = "regex:";
constexpr size_t kCandidatesListed = 10;

std::vector<size_t> kernels_where(const KernelProfile& profile, const std::function<bool(const KernelRecord&)>& test) {
  std::vector<size_t> found;
  for (size_t k = 0; k < profile.kernels.size(); ++k)
    if (test(profile.kernels[k])) found.push_back(k);
  return found;
}

// "name (N launches); name (M launches); ...", at most kCandidatesListed of them.
std::string candidates_text(const KernelProfile& profile, const std::vector<size_t>& kernels) {
  std::vector<std::string> listed;
  for (size_t i = 0; i < kernels.size() && i < kCandidatesListed; ++i) {
    const KernelRecord& kernel = profile.kernels[kernels[i]];
    listed.push_back(fmt::format("\"{}\" ({} launch{})", printable(shortened_kernel_name(kernel.name)),
                                 kernel.invocations, kernel.invocations == 1 ? "" : "es"));
  }
  std::string text = fmt::format("{}", fmt::join(listed, "; "));
  if (kernels.size() > kCandidatesListed) text += fmt::format("; and {} more", kernels.size() - kCandidatesListed);
  return text;
}

std::vector<size_t> every_kernel(const KernelProfile& profile) {
  return kernels_where(profile, [](const KernelRecord&) { return true; });
}

}  // namespace

KernelMatches match_kernels(const KernelProfile& profile, std::string_view query, std::string_view option) {
  if (query.starts_with(kRegexPrefix)) {
    const std::string expression(query.substr(kRegexPrefix.size()));
    std::regex regex;
    try {
      regex = std::regex(expression, std::regex::ECMAScript);
    } catch (const std::regex_error& error) {
      throw InputError(fmt::format("{} {}: not a regular expression: {}", option, printable(query), error.what()));
    }
    return {kernels_where(profile, [&](const KernelRecord& k) { return std::regex_search(k.name, regex); }), "regex"};
  }
  if (auto found = kernels_where(profile, [&](const KernelRecord& k) { return k.name == query; }); !found.empty())
    return {std::move(found), "name"};
  if (auto found = kernels_where(profile, [&](const KernelRecord& k) { return !k.mangled_name.empty() && k.mangled_name == query; });
      !found.empty())
    return {std::move(found), "mangled name"};
  if (auto found = kernels_where(profile, [&](const KernelRecord& k) { return kernel_base_name(k.name) == query; });
      !found.empty())
    return {std::move(found), "base name"};
  if (query.empty()) return {{}, "part of the name"};
  // A name as the tables show it (shortened_kernel_name): its head and its tail.
  if (const size_t dots = query.find("..."); dots != std::string_view::npos) {
    const std::string_view head = query.substr(0, dots), tail = query.substr(dots + 3);
    auto found = kernels_where(profile, [&](const KernelRecord& k) {
      const std::string shown = kernel_name_without_signature(k.name);
      return shown.size() >= head.size() + tail.size() && shown.starts_with(head) && shown.ends_with(tail);
    });
    if (!found.empty()) return {std::move(found), "shortened name"};
  }
  return {kernels_where(profile, [&](const KernelRecord& k) { return k.name.find(query) != std::string::npos; }),
          "part of the name"};
}

const KernelRecord& find_kernel(const KernelProfile& profile, std::string_view query, std::string_view source,
                                std::string_view option) {
  if (query.empty()) {
    if (profile.kernels.size() == 1) return profile.kernels.front();
    throw InputError(fmt::format("{}: holds {} kernels; choose one with {} (its name, base name, a part of its name "
                                 "or regex:EXPR): {}",
                                 printable(source), profile.kernels.size(), option,
                                 candidates_text(profile, every_kernel(profile))));
  }
  const KernelMatches matches = match_kernels(profile, query, option);
  if (matches.kernels.size() == 1) return profile.kernels[matches.kernels.front()];
  if (matches.kernels.size() > 1)
    throw InputError(fmt::format("{} {}: {} kernels of {} match (by {}): {}; give more of the name, the whole or "
                                 "mangled name, or regex:EXPR",
                                 option, printable(query), matches.kernels.size(), printable(source), matches.rule,
                                 candidates_text(profile, matches.kernels)));
  std::vector<std::string> base_names;
  for (const auto& kernel : profile.kernels) base_names.push_back(kernel_base_name(kernel.name));
  const auto closest = closest_name(query, base_names);
  const char* tried = matches.rule == "regex" ? "the regex" : "whole, mangled or base name, or part of the name";
  throw InputError(fmt::format("{} {}: no kernel of {} matches (by {}){}; its kernels: {}", option, printable(query),
                               printable(source), tried,
                               closest ? fmt::format("; did you mean {}?", printable(*closest)) : "",
                               candidates_text(profile, every_kernel(profile))));
}

}  // namespace roofcast
