#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace roofcast {

// Edits (insertions, deletions, substitutions of one character, case ignored) that turn `a` into `b`.
size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `typed`, for "did you mean ...?": nullopt when even the closest needs
// more edits than a typo makes (over a third of the longer name, at least 2 allowed).
std::optional<std::string> closest_name(std::string_view typed, const std::vector<std::string>& candidates);

}  // namespace roofcast
