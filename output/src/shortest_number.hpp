#pragma once

#include <cstddef>

namespace roofcast {

// How the shortest digits of a double are laid out: as nlohmann's dump() ("1.0", "1e-05", fixed
// up to 15 integer digits, "-0.0") or as fmt's "{}" ("1", "1e-05", fixed up to 16, "-0").
enum class NumberLayout { nlohmann, fmt };

// A finite `number` as its shortest digits that read back as `number` (fmt's Dragonbox), laid out
// as `layout` lays them out. Writes at most kMaxShortestNumberChars bytes at `out` (some zeros past
// the number, as room to write it fast) and returns the number's end.
constexpr size_t kMaxShortestNumberChars = 40;
char* write_shortest(double number, NumberLayout layout, char* out);

}  // namespace roofcast
